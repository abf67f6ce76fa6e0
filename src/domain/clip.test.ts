import { describe, expect, it } from 'vitest';
import {
  clipLabel,
  clipStateDisplay,
  holdsClipSlug,
  isPublishPending,
  normaliseTitle,
  normalizeClip,
  seasonEpisodeLabel,
  visibilityNeeds,
  visibleProcessingProblem,
  ClipState,
  CLIP_STATE_LABEL,
  PublishState,
  Visibility,
  VISIBILITIES,
  type ClipFields,
} from './clip.ts';
import { ClipState as ClipStateSchema, PublishState as PublishStateSchema } from '../protocol/entities.ts';
import { normalizeRecording, type RecordingFields } from './recording.ts';
import { slugServerError, slugErrorMessageKey } from './server-errors.ts';
import { domainMessage, formatFormError } from './messages.ts';

const ready: ClipFields = {
  Title: 'Episode one',
  State: 'Ready',
  Visibility: 'Private',
  DurationSeconds: 61,
  MediaType: 'Audio',
  AudioPrivateUrl: 'https://cdn.example.com/a.mp3',
  WaveformHighResUrl: 'https://cdn.example.com/h.json',
  WaveformLowResUrl: 'https://cdn.example.com/l.json',
};

describe('Clip normalisation', () => {
  it('a title of only whitespace becomes null', () => {
    const result = normalizeClip({ ...ready, Title: ' \t ' });
    expect(result).toMatchObject({ ok: true, value: { Title: null } });
    expect(normalizeClip({ ...ready, Title: null })).toMatchObject({ ok: true, value: { Title: null } });
  });

  it.each([
    [{ DurationSeconds: null }, 'ReadyWithoutDuration', 'DurationSeconds'],
    [{ AudioPrivateUrl: null }, 'ReadyWithoutAudio', 'AudioPrivateUrl'],
    [{ WaveformHighResUrl: null }, 'ReadyWithoutWaveform', 'WaveformHighResUrl'],
    [{ WaveformLowResUrl: null }, 'ReadyWithoutWaveform', 'WaveformLowResUrl'],
    [{ MediaType: 'AudioAndVideo' }, 'ReadyWithoutVideo', 'VideoPrivateUrl'],
    [{ State: 'Warning', DurationSeconds: null }, 'ReadyWithoutDuration', 'DurationSeconds'],
  ] as const)('Ready requires duration, audio and waveform URLs (video too for AudioAndVideo): %j → %s', (patch, error, field) => {
    expect(normalizeClip({ ...ready, ...patch })).toEqual({ ok: false, error, field });
  });

  it('AudioAndVideo with a video URL, a public audio URL, and non-ready states pass', () => {
    expect(normalizeClip({ ...ready, MediaType: 'AudioAndVideo', VideoPublicUrl: 'v' }).ok).toBe(true);
    expect(normalizeClip({ ...ready, AudioPrivateUrl: null, AudioPublicUrl: 'a' }).ok).toBe(true);
    expect(normalizeClip({ Title: 'x', State: 'Processing', Visibility: 'Private' }).ok).toBe(true);
  });

  const published = { PublishedUtc: '2024-01-01T00:00:00.000Z', Slug: 'ep-1', EmbedUrl: 'e', ShowPageUrl: 's' };
  it.each([
    ['Public', { ...published }, true],
    ['Public', { ...published, EmbedUrl: null }, 'EmbedUrl'],
    ['Unlisted', { ...published, ShowPageUrl: null }, 'ShowPageUrl'],
    ['Unlisted', { ...published, Slug: null }, 'Slug'],
    ['Restricted', { PublishedUtc: 'x', Slug: 'ep-1' }, true],
    ['Restricted', { Slug: 'ep-1' }, 'PublishedUtc'],
    ['Private', { Slug: null }, true],
  ] as const)('visibility %s needs its fields: %j → %s', (Visibility, fields, outcome) => {
    const result = normalizeClip({ ...ready, Visibility, ...fields });
    if (outcome === true) expect(result.ok).toBe(true);
    else expect(result).toEqual({ ok: false, error: 'VisibilityWithoutField', field: outcome });
  });

  it('Restricted has no embed or show-page URL', () => {
    const result = normalizeClip({ ...ready, Visibility: 'Restricted', ...published });
    expect(result).toMatchObject({ ok: true, value: { EmbedUrl: null, ShowPageUrl: null } });
  });

  it('an unknown visibility needs nothing', () => expect(normalizeClip({ ...ready, Visibility: 'Odd' }).ok).toBe(true));

  it('ScheduledVisibility and VisibleAtUtc must both be set or both null', () => {
    expect(normalizeClip({ ...ready, ScheduledVisibility: 'Public', VisibleAtUtc: '2030-01-01T00:00:00Z' }).ok).toBe(true);
    expect(normalizeClip({ ...ready, ScheduledVisibility: 'Public', VisibleAtUtc: null })).toMatchObject({ ok: false, error: 'ScheduledVisibilityMismatch' });
    expect(normalizeClip({ ...ready, ScheduledVisibility: null, VisibleAtUtc: '2030-01-01T00:00:00Z' }).ok).toBe(false);
  });
});

