import { describe, expect, it } from 'vitest';
import {
  failingTooLong,
  isLoopbackHost,
  nextAttemptDelay,
  validateWebhookDescription,
  validateWebhookEventTypes,
  validateWebhookUrl,
  WEBHOOK_DISABLE_AFTER_MS,
  WEBHOOK_EVENT_TYPES,
  WEBHOOK_LOG_EVENT_TYPES,
  WEBHOOK_RETRY_SCHEDULE_MS,
  webhookAccess,
  webhookEventsOf,
  webhookEventType,
  webhookSignedContent,
} from './webhooks.ts';

const HOUR = 3_600_000;

describe('webhook event types', () => {
  it('are Created, Updated and Deleted of clips, programs, playlists, networks and recordings, plus ClipVisibilityChanged and PublishStateChanged', () => {
    expect(WEBHOOK_EVENT_TYPES).toHaveLength(17);
    for (const kind of ['Clip', 'Program', 'Playlist', 'Network', 'Recording']) {
      for (const change of ['Created', 'Updated', 'Deleted']) expect(WEBHOOK_EVENT_TYPES).toContain(`${kind}${change}`);
    }
    expect(WEBHOOK_EVENT_TYPES).toContain('ClipVisibilityChanged');
    expect(WEBHOOK_EVENT_TYPES).toContain('PublishStateChanged');
    expect(WEBHOOK_LOG_EVENT_TYPES).toContain('WebhookTest');
    expect(webhookEventType('recording', 'Deleted')).toBe('RecordingDeleted');
  });

  it('a revision without an undo step is a create', () => {
    expect(webhookEventsOf('clip', null, false)).toEqual(['ClipCreated']);
    expect(webhookEventsOf('network', null, false)).toEqual(['NetworkCreated']);
  });

  it('a write that changed no field makes no event', () => {
    expect(webhookEventsOf('clip', {}, false)).toEqual([]);
  });

  it('Deleted going from false to true is a delete, and only that', () => {
    expect(webhookEventsOf('playlist', { Deleted: false }, true)).toEqual(['PlaylistDeleted']);
    expect(webhookEventsOf('clip', { Deleted: false, Visibility: 'Public' }, true)).toEqual(['ClipDeleted']);
  });

  it('a restore (Deleted true → false) is an update', () => {
    expect(webhookEventsOf('program', { Deleted: true }, false)).toEqual(['ProgramUpdated']);
  });

  it('a clip write that changed Visibility or PublishState is also ClipVisibilityChanged / PublishStateChanged', () => {
    expect(webhookEventsOf('clip', { Title: 'Old' }, false)).toEqual(['ClipUpdated']);
    expect(webhookEventsOf('clip', { Visibility: 'Private' }, false)).toEqual(['ClipUpdated', 'ClipVisibilityChanged']);
    expect(webhookEventsOf('clip', { PublishState: 'Unpublished', Visibility: 'Private' }, false)).toEqual(['ClipUpdated', 'ClipVisibilityChanged', 'PublishStateChanged']);
    // A playlist's Visibility is not a clip's.
    expect(webhookEventsOf('playlist', { Visibility: 'Private' }, false)).toEqual(['PlaylistUpdated']);
  });
});

describe('delivery schedule', () => {
  it('retries after 5 s, 5 min, 30 min, 2 h, 5 h, 10 h and 10 h, then gives up (a day and more)', () => {
    expect(WEBHOOK_RETRY_SCHEDULE_MS).toEqual([5_000, 300_000, 1_800_000, 2 * HOUR, 5 * HOUR, 10 * HOUR, 10 * HOUR]);
    expect(nextAttemptDelay(1)).toBe(5_000);
    expect(nextAttemptDelay(7)).toBe(10 * HOUR);
    expect(nextAttemptDelay(8)).toBeNull();
    expect(nextAttemptDelay(0)).toBeNull();
    expect(WEBHOOK_RETRY_SCHEDULE_MS.reduce((a, b) => a + b, 0)).toBeGreaterThan(24 * HOUR);
    expect(nextAttemptDelay(2, [1, 2])).toBe(2);
    expect(nextAttemptDelay(3, [1, 2])).toBeNull();
  });

  it('a webhook failing for a day is failing too long', () => {
    const now = new Date('2030-01-02T00:00:00Z');
    expect(WEBHOOK_DISABLE_AFTER_MS).toBe(24 * HOUR);
    expect(failingTooLong(null, now)).toBe(false);
    expect(failingTooLong('2030-01-01T00:00:01Z', now)).toBe(false);
    expect(failingTooLong('2030-01-01T00:00:00Z', now)).toBe(true);
    expect(failingTooLong(new Date('2030-01-01T23:00:00Z'), now, HOUR)).toBe(true);
  });

  it('signs "{id}.{timestamp}.{body}" (Standard Webhooks)', () => {
    expect(webhookSignedContent('msg_1', 1700000000, '{"a":1}')).toBe('msg_1.1700000000.{"a":1}');
  });
});

