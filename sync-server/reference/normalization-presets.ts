// Loudness normalization presets: the targets handed to the audio normaliser (EBU R128 /
// ITU-R BS.1770 measurement, the same three figures as ffmpeg's two-pass `loudnorm`):
//   IntegratedLoudness  programme loudness target, LUFS (LKFS for ATSC, the same scale)
//   TruePeak            ceiling for inter-sample peaks, dBTP
//   LoudnessRange       largest loudness range (LU) to keep before the normaliser compresses
// Sources of the targets: Apple's podcast guidance (-16 LUFS ±1, -1 dBTP), the AES TD1008
// recommendation for streamed speech (-16 stereo / -19 mono), EBU R128 (-23 LUFS, -1 dBTP),
// ATSC A/85 (-24 LKFS, -2 dBTP), the common -14 LUFS of music streaming services, and
// Netflix's delivery spec for dialogue-gated film and series mixes (-27 LKFS, -2 dBTP).
export type NormalizationPresetEntry = {
  readonly Id: string;
  readonly Name: string;
  readonly Description: string;
  readonly IntegratedLoudness: number;
  readonly TruePeak: number;
  readonly LoudnessRange: number;
};

export const NORMALIZATION_PRESETS: readonly NormalizationPresetEntry[] = [
  {
    Id: 'podcast',
    Name: 'Podcast',
    Description: 'Apple Podcasts and Spotify speech target for stereo episodes.',
    IntegratedLoudness: -16,
    TruePeak: -1,
    LoudnessRange: 11,
  },
  {
    Id: 'podcast-mono',
    Name: 'Podcast (mono)',
    Description: 'AES streaming recommendation for mono speech: 3 dB below the stereo target.',
    IntegratedLoudness: -19,
    TruePeak: -1,
    LoudnessRange: 11,
  },
  {
    Id: 'streaming',
    Name: 'Streaming',
    Description: 'Music streaming services (Spotify, YouTube, Tidal, Amazon Music).',
    IntegratedLoudness: -14,
    TruePeak: -1,
    LoudnessRange: 11,
  },
  {
    Id: 'broadcast-ebu-r128',
    Name: 'Broadcast (EBU R128)',
    Description: 'European radio and television delivery.',
    IntegratedLoudness: -23,
    TruePeak: -1,
    LoudnessRange: 20,
  },
  {
    Id: 'broadcast-atsc-a85',
    Name: 'Broadcast (ATSC A/85)',
    Description: 'North American television delivery (CALM Act).',
    IntegratedLoudness: -24,
    TruePeak: -2,
    LoudnessRange: 20,
  },
  {
    Id: 'film-streaming',
    Name: 'Film and series streaming',
    Description: 'Dialogue-gated delivery for film and series streaming platforms.',
    IntegratedLoudness: -27,
    TruePeak: -2,
    LoudnessRange: 20,
  },
];