describe('one list of each value set: the wire schema\'s', () => {
  it('"Visibility values: Private, Public, Restricted, Unlisted", in that order', () => {
    expect(VISIBILITIES).toEqual(['Private', 'Public', 'Restricted', 'Unlisted']);
    expect(Visibility).toEqual({ Private: 'Private', Public: 'Public', Restricted: 'Restricted', Unlisted: 'Unlisted' });
  });

  it('every State and PublishState the wire carries has its constant, and no other', () => {
    expect(Object.values(ClipState).sort()).toEqual([...ClipStateSchema.options].sort());
    expect(Object.values(PublishState).sort()).toEqual([...PublishStateSchema.options].sort());
    for (const state of ClipStateSchema.options) expect(clipStateDisplay(state), state).not.toBeNull();
  });
});

describe('what each Visibility needs (section 4)', () => {
  it.each([
    ['Public', { PublishedUtc: true, Slug: true, EmbedUrl: true, ShowPageUrl: true }],
    ['Unlisted', { PublishedUtc: true, Slug: true, EmbedUrl: true, ShowPageUrl: true }],
    ['Restricted', { PublishedUtc: true, Slug: true, EmbedUrl: false, ShowPageUrl: false }],
    ['Private', { PublishedUtc: false, Slug: false, EmbedUrl: false, ShowPageUrl: false }],
    ['Everyone', { PublishedUtc: false, Slug: false, EmbedUrl: false, ShowPageUrl: false }],
    ['toString', { PublishedUtc: false, Slug: false, EmbedUrl: false, ShowPageUrl: false }],
    [null, { PublishedUtc: false, Slug: false, EmbedUrl: false, ShowPageUrl: false }],
  ] as const)('%s', (visibility, needs) => {
    for (const [field, needed] of Object.entries(needs)) expect(visibilityNeeds(visibility, field as keyof typeof needs), field).toBe(needed);
  });

  it('"A title of only whitespace becomes null"; other titles stay as they are', () => {
    expect(normaliseTitle(' \t ')).toBeNull();
    expect(normaliseTitle(undefined)).toBeNull();
    expect(normaliseTitle(' Pilot ')).toBe(' Pilot ');
  });
});

describe('Clip State and PublishState display', () => {
  it.each([
    ['AudioUploaded', 'ingesting', 'Ingesting'],
    ['None', 'ingesting', 'Ingesting'],
    ['Processing', 'ingesting', 'Ingesting'],
    ['Draft', 'draft', 'Draft'],
    ['Error', 'error', 'Error'],
    ['Ready', 'ready', 'Ready'],
    ['Warning', 'ready', 'Ready'],
  ] as const)('%s is shown as %s', (state, display, label) => {
    expect(clipStateDisplay(state)).toBe(display);
    expect(domainMessage(CLIP_STATE_LABEL[display], {}, 'en-US')).toBe(label);
  });
  it('an unknown state has no display', () => expect(clipStateDisplay('Exploded')).toBeNull());

  it('Warning shows the processing problem unless it was dismissed', () => {
    expect(visibleProcessingProblem({ State: 'Warning', AudioProcessingProblem: 'Clipping' })).toBe('Clipping');
    expect(visibleProcessingProblem({ State: 'Warning', AudioProcessingProblem: 'Clipping', AudioProcessingProblemDismissed: true })).toBeNull();
    expect(visibleProcessingProblem({ State: 'Warning' })).toBeNull();
    expect(visibleProcessingProblem({ State: 'Ready', AudioProcessingProblem: 'Clipping' })).toBeNull();
  });

  it.each([
    ['Published', false],
    ['Unpublished', false],
    ['Publishing', true],
    ['Unpublishing', true],
    [null, false],
  ])('PublishState %s pending: %s', (state, pending) => expect(isPublishPending(state)).toBe(pending));
});

describe('Clip label', () => {
  it("an untitled clip shows 'Untitled clip'", () => {
    expect(clipLabel({ Title: null }, 'en-US')).toBe('Untitled clip');
    expect(clipLabel({ Title: '  ' }, 'en-US')).toBe('Untitled clip');
    expect(clipLabel({ Title: ' Pilot ' })).toBe('Pilot');
  });
  it.each([
    [2, 5, 'S2/E5'],
    [2, null, 'S2'],
    [null, 5, 'E5'],
    [null, null, null],
    [0, 0, 'S0/E0'],
  ])("Season %s and Episode %s form the label 'S{n}/E{m}', or just one of them, or none → %s", (Season, Episode, label) => {
    expect(seasonEpisodeLabel({ Season, Episode }, 'en-US')).toBe(label);
  });
});

