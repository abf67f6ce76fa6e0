import { describe, expect, it } from 'vitest';
import { containsPattern, readStaffLookup, staffLookupHref } from './staff-lookup.ts';

const ORG = '3f2504e0-4f89-41d3-9a0c-0305e82c3301';
const PROGRAM = 'A1B2C3D4-0000-4000-8000-000000000001';
const CLIP = 'a1b2c3d4-0000-4000-8000-000000000002';

describe('readStaffLookup', () => {
  it('reads the ids of a studio address, the object looked at first, lower-cased and once each', () => {
    expect(readStaffLookup(` https://studio.example/${ORG}/programs/${PROGRAM}/clips/${CLIP}?from=${CLIP} `)).toEqual({ query: { kind: 'ids', ids: [CLIP, PROGRAM.toLowerCase(), ORG] } });
    expect(readStaffLookup(ORG)).toEqual({ query: { kind: 'ids', ids: [ORG] } });
  });

  it('reads an e-mail address, lower-cased, and anything else as text', () => {
    expect(readStaffLookup('Dana@Example.com')).toEqual({ query: { kind: 'email', email: 'dana@example.com' } });
    expect(readStaffLookup('Morning brief')).toEqual({ query: { kind: 'text', text: 'Morning brief' } });
    expect(readStaffLookup('@example.com')).toEqual({ query: { kind: 'text', text: '@example.com' } });
  });

  it('refuses an empty, too short or too long query', () => {
    expect(readStaffLookup('  ')).toEqual({ error: { type: 'required' } });
    expect(readStaffLookup('ab')).toMatchObject({ error: { type: 'tooShort', message: 'domain_staff_lookup_too_short', params: { min: 3 } } });
    expect(readStaffLookup('x'.repeat(501))).toMatchObject({ error: { type: 'tooLong', params: { max: 500 } } });
  });
});

describe('containsPattern', () => {
  it('matches the text anywhere, its own LIKE characters literally', () => {
    expect(containsPattern('50%_off\\')).toBe('%50\\%\\_off\\\\%');
  });
});

describe('staffLookupHref', () => {
  it('opens each kind at its route of section 2; a row of no organization nowhere', () => {
    expect(staffLookupHref({ Kind: 'Clip', Id: CLIP, OrganizationId: ORG, ProgramId: PROGRAM })).toBe(`/${ORG}/programs/${PROGRAM}/clips/${CLIP}`);
    expect(staffLookupHref({ Kind: 'Recording', Id: CLIP, OrganizationId: ORG, ProgramId: PROGRAM })).toBe(`/${ORG}/programs/${PROGRAM}/recordings/${CLIP}`);
    expect(staffLookupHref({ Kind: 'Organization', Id: ORG, OrganizationId: ORG, ProgramId: null })).toBe(`/${ORG}`);
    expect(staffLookupHref({ Kind: 'User', Id: CLIP, OrganizationId: null, ProgramId: null })).toBeNull();
  });
});