describe('validateWebhookUrl', () => {
  const serverCheck = (host: string) => (host === '10.0.0.1' || host === '169.254.169.254' || host === 'fd00::1' ? 'private' : host === '127.0.0.1' ? 'loopback' : null);

  it('takes an absolute https URL to a public host', () => {
    expect(validateWebhookUrl('https://hooks.example.com/castaway?x=1')).toBeNull();
    expect(validateWebhookUrl('https://93.184.216.34/hook', { refusedAddress: serverCheck })).toBeNull();
  });

  it('requires one, of a sane length, that parses', () => {
    expect(validateWebhookUrl('')).toMatchObject({ type: 'required', message: 'domain_url_required' });
    expect(validateWebhookUrl(null)).toMatchObject({ type: 'required' });
    expect(validateWebhookUrl(`https://example.com/${'x'.repeat(2100)}`)).toMatchObject({ type: 'tooLong', params: { max: 2048 } });
    expect(validateWebhookUrl('hooks.example.com/x')).toMatchObject({ type: 'urlInvalid', message: 'domain_url_invalid' });
    expect(validateWebhookUrl('https://exa mple.com/')).toMatchObject({ type: 'urlInvalid' });
    expect(validateWebhookUrl('https://')).toMatchObject({ type: 'urlInvalid' });
  });

  it('refuses http, other schemes and credentials', () => {
    expect(validateWebhookUrl('http://hooks.example.com/')).toMatchObject({ type: 'urlInvalid', message: 'domain_url_scheme', params: { schemes: 'https://', reason: 'scheme' } });
    expect(validateWebhookUrl('ftp://hooks.example.com/')).toMatchObject({ params: { reason: 'scheme' } });
    expect(validateWebhookUrl('https://user:pw@hooks.example.com/')).toMatchObject({ message: 'domain_webhook_url_credentials', params: { reason: 'credentials' } });
  });

  it('refuses loopback unless allowed, and then takes http to it too', () => {
    for (const url of ['https://localhost/x', 'http://127.0.0.1:8080/x', 'https://[::1]/x']) {
      expect(validateWebhookUrl(url), url).toMatchObject({ message: 'domain_webhook_url_loopback', params: { reason: 'loopback' } });
      expect(validateWebhookUrl(url, { allowLoopback: true, refusedAddress: (h) => (serverCheck(h) === 'loopback' ? null : serverCheck(h)) }), url).toBeNull();
    }
    // The server's own list has the last word on an IP literal.
    expect(validateWebhookUrl('https://127.0.0.1/x', { allowLoopback: true, refusedAddress: serverCheck })).toMatchObject({ params: { reason: 'loopback' } });
  });

  it('refuses an IP literal in a private, link-local or metadata range (the server says which)', () => {
    for (const url of ['https://10.0.0.1/x', 'https://169.254.169.254/latest/meta-data', 'https://[fd00::1]/x']) {
      expect(validateWebhookUrl(url, { refusedAddress: serverCheck }), url).toMatchObject({ type: 'urlInvalid', message: 'domain_webhook_url_private', params: { reason: 'private' } });
    }
    expect(validateWebhookUrl('https://name.example/x', { refusedAddress: () => 'notAnAddress' })).toBeNull();
  });

  it('knows loopback hosts by their names', () => {
    expect(isLoopbackHost('LOCALHOST')).toBe(true);
    expect(isLoopbackHost('app.localhost')).toBe(true);
    expect(isLoopbackHost('127.10.0.1')).toBe(true);
    expect(isLoopbackHost('[::1]')).toBe(true);
    expect(isLoopbackHost('127.example.com')).toBe(false);
  });
});

describe('description and event types', () => {
  it('a description is at most 500 characters', () => {
    expect(validateWebhookDescription(null)).toBeNull();
    expect(validateWebhookDescription('x'.repeat(500))).toBeNull();
    expect(validateWebhookDescription('x'.repeat(501))).toMatchObject({ type: 'tooLong', params: { max: 500 } });
  });

  it('event types: at least one, each known, none twice', () => {
    expect(validateWebhookEventTypes(['ClipCreated'])).toBeNull();
    expect(validateWebhookEventTypes([])).toMatchObject({ type: 'required' });
    expect(validateWebhookEventTypes(undefined)).toMatchObject({ type: 'required' });
    expect(validateWebhookEventTypes(['ClipExploded'])).toMatchObject({ type: 'invalid' });
    expect(validateWebhookEventTypes(['ClipCreated', 'ClipCreated'])).toMatchObject({ type: 'invalid', reason: 'duplicate' });
  });
});

describe('webhookAccess', () => {
  const flags = (f: Partial<Record<'HasAuditAccess' | 'HasManageOrganizationSettingsAccess' | 'HasManageSettingsAccess', boolean>>) => ({
    HasAuditAccess: false,
    HasManageOrganizationSettingsAccess: false,
    HasManageSettingsAccess: false,
    ...f,
  });
  it('the organization: read with audit or manage-organization-settings access, write with the latter', () => {
    expect(webhookAccess(flags({ HasAuditAccess: true }), null)).toEqual({ read: true, write: false });
    expect(webhookAccess(flags({ HasManageOrganizationSettingsAccess: true }), null)).toEqual({ read: true, write: true });
    expect(webhookAccess(flags({ HasManageSettingsAccess: true }), null)).toEqual({ read: false, write: false });
  });
  it('a network: also with manage-settings access on it', () => {
    expect(webhookAccess(flags({}), flags({ HasManageSettingsAccess: true }))).toEqual({ read: true, write: true });
    expect(webhookAccess(flags({ HasAuditAccess: true }), flags({ HasAuditAccess: true }))).toEqual({ read: true, write: false });
    expect(webhookAccess(flags({}), flags({ HasAuditAccess: true }))).toEqual({ read: false, write: false });
  });
});