describe('Slug server errors', () => {
  it.each([
    ['SlugExists', 'clip', 'This slug is already in use in this program'],
    ['SlugExists', 'playlist', 'This slug is already in use'],
    ['SlugExists', 'program', 'This slug is already in use'],
    ['SlugReservationFailed', 'clip', 'This slug is reserved for use by the product'],
    ['SlugReservationFailed', 'program', 'This slug is reserved for use by the product'],
  ] as const)('%s for a %s: %s', (code, owner, message) => {
    expect(domainMessage(slugErrorMessageKey(code, owner), {}, 'en-US')).toBe(message);
    const error = slugServerError(code, owner);
    expect(error).toMatchObject({ type: 'invalid', reason: code });
    expect(formatFormError(error!, 'en-US')).toBe(message);
  });
  it('other codes are not slug errors', () => expect(slugServerError('Nope', 'clip')).toBeNull());
});

describe('Recording normalisation', () => {
  const urls = { AudioUrl: 'a', WaveformHighResUrl: 'h', WaveformLowResUrl: 'l' };
  const rec = (State: string, DurationSeconds: number | null, u: Partial<RecordingFields['Urls']> = {}): RecordingFields => ({
    State,
    DurationSeconds,
    Urls: { ...urls, ...u },
  });

  it('Processing: no duration, no audio or waveform links', () => {
    expect(normalizeRecording(rec('Processing', 12))).toEqual({
      ok: true,
      value: { State: 'Processing', DurationSeconds: null, Urls: { AudioUrl: null, WaveformHighResUrl: null, WaveformLowResUrl: null }, Phase: 'processing' },
    });
  });

  it('Live: an audio link is required; duration may be present; no waveform links', () => {
    expect(normalizeRecording(rec('Live', 30))).toMatchObject({ ok: true, value: { Phase: 'live', DurationSeconds: 30, Urls: { AudioUrl: 'a', WaveformHighResUrl: null } } });
    expect(normalizeRecording(rec('Live', null, { AudioUrl: null }))).toEqual({ ok: false, error: 'LiveWithoutAudio', field: 'Urls.AudioUrl' });
  });

  it.each([
    [rec('Finalized', 10), 'finalized'],
    [rec('Finalized', null, { AudioUrl: null }), 'FinalizedWithoutAudio'],
    [rec('Finalized', 10, { WaveformHighResUrl: null }), 'FinalizedWithoutWaveformHighRes'],
    [rec('Finalized', 10, { WaveformLowResUrl: null }), 'FinalizedWithoutWaveformLowRes'],
    [rec('Finalized', null), 'FinalizedWithoutDuration'],
    [rec('Finalized', 0), 'finalizedZeroDuration'],
    [rec('Archived', 10), 'UnhandledState'],
  ])('Finalized requires audio link, both waveform links and a duration: %j → %s', (input, outcome) => {
    const result = normalizeRecording(input);
    expect(result.ok ? result.value.Phase : result.error).toBe(outcome);
  });

  it('a Finalized recording with duration 0 has no audio link', () => {
    expect(normalizeRecording(rec('Finalized', 0))).toMatchObject({ ok: true, value: { Urls: { AudioUrl: null } } });
  });
});

describe('Clip slug uniqueness (section 5: unique in the program)', () => {
  const clip = { Id: 'c1', ProgramId: 'p1' };
  const other = { Id: 'c2', ProgramId: 'p1', Slug: 'pilot', Deleted: false };

  it("another clip of the same program holds its slug: 'This slug is already in use in this program'", () => {
    expect(holdsClipSlug(other, clip, 'pilot')).toBe(true);
  });

  it.each([
    ['the clip itself', { ...other, Id: 'c1' }, 'pilot'],
    ['a clip of another program', { ...other, ProgramId: 'p2' }, 'pilot'],
    ['a deleted clip', { ...other, Deleted: true }, 'pilot'],
    ['a clip with another slug', other, 'pilot-2'],
    ['a clip without a slug, for an empty slug', { ...other, Slug: '' }, ''],
  ])('%s does not hold it', (_, holder, slug) => {
    expect(holdsClipSlug(holder, clip, slug)).toBe(false);
  });

  it('slugs differ by case: the server compares them as stored', () => {
    expect(holdsClipSlug(other, clip, 'Pilot')).toBe(false);
  });
});
