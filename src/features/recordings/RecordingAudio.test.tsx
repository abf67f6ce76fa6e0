// The recording screen's audio section says what a cut-off stream kept (issue 34: a live stream whose
// instance died is ended by the sweep, sync-server/audio/live-end.ts): the audio that arrived, or
// none (Finalized with no audio); a recording that was not cut off says neither. In English and German.
import 'fake-indexeddb/auto';
import '../../../tests/happy-page.ts';
import { afterEach, describe, expect, it } from 'vitest';
import type { Recording } from '../../protocol/entities.ts';

const { RecordingAudio } = await import('./RecordingAudio.tsx');
const { mount } = await import('../../../tests/dom-actions.ts');
const { getLocale, setLocale } = await import('../../paraglide/runtime.js');

const ID = '5a4c9f7e-1d2b-4c3a-9e8f-7a6b5c4d3e2f';
const recording = (over: Partial<Recording>): Recording => ({
  Id: ID,
  OrganizationId: '11111111-1111-4111-8111-111111111111',
  ProgramId: '22222222-2222-4222-8222-222222222222',
  CreatedAtUtc: '2026-12-06T03:00:00.000Z',
  CreatedById: null,
  ModifiedAtUtc: '2026-12-06T03:05:00.000Z',
  ModifiedById: null,
  Deleted: false,
  Version: 1,
  BreakType: null,
  CaptureStartUtc: '2026-12-06T03:00:00.000Z',
  CaptureEndUtc: '2026-12-06T03:04:00.000Z',
  Description: 'Recorded by Studio 3 encoder',
  HasTornAudio: false,
  Rating: null,
  Reviewed: false,
  Title: 'Morning live',
  TranscriptStatus: null,
  V1CorrelationId: null,
  V2CorrelationId: null,
  DurationSeconds: null,
  State: 'Finalized',
  Urls: { AudioUrl: null, WaveformHighResUrl: null, WaveformLowResUrl: null },
  ...over,
});
const lost = recording({ HasTornAudio: true, DurationSeconds: 0 });
const processing = recording({ HasTornAudio: true, State: 'Processing' });

const locale = getLocale();
afterEach(async () => {
  await setLocale(locale, { reload: false });
  document.body.innerHTML = '';
});

describe('RecordingAudio of a cut-off stream', () => {
  it('says no audio could be kept when the recording ended without any', async () => {
    const el = await mount(<RecordingAudio recording={lost} programHref="/p" />);
    expect(el.querySelector('.alert-warning')?.textContent).toBe('The stream was cut off and none of its audio could be kept: this recording has no audio.');
    // Said once, not also as the plain "no audio" of a recording that never had any.
    expect([...el.querySelectorAll('p')].map((p) => p.textContent)).not.toContain('This recording has no audio.');
  });

  it('says only the audio that arrived is kept while that audio is processed', async () => {
    const el = await mount(<RecordingAudio recording={processing} programHref="/p" />);
    expect(el.querySelector('.alert-warning')?.textContent).toBe('The stream was cut off: this recording holds only the audio that arrived before it stopped.');
    expect(el.textContent).toContain('still being processed');
  });

  it('says nothing of it for a recording that was not cut off', async () => {
    const el = await mount(<RecordingAudio recording={recording({ DurationSeconds: 0 })} programHref="/p" />);
    expect(el.querySelector('.alert-warning')).toBeNull();
    expect(el.textContent).toContain('This recording has no audio.');
  });

  it('in German', async () => {
    await setLocale('de-DE', { reload: false });
    const el = await mount(<RecordingAudio recording={lost} programHref="/p" />);
    expect(el.querySelector('.alert-warning')?.textContent).toBe('Der Stream brach ab, und nichts von seinem Ton konnte behalten werden: Diese Aufnahme hat keinen Ton.');
  });
});
