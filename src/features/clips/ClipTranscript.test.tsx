// The Transcript section of the clip screen as a producer meets it, against the real server
// (createApp on PGlite, answering the component's fetches): offline it says the network is needed
// and asks the server nothing; a file that cannot be read is refused at the import with its line;
// an imported WebVTT file shows its cues, a start that is not a time and a cue ending before it
// starts are refused at that cue before anything is sent; a corrected word is saved on the device
// as clip.setTranscript and, sent as the sync engine sends it, the server holds it. Offline, an edit
// is saved on the device (saved again, it replaces the queued one on the same base); the transcript
// changed elsewhere meanwhile, the server refuses it and the section says so with the edit kept as
// the draft, which saved again goes over the other version. Transcribe automatically: offline it is disabled and says it needs the
// connection; a language the engine lacks is refused at the language, a clip without audio under
// the button; a clip with audio is queued, transcribed by the server's job (the real engine) and
// its cues appear when the section sees it Completed.
import 'fake-indexeddb/auto';
import { readFile, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
// The page's DOM, before React loads (tests/happy-page.ts).
import '../../../tests/happy-page.ts';
import { afterEach, describe, expect, it } from 'vitest';
import type { PageOnApp } from '../../../tests/page-on-app.ts';

// React DOM decides at load what the page supports: loaded once the window is in place.
const { act } = await import('react');
const { ClipTranscript } = await import('./ClipTranscript.tsx');
const { ORG_DEMO } = await import('../../../sync-server/seed.ts');
const { db } = await import('../../db/db.ts');
const { chooseFile, click, field, mount, offlineView, pageOnAppForSuite, settle, type } = await import('../../../tests/page-on-app.ts');
const { flushOutbox, setOnline } = await import('../../../tests/outbox-on-app.ts');
const { fixturePath } = await import('../../../tests/audio/fixtures.ts');

let test: PageOnApp['test'];
let app: PageOnApp['app'];
let cookie = '';
let clipId = '';
let sent: string[] = [];
let blobDir = '';
const api = (path: string, init?: RequestInit) => page().api(path, init);

const flush = () => flushOutbox(api);
const previousBlobDir = process.env.CASTAWAY_BLOB_DIR;

const page = pageOnAppForSuite({
  clips: 4,
  async before() {
    // The clip audio the transcription hears is stored here, not in the working copy's .data.
    blobDir = await mkdtemp(join(tmpdir(), 'castaway-transcript-section-'));
    process.env.CASTAWAY_BLOB_DIR = blobDir;
  },
  async ready(opened) {
    ({ test, app, cookie, sent } = opened);
    clipId = (await test.store.query<{ id: string }>(`SELECT id FROM clips WHERE organization_id = $1 AND NOT deleted ORDER BY id LIMIT 1`, [ORG_DEMO]))[0]!.id;
    // The device holds the clip (an edit is queued on a row it has).
    await db.clips.put((await (await api(`/api/v1/clips/${clipId}`)).json()) as never);
  },
  async after() {
    if (previousBlobDir === undefined) delete process.env.CASTAWAY_BLOB_DIR;
    else process.env.CASTAWAY_BLOB_DIR = previousBlobDir;
    await rm(blobDir, { recursive: true, force: true });
  },
});
afterEach(() => {
  document.body.innerHTML = '';
});

const render = () => mount(<ClipTranscript clipId={clipId} fileName="clip" />, 'Loading the transcript');
const AUDIO = '/api/media/clips/x/audio?v=1';
const renderWithAudio = () => mount(<ClipTranscript clipId={clipId} fileName="clip" audioUrl={AUDIO} />, 'Loading the transcript');

const choose = (el: HTMLElement, name: string, text: string) =>
  chooseFile(field(el, 'Import a transcript file').control, new File([text], name, { type: name.endsWith('.vtt') ? 'text/vtt' : 'application/x-subrip' }));

const cue = (el: HTMLElement, n: number) => el.querySelector<HTMLElement>(`li[aria-label="Cue ${n}"]`)!;

const VTT = 'WEBVTT\n\n00:00:00.500 --> 00:00:03.000\n<v Ana>Good morning.\n\n00:00:03.000 --> 00:00:06.250\n<v Ben>The pelicans are bak.\n';

describe('the Transcript section', () => {
  it('offline, says a transcript needs the network and asks the server nothing', async () => {
    expect(await offlineView(render, sent)).toEqual({ status: 'Transcripts are kept on the server: connect to the network to see or change this one.', requests: 0 });
  });

  it('refuses a broken file at the import and a bad cue at the cue, then saves a corrected word', async () => {
    const el = await render();
    expect(el.textContent).toContain('This clip has no transcript yet.');

    await choose(el, 'broken.srt', '1\n00:00:01,000 --> 00:00:02,000\nFine.\n\n2\nlater --> 00:00:04,000\nBroken.\n');
    expect(field(el, 'Import a transcript file').error).toBe('Line 6: expected a cue timing such as 00:00:01.000 --> 00:00:04.000');

    await choose(el, 'briefing.vtt', VTT);
    expect(field(el, 'Import a transcript file').error).toBeNull();
    expect(field(cue(el, 2), 'Speaker').control.value).toBe('Ben');

    const before = sent.length;
    await type(field(cue(el, 1), 'Start').control, 'soon');
    await click(el, 'Save transcript', 200);
    expect(field(cue(el, 1), 'Start').error).toBe('Write the time as 00:01:02.500');
    expect(field(cue(el, 1), 'Start').control.getAttribute('aria-invalid')).toBe('true');
    await type(field(cue(el, 1), 'Start').control, '00:00:09.000');
    await click(el, 'Save transcript', 200);
    expect(field(cue(el, 1), 'Start').error).toBe('Line 1: the cue ends before it starts');
    expect(sent.slice(before)).toEqual([]);

    await type(field(cue(el, 1), 'Start').control, '00:00:00.500');
    await type(field(cue(el, 2), 'Text').control, 'The pelicans are back.');
    await click(el, 'Save transcript', 200);
    // Saved on the device as the named mutation, on no transcript (there was none), and sent as the engine sends it.
    expect((await db.outbox.toArray()).map((e) => [e.name, (e.args as { BaseModifiedAtUtc: unknown }).BaseModifiedAtUtc])).toEqual([['clip.setTranscript', null]]);
    expect(el.querySelector('[role="status"]')?.textContent).toBe('Sending the saved transcript…');
    await flush();
    expect(await db.outbox.count()).toBe(0);
    const held = await app.request(`/api/v1/clips/${clipId}/transcript?format=text`, { headers: { cookie, 'x-organization-id': ORG_DEMO } });
    expect(await held.text()).toBe('Ana: Good morning.\n\nBen: The pelicans are back.\n');
    expect([...el.querySelectorAll('button')].find((b) => b.textContent === 'Save transcript')!.disabled).toBe(true);

    // Published: the box is ticked at once, the server holds the choice, and the section shows the public URL.
    const publish = field(el, 'Publish with the clip (podcast apps show it)').control;
    await act(async () => publish.click());
    expect(publish.checked).toBe(true);
    await settle(300);
    expect(el.textContent).toContain(`Public transcript: http://localhost/feeds/transcripts/${clipId}.vtt`);
    const internal = await app.request(`/api/internal/clips/${clipId}/transcript`, { headers: { cookie, 'x-organization-id': ORG_DEMO } });
    expect(((await internal.json()) as { Published: boolean }).Published).toBe(true);
  });

  it('offline, saves an edit on the device; changed elsewhere meanwhile, the refusal keeps the edit as the draft, and saved again it goes over', async () => {
    const el = await render();
    await settle(200);
    const loadedAt = ((await (await api(`/api/internal/clips/${clipId}/transcript`)).json()) as { ModifiedAtUtc: string }).ModifiedAtUtc;
    await setOnline(false);
    try {
      expect(el.textContent).toContain('Offline: edits are saved on this device and sent when the connection returns.');
      await type(field(cue(el, 1), 'Text').control, 'Good morning, harbour.');
      await click(el, 'Save transcript', 200);
      await type(field(cue(el, 1), 'Text').control, 'Good morning, harbour town.');
      await click(el, 'Save transcript', 200);
      // Saved twice before it was sent: one edit, the last, on the transcript it was first edited from.
      const queued = await db.outbox.toArray();
      expect(queued.map((e) => [e.name, (e.args as { BaseModifiedAtUtc: string }).BaseModifiedAtUtc, (e.args as { Cues: Array<{ Text: string }> }).Cues[0]!.Text])).toEqual([
        ['clip.setTranscript', loadedAt, 'Good morning, harbour town.'],
      ]);
      expect(el.querySelector('[role="status"]')?.textContent).toBe('Saved on this device: waiting for the connection to send it.');
      expect(field(cue(el, 1), 'Text').control.value).toBe('Good morning, harbour town.');
    } finally {
      await setOnline(true);
    }
    // Meanwhile someone else saved the transcript.
    const elsewhere = await api(`/api/v1/clips/${clipId}/transcript`, { method: 'PUT', body: JSON.stringify({ Cues: [{ StartSeconds: 0.5, EndSeconds: 3, Text: 'Morning, all.', Speaker: 'Ana' }, { StartSeconds: 3, EndSeconds: 6.25, Text: 'The pelicans are back.', Speaker: 'Ben' }] }) });
    expect(elsewhere.status).toBe(200);
    await flush();
    expect(await db.outbox.count()).toBe(0);
    expect(el.textContent).toContain('The transcript was changed elsewhere after this edit began, so the edit was not saved.');
    expect(field(cue(el, 1), 'Text').control.value).toBe('Good morning, harbour town.');
    expect(await (await api(`/api/v1/clips/${clipId}/transcript?format=text`)).text()).toBe('Ana: Morning, all.\n\nBen: The pelicans are back.\n');

    // Saved again: over the other version, deliberately.
    await click(el, 'Save transcript', 200);
    await flush();
    expect(await (await api(`/api/v1/clips/${clipId}/transcript?format=text`)).text()).toBe('Ana: Good morning, harbour town.\n\nBen: The pelicans are back.\n');
    expect(await db.needsAttention.count()).toBe(0);
    expect(el.textContent).not.toContain('changed elsewhere');
    // Back as it was for the cases below.
    await type(field(cue(el, 1), 'Text').control, 'Good morning.');
    await click(el, 'Save transcript', 200);
    await flush();
  });

  it('splits a cue at the text’s cursor and joins it back; two speakers’ cues are not joined; nothing is sent', async () => {
    const el = await render();
    await settle(200);
    const before = sent.length;
    const text = field(cue(el, 2), 'Text').control as unknown as HTMLTextAreaElement;
    expect(text.value).toBe('The pelicans are back.');
    text.setSelectionRange('The pelicans'.length, 'The pelicans'.length);
    await click(cue(el, 2), 'Split at the cursor');
    expect(field(cue(el, 2), 'Text').control.value).toBe('The pelicans');
    expect(field(cue(el, 3), 'Text').control.value).toBe('are back.');
    expect(field(cue(el, 3), 'Speaker').control.value).toBe('Ben');
    // The second part starts where the first now ends (its share of the time by its text).
    expect(field(cue(el, 3), 'Start').control.value).not.toBe(field(cue(el, 2), 'Start').control.value);

    await click(cue(el, 2), 'Join with the next');
    expect(cue(el, 3)).toBeNull();
    expect(field(cue(el, 2), 'Text').control.value).toBe('The pelicans are back.');

    await click(cue(el, 1), 'Join with the next');
    expect(field(cue(el, 1), 'Text').error).toBe('Ana and Ben speak in these cues: only cues of one speaker are joined');
    expect(cue(el, 2)).not.toBeNull();
    expect(sent.slice(before).filter((r) => !r.startsWith('GET'))).toEqual([]);
  });

  it('plays the clip from a cue’s start in the section’s player, and marks the cue heard', async () => {
    const el = await renderWithAudio();
    await settle(200);
    const audio = el.querySelector<HTMLAudioElement>('audio')!;
    expect(audio.getAttribute('aria-label')).toBe('The clip, to hear the transcript with');
    expect(audio.getAttribute('src')).toBe(AUDIO);
    const play = [...cue(el, 2).querySelectorAll('button')].find((b) => b.textContent === 'Play from here')!;
    expect(play.getAttribute('aria-label')).toBe('Play cue 2 from 00:00:03.000');
    await act(async () => play.click());
    expect(audio.currentTime).toBe(3);
    expect(cue(el, 2).getAttribute('aria-current')).toBe('true');
    expect(cue(el, 1).getAttribute('aria-current')).toBeNull();
    // Without audio, no player and no play buttons.
    document.body.innerHTML = '';
    const silent = await render();
    await settle(200);
    expect(silent.querySelector('audio')).toBeNull();
    expect([...silent.querySelectorAll('button')].some((b) => b.textContent === 'Play from here')).toBe(false);
  });

  it('offline, Transcribe automatically is disabled and says it needs the connection', async () => {
    Object.defineProperty(navigator, 'onLine', { configurable: true, get: () => false });
    try {
      const el = await render();
      await settle(200);
      expect(el.textContent).toContain('Automatic transcription runs on the server: connect to the network to start it or to see how it is going.');
      expect([...el.querySelectorAll('button')].find((b) => b.textContent === 'Transcribe automatically')!.disabled).toBe(true);
    } finally {
      Object.defineProperty(navigator, 'onLine', { configurable: true, get: () => true });
    }
  });

  it('Transcribe automatically: refused at the language and for a clip without audio; with audio, queued, then its cues shown', async () => {
    const select = async (el: HTMLElement, label: string, value: string) => {
      const control = field(el, label).control as unknown as HTMLSelectElement;
      await act(async () => {
        Object.getOwnPropertyDescriptor(HTMLSelectElement.prototype, 'value')!.set!.call(control, value);
        control.dispatchEvent(new Event('change', { bubbles: true }));
      });
    };
    // A clip without audio (the seed's clips have none stored).
    const silent = await render();
    await settle(300);
    await select(silent, 'Language spoken', 'de');
    await click(silent, 'Transcribe automatically', 300);
    expect(field(silent, 'Language spoken').error).toBe('The transcription engine has no model for “de”: it transcribes en');
    await select(silent, 'Language spoken', 'en');
    await click(silent, 'Transcribe automatically', 300);
    expect(field(silent, 'Language spoken').error).toBeNull();
    expect(silent.textContent).toContain('There is no audio to transcribe yet: upload the audio first');
    document.body.innerHTML = '';

    // Another clip, given the 12-second speech fixture as its audio.
    const spoken = (await test.store.query<{ id: string }>(`SELECT id FROM clips WHERE organization_id = $1 AND NOT deleted ORDER BY id LIMIT 1 OFFSET 1`, [ORG_DEMO]))[0]!.id;
    const headers = { cookie, 'x-organization-id': ORG_DEMO, 'x-xsrf-token': page().xsrf, 'content-type': 'audio/flac' };
    const put = await app.request(`/api/v1/clips/${spoken}/audio?fileName=speech.flac`, { method: 'PUT', headers, body: new Uint8Array(await readFile(fixturePath('speech-12s.flac'))) });
    expect(put.status).toBe(202);
    await app.jobs.drain();
    const el = await mount(<ClipTranscript clipId={spoken} fileName="spoken" />, 'Loading the transcript');
    await settle(300);
    await click(el, 'Transcribe automatically', 300);
    expect(el.textContent).toContain('Queued: waiting for the transcription engine.');
    expect([...el.querySelectorAll('button')].find((b) => b.textContent === 'Transcribe automatically')!.disabled).toBe(true);
    await app.jobs.drain();
    // The section asks again every 3 s while the job is queued or running.
    for (let i = 0; i < 20 && !el.textContent?.includes('Transcribed automatically by pocketsphinx'); i++) await settle(500);
    expect(el.textContent).toContain('Transcribed automatically by pocketsphinx: check the words before publishing.');
    await settle(300);
    expect(el.querySelectorAll('li.transcript-cue').length).toBeGreaterThan(0);
  }, 60_000);
});
