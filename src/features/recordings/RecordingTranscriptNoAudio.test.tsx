// "Transcribe automatically" on the recording screen is offered only for a recording with audio to
// transcribe (issue 34 follow-up), against the real server (createApp on PGlite): the seeded
// test capture (Finalized, 0 s, no audio link) and a stream cut off with none of its audio kept
// say why in its place, in English and German; a Finalized recording with its audio offers it.
import 'fake-indexeddb/auto';
// The page's DOM, before React loads (tests/happy-page.ts).
import '../../../tests/happy-page.ts';
import { afterEach, describe, expect, it } from 'vitest';
import type { Recording } from '../../protocol/entities.ts';

const { RecordingTranscript } = await import('./RecordingTranscript.tsx');
const { seedId } = await import('../../../sync-server/seed.ts');
const { mount, pageOnAppForSuite } = await import('../../../tests/page-on-app.ts');
const { getLocale, setLocale } = await import('../../paraglide/runtime.js');

const page = pageOnAppForSuite({ clips: 2 });
const recording = async (key: string) => (await (await page().api(`/api/v1/recordings/${seedId(`recording:morning:${key}`)}`)).json()) as Recording;
const locale = getLocale();
afterEach(async () => {
  await setLocale(locale, { reload: false });
  document.body.innerHTML = '';
});

const render = (r: Recording) => mount(<RecordingTranscript recording={r} />, 'Loading the transcript');
const automatic = (el: HTMLElement) => el.querySelector<HTMLElement>('.transcript-automatic')!;
const offered = (el: HTMLElement) => [...automatic(el).querySelectorAll('button')].some((b) => b.textContent === 'Transcribe automatically');

describe('Transcribe automatically on a recording', () => {
  it('is not offered for a recording with no audio: the section says why, in English and German', async () => {
    const zero = await recording('Zero');
    let el = await render(zero);
    expect(offered(el)).toBe(false);
    expect(automatic(el).querySelector('[role="status"]')?.textContent).toBe('This recording has no audio: there is nothing to transcribe');
    document.body.innerHTML = '';
    const lost = { ...zero, HasTornAudio: true };
    el = await render(lost);
    expect(automatic(el).querySelector('[role="status"]')?.textContent).toBe('This recording’s stream was cut off and none of its audio could be kept: there is nothing to transcribe');
    document.body.innerHTML = '';
    await setLocale('de-DE', { reload: false });
    el = await mount(<RecordingTranscript recording={lost} />, 'Transkript');
    expect(automatic(el).querySelector('[role="status"]')?.textContent).toBe('Der Stream dieser Aufnahme wurde unterbrochen und nichts von ihrem Ton konnte behalten werden: Es gibt nichts zu transkribieren');
    expect(automatic(el).querySelector('select')).toBeNull();
  });

  it('is offered for a Finalized recording with its audio', async () => {
    const el = await render(await recording('Finalized'));
    expect(offered(el)).toBe(true);
    expect(automatic(el).querySelector('[role="status"]')?.textContent ?? '').not.toContain('nothing to transcribe');
  });
});
