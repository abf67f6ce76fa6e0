import { describe, expect, it } from 'vitest';
import { INVITATION_EXPIRY_MS, invitationState } from './invitations.ts';

describe('invitationState', () => {
  const created = new Date('2026-03-02T09:00:00Z');
  const expires = new Date(created.getTime() + INVITATION_EXPIRY_MS);

  it('an invitation link works for 7 days', () => {
    expect(INVITATION_EXPIRY_MS).toBe(7 * 24 * 60 * 60 * 1000);
    expect(invitationState({ usedAtUtc: null, expiresAtUtc: expires }, new Date(expires.getTime() - 1))).toBe('Open');
  });

  it('is Expired from its expiry on', () => {
    expect(invitationState({ usedAtUtc: null, expiresAtUtc: expires.toISOString() }, expires)).toBe('Expired');
  });

  it('a used invitation says Used, however old', () => {
    expect(invitationState({ usedAtUtc: created, expiresAtUtc: expires }, created)).toBe('Used');
    expect(invitationState({ usedAtUtc: created.toISOString(), expiresAtUtc: expires }, new Date(expires.getTime() + 1))).toBe('Used');
  });
});
