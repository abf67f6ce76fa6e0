import { describe, expect, it } from 'vitest';
import { allPermissions, noPermissions } from './permissions.ts';
import { effectiveNormalization, SETTING_VALUE_MAX_BYTES, settingsAccess, validateNormalizationPreset, validateSettingName, validateSettingValue } from './settings.ts';

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
