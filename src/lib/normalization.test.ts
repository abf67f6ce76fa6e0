import { describe, expect, it } from 'vitest';
import { isNormalizationChoice, normalizationLabel, programNormalizationLabel } from './normalization.ts';

const PRESETS = [{ Id: 'podcast', Name: 'Podcast', Description: 'Speech', IntegratedLoudness: -16, TruePeak: -1, LoudnessRange: 11 }];

// Tests run in en-US (the base locale).
describe('normalization words', () => {
  it('names a preset with its targets, off as Off, and an Id the device does not know as such', () => {
    expect(normalizationLabel('podcast', PRESETS)).toBe('Podcast (-16 LUFS, -1 dBTP)');
    expect(normalizationLabel(null, PRESETS)).toBe('Off');
    expect(normalizationLabel('podcast', null)).toBe('Preset podcast');
  });

  it('tells a normalization choice from other field values (a conflict shows it by name)', () => {
    expect(isNormalizationChoice({ PresetId: 'podcast' })).toBe(true);
    expect(isNormalizationChoice({ PresetId: null })).toBe(true);
    for (const other of [null, 'podcast', [], { PresetId: 'x', Other: 1 }, { Name: 'x' }]) expect(isNormalizationChoice(other)).toBe(false);
  });

  it('a program’s Normalization without a choice of its own reads as the organization’s, not as empty', () => {
    expect(programNormalizationLabel(null, PRESETS)).toBe('The organization’s choice');
    expect(programNormalizationLabel(undefined, PRESETS)).toBe('The organization’s choice');
    expect(programNormalizationLabel({ PresetId: 'podcast' }, PRESETS)).toBe('Podcast (-16 LUFS, -1 dBTP)');
    expect(programNormalizationLabel({ PresetId: null }, PRESETS)).toBe('Off');
    expect(programNormalizationLabel('something else', PRESETS)).toBeNull();
  });
});
