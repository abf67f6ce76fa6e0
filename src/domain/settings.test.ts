import { describe, expect, it } from 'vitest';
import { allPermissions, noPermissions } from './permissions.ts';
import { effectiveNormalization, estimateDeletion, parseEstimateDays, retentionCutoff, SETTING_VALUE_MAX_BYTES, settingsAccess, validateNormalizationPreset, validateRetentionDays, validateSettingName, validateSettingValue } from './settings.ts';

describe('named settings', () => {
  it('takes lower-case words joined by - _ or . and refuses anything else', () => {
    for (const ok of ['transcription', 'playlist-premium-feed-urls', 'player.theme', 'v2_colours', 'a'.repeat(64)]) expect(validateSettingName(ok), ok).toBeNull();
    expect(validateSettingName('')?.type).toBe('required');
    expect(validateSettingName('a'.repeat(65))).toMatchObject({ type: 'tooLong', params: { max: 64 } });
    for (const bad of ['Player', '1st', '-a', 'a-', 'a--b', 'a b', 'é', 'a/b']) expect(validateSettingName(bad)?.type, bad).toBe('invalid');
  });

  it('takes any JSON value up to the size limit, counted in UTF-8 bytes of its JSON text', () => {
    for (const ok of [null, 0, '', [], {}, { a: [1, 'two'] }]) expect(validateSettingValue(ok)).toBeNull();
    expect(validateSettingValue(undefined)?.type).toBe('required');
    expect(validateSettingValue('x'.repeat(SETTING_VALUE_MAX_BYTES - 2))).toBeNull();
    expect(validateSettingValue('x'.repeat(SETTING_VALUE_MAX_BYTES - 1))?.type).toBe('tooLong');
    // 'é' is two bytes: half as many fit.
    expect(validateSettingValue('é'.repeat(SETTING_VALUE_MAX_BYTES / 2))?.type).toBe('tooLong');
  });

  it('section 6: organization settings for audit or manage-organization-settings access; below, manage-settings needs content access', () => {
    const none = noPermissions();
    expect(settingsAccess('Organization', allPermissions())).toEqual({ read: true, write: true });
    expect(settingsAccess('Organization', { ...none, HasAuditAccess: true })).toEqual({ read: true, write: false });
    expect(settingsAccess('Organization', { ...none, HasManageSettingsAccess: true, HasContentAccess: true })).toEqual({ read: false, write: false });
    expect(settingsAccess('Program', { ...none, HasManageSettingsAccess: true })).toEqual({ read: false, write: false });
    expect(settingsAccess('Program', { ...none, HasManageSettingsAccess: true, HasContentAccess: true })).toEqual({ read: true, write: true });
    expect(settingsAccess('Clip', { ...none, HasAuditAccess: true, HasContentAccess: true })).toEqual({ read: true, write: false });
    expect(settingsAccess('Network', { ...none, HasContentAccess: true })).toEqual({ read: false, write: false });
  });
});

describe('normalization inheritance', () => {
  it('a program without its own choice inherits the organization’s (none chosen: off)', () => {
    expect(effectiveNormalization(undefined, undefined)).toEqual({ PresetId: null, Source: 'Organization' });
    expect(effectiveNormalization({ PresetId: 'podcast' }, null)).toEqual({ PresetId: 'podcast', Source: 'Organization' });
  });

  it('a program’s own choice wins, off included', () => {
    expect(effectiveNormalization({ PresetId: 'podcast' }, { PresetId: 'streaming' })).toEqual({ PresetId: 'streaming', Source: 'Program' });
    expect(effectiveNormalization({ PresetId: 'podcast' }, { PresetId: null })).toEqual({ PresetId: null, Source: 'Program' });
  });

  it('a preset must be one of the reference list’s; off always may be chosen', () => {
    expect(validateNormalizationPreset('podcast', ['podcast'])).toBeNull();
    expect(validateNormalizationPreset(null, ['podcast'])).toBeNull();
    expect(validateNormalizationPreset('loud', ['podcast'])).toMatchObject({ type: 'invalid', params: { value: 'loud' } });
    expect(validateNormalizationPreset('loud', null)).toBeNull();
  });
});

describe('recording retention', () => {
  it('takes a whole number of days from 1 to 3650, or null (kept for ever)', () => {
    for (const ok of [null, 1, 30, 3650]) expect(validateRetentionDays(ok), String(ok)).toBeNull();
    expect(validateRetentionDays(0)).toMatchObject({ type: 'outOfRange', reason: 'underflow', params: { min: 1, max: 3650 } });
    expect(validateRetentionDays(3651)).toMatchObject({ type: 'outOfRange', reason: 'overflow' });
    for (const bad of [1.5, Number.NaN, Number.POSITIVE_INFINITY]) expect(validateRetentionDays(bad)?.type, String(bad)).toBe('invalid');
  });

  it('reads the days of an estimate: required, digits only, in range', () => {
    expect(parseEstimateDays('30')).toEqual({ days: 30 });
    expect(parseEstimateDays(undefined)).toEqual({ error: { type: 'required' } });
    expect(parseEstimateDays('')).toEqual({ error: { type: 'required' } });
    for (const bad of ['abc', '1.5', '-3', ' 30', '1e3', '9999999']) expect(parseEstimateDays(bad), bad).toMatchObject({ error: { type: 'invalid' } });
    expect(parseEstimateDays('0')).toMatchObject({ error: { type: 'outOfRange' } });
    expect(parseEstimateDays('3651')).toMatchObject({ error: { type: 'outOfRange' } });
  });

  it('estimates the live rows created before the cutoff: count, total duration, the oldest', () => {
    const now = new Date('2026-03-31T12:00:00Z');
    expect(retentionCutoff(now, 30).toISOString()).toBe('2026-03-01T12:00:00.000Z');
    const rows = [
      { CreatedAtUtc: '2026-03-02T08:00:00Z', Deleted: false, DurationSeconds: 3600 },
      { CreatedAtUtc: '2026-02-10T08:00:00Z', Deleted: false, DurationSeconds: 600 },
      { CreatedAtUtc: '2026-01-01T08:00:00Z', Deleted: true, DurationSeconds: 60 },
      { CreatedAtUtc: '2026-02-20T08:00:00Z', Deleted: false, DurationSeconds: null },
      // Exactly at the cutoff: not older than 30 days.
      { CreatedAtUtc: '2026-03-01T12:00:00Z', Deleted: false, DurationSeconds: 5 },
    ];
    expect(estimateDeletion(rows, 30, now)).toEqual({ Count: 2, TotalDurationSeconds: 600, OldestCreatedAtUtc: '2026-02-10T08:00:00.000Z' });
    expect(estimateDeletion(rows, 1, now)).toEqual({ Count: 4, TotalDurationSeconds: 4205, OldestCreatedAtUtc: '2026-02-10T08:00:00.000Z' });
    expect(estimateDeletion(rows, 365, now)).toEqual({ Count: 0, TotalDurationSeconds: 0, OldestCreatedAtUtc: null });
  });
});
