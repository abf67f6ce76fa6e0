// The Transcript section of the recording screen as a producer meets it, against the real server
// (createApp on PGlite, answering the component's fetches): offline with nothing loaded it says the
// network is needed and asks the server nothing; an imported WebVTT file with a corrected word is
// saved on the device as recording.setTranscript and, sent as the sync engine sends it, the server
// holds it (TranscriptStatus Completed); there is nothing to publish. Offline, an edit is queued and
// shown as waiting, and the server-only actions say they need the connection; back online it is
// sent; the edits can be put back to the imported version. Transcribe automatically refuses a
// language the engine lacks at the language. And the shared editor behind a clip's published intro:
// a cue plays from its start plus the intro, and the cue heard is the player's time less it.
import 'fake-indexeddb/auto';
// The page's DOM, before React loads (tests/happy-page.ts).
import '../../../tests/happy-page.ts';
import { afterEach, describe, expect, it } from 'vitest';
import type { PageOnApp } from '../../../tests/page-on-app.ts';
import type { Recording } from '../../protocol/entities.ts';

// React DOM decides at load what the page supports: loaded once the window is in place.
const { act } = await import('react');
const { RecordingTranscript } = await import('./RecordingTranscript.tsx');
const { TranscriptEditor } = await import('../../ui/transcript/TranscriptEditor.tsx');
const { CLIP_TRANSCRIPT } = await import('../../ui/transcript/owners.ts');
const { ORG_DEMO, seedId } = await import('../../../sync-server/seed.ts');
const { db } = await import('../../db/db.ts');
const { chooseFile, click, field, mount, offlineView, pageOnAppForSuite, settle, type } = await import('../../../tests/page-on-app.ts');
const { flushOutbox, setOnline } = await import('../../../tests/outbox-on-app.ts');

let test: PageOnApp['test'];
let sent: string[] = [];
let recording: Recording;
const api = (path: string, init?: RequestInit) => page().api(path, init);

const flush = () => flushOutbox(api);

const page = pageOnAppForSuite({
  clips: 4,
  async ready(opened) {
    ({ test, sent } = opened);
    const id = (await test.store.query<{ id: string }>(`SELECT id FROM recordings WHERE program_id = $1 AND NOT deleted ORDER BY id LIMIT 1`, [seedId('program:morning')]))[0]!.id;
    recording = (await (await api(`/api/v1/recordings/${id}`)).json()) as Recording;
    // The device holds the recording (an edit is queued on a row it has).
    await db.recordings.put(recording as never);
  },
});
afterEach(() => {
  document.body.innerHTML = '';
});

const render = () => mount(<RecordingTranscript recording={recording} />, 'Loading the transcript');
const cue = (el: HTMLElement, n: number) => el.querySelector<HTMLElement>(`li[aria-label="Cue ${n}"]`)!;
const button = (el: HTMLElement, name: string) => [...el.querySelectorAll('button')].find((b) => b.textContent === name);
const asText = async () => (await api(`/api/v1/recordings/${recording.Id}/transcript?format=text`)).text();

const choose = (el: HTMLElement, name: string, text: string) => chooseFile(field(el, 'Import a transcript file').control, new File([text], name, { type: 'text/vtt' }));

const VTT = 'WEBVTT\n\n00:00:00.500 --> 00:00:03.000\n<v Ana>Good morning.\n\n00:00:03.000 --> 00:00:06.250\n<v Ben>The pelicans are bak.\n';

describe('the Transcript section of a recording', () => {
  it('offline, says a transcript needs the network and asks the server nothing', async () => {
    expect(await offlineView(render, sent)).toEqual({ status: 'Transcripts are kept on the server: connect to the network to see or change this one.', requests: 0 });
  });

  it('imports a WebVTT file, saves a corrected word as recording.setTranscript, and offers nothing to publish', async () => {
    const el = await render();
    expect(el.textContent).toContain('This recording has no transcript yet.');
    expect(el.textContent).not.toContain('Publish');
    await choose(el, 'briefing.vtt', VTT);
    expect(field(cue(el, 2), 'Speaker').control.value).toBe('Ben');
    await type(field(cue(el, 2), 'Text').control, 'The pelicans are back.');
    await click(el, 'Save transcript', 200);
    expect((await db.outbox.toArray()).map((e) => [e.name, e.entityId, (e.args as { BaseModifiedAtUtc: unknown }).BaseModifiedAtUtc])).toEqual([['recording.setTranscript', recording.Id, null]]);
    await flush();
    expect(await db.outbox.count()).toBe(0);
    expect(await asText()).toBe('Ana: Good morning.\n\nBen: The pelicans are back.\n');
    expect(((await (await api(`/api/v1/recordings/${recording.Id}`)).json()) as Recording).TranscriptStatus).toBe('Completed');
    expect(button(el, 'Save transcript')!.disabled).toBe(true);
    expect(el.querySelector('input[type="checkbox"]')).toBeNull();
  });

  it('offline, queues an edit and says the server-only actions need the connection; back online it is sent, and can be put back to the imported version', async () => {
    const el = await render();
    await settle(200);
    const loadedAt = ((await (await api(`/api/internal/recordings/${recording.Id}/transcript`)).json()) as { ModifiedAtUtc: string }).ModifiedAtUtc;
    await setOnline(false);
    try {
      expect(el.textContent).toContain('Offline: edits are saved on this device and sent when the connection returns. Transcribing, going back to the imported version and deleting need the connection.');
      expect(el.textContent).toContain('Automatic transcription runs on the server: connect to the network to start it or to see how it is going.');
      expect(button(el, 'Transcribe automatically')!.disabled).toBe(true);
      expect(button(el, 'Delete transcript')!.disabled).toBe(true);
      await type(field(cue(el, 1), 'Text').control, 'Good morning, harbour.');
      await click(el, 'Save transcript', 200);
      expect((await db.outbox.toArray()).map((e) => [e.name, (e.args as { BaseModifiedAtUtc: string }).BaseModifiedAtUtc])).toEqual([['recording.setTranscript', loadedAt]]);
      expect(el.querySelector('[role="status"]')?.textContent).toBe('Saved on this device: waiting for the connection to send it.');
    } finally {
      await setOnline(true);
    }
    await flush();
    await settle(300);
    expect(await asText()).toBe('Ana: Good morning, harbour.\n\nBen: The pelicans are back.\n');
    expect(field(cue(el, 1), 'Text').control.value).toBe('Good morning, harbour.');

    // Edited since it was first saved: it can go back to that version, after a question.
    await click(el, 'Back to the imported version', 200);
    const dialog = document.querySelector<HTMLElement>('[role="dialog"], [role="alertdialog"]')!;
    expect(dialog.textContent).toContain('Go back to the imported version?');
    await click(dialog, 'Back to the imported version', 400);
    expect(await asText()).toBe('Ana: Good morning.\n\nBen: The pelicans are back.\n');
    expect(field(cue(el, 1), 'Text').control.value).toBe('Good morning.');
    expect(button(el, 'Back to the imported version')).toBeUndefined();
  });

  it('an edit made offline on its own earlier edit, sent before the section saw it, goes onto it: nothing of anyone else’s is there to lose', async () => {
    const el = await render();
    await settle(200);
    await type(field(cue(el, 1), 'Text').control, 'Good morning, all.');
    await click(el, 'Save transcript', 200);
    // The connection goes just as the edit is sent: the section does not load the transcript back.
    await setOnline(false);
    await flush();
    expect(await asText()).toBe('Ana: Good morning, all.\n\nBen: The pelicans are back.\n');
    await type(field(cue(el, 2), 'Text').control, 'The pelicans are back at the harbour.');
    await click(el, 'Save transcript', 200);
    await setOnline(true);
    // Made on the version before the first edit: refused as changed elsewhere, but what changed it was the first edit.
    await flush();
    await settle(300);
    expect(await db.needsAttention.count()).toBe(0);
    await flush();
    expect(await asText()).toBe('Ana: Good morning, all.\n\nBen: The pelicans are back at the harbour.\n');
    expect(el.textContent).not.toContain('changed elsewhere');
    expect(field(cue(el, 2), 'Text').control.value).toBe('The pelicans are back at the harbour.');
  });

  // Last stop's CI: typed into Cue 1 just after the first edit was sent, and the words were gone.
  // The section put "Loading" in place of the cues while it loaded the sent edit back, so the field
  // being typed into was taken away and a new one, with the old words, put in its place.
  it('keeps the cues in place while a sent edit is loaded back, offline too: the field being typed into is never taken away', async () => {
    const el = await render();
    await settle(200);
    await type(field(cue(el, 2), 'Text').control, 'The pelicans are home.');
    await click(el, 'Save transcript', 200);
    const typing = field(cue(el, 1), 'Text').control;
    const removed: Node[] = [];
    const watch = new MutationObserver((records) => records.forEach((r) => removed.push(...r.removedNodes)));
    watch.observe(el, { childList: true, subtree: true });
    try {
      await flush();
      await setOnline(false);
      await settle(300);
      watch.disconnect();
      expect(removed.filter((n) => n.contains(typing))).toEqual([]);
      expect(typing.isConnected).toBe(true);
      await type(typing, 'Good morning, pelicans.');
    } finally {
      watch.disconnect();
      await setOnline(true);
    }
    await settle(300);
    expect(field(cue(el, 1), 'Text').control.value).toBe('Good morning, pelicans.');
    expect(button(el, 'Save transcript')!.disabled).toBe(false);
    await click(el, 'Save transcript', 200);
    await flush();
    await settle(300);
    expect(await asText()).toBe('Ana: Good morning, pelicans.\n\nBen: The pelicans are home.\n');
  });

  it('an edit made on a version someone else wrote meanwhile is still refused, with the edit kept', async () => {
    const el = await render();
    await settle(200);
    await setOnline(false);
    await type(field(cue(el, 1), 'Text').control, 'Morning, harbour.');
    await click(el, 'Save transcript', 200);
    await setOnline(true);
    const elsewhere = await api(`/api/internal/recordings/${recording.Id}/transcript`, { method: 'PUT', body: JSON.stringify({ Cues: [{ StartSeconds: 0.5, EndSeconds: 3, Text: 'Someone else’s words.', Speaker: 'Ana' }] }) });
    expect(elsewhere.status).toBe(200);
    await flush();
    await settle(300);
    expect(el.textContent).toContain('The transcript was changed elsewhere after this edit began, so the edit was not saved.');
    expect(field(cue(el, 1), 'Text').control.value).toBe('Morning, harbour.');
    expect(await asText()).toBe('Ana: Someone else’s words.\n');
    await click(el, 'Discard changes', 200);
  });

  it('Transcribe automatically: a language the engine lacks is refused at the language', async () => {
    const el = await render();
    await settle(300);
    const control = field(el, 'Language spoken').control as unknown as HTMLSelectElement;
    await act(async () => {
      Object.getOwnPropertyDescriptor(HTMLSelectElement.prototype, 'value')!.set!.call(control, 'de');
      control.dispatchEvent(new Event('change', { bubbles: true }));
    });
    await click(el, 'Transcribe automatically', 300);
    expect(field(el, 'Language spoken').error).toBe('The transcription engine has no model for “de”: it transcribes en');
    expect(el.textContent).not.toContain('Publish it with the clip');
  });
});

describe('the shared transcript editor behind a published intro', () => {
  it('plays a cue from its start plus the intro, and marks the cue heard at the player’s time less it', async () => {
    const clipId = (await test.store.query<{ id: string }>(`SELECT id FROM clips WHERE organization_id = $1 AND NOT deleted ORDER BY id LIMIT 1`, [ORG_DEMO]))[0]!.id;
    const el = await mount(<TranscriptEditor owner={CLIP_TRANSCRIPT} id={clipId} fileName="clip" audioUrl="/api/media/clips/x/audio?v=1" audioOffsetSeconds={4} />, 'Loading the transcript');
    await settle(200);
    await choose(el, 'briefing.vtt', VTT);
    const audio = el.querySelector<HTMLAudioElement>('audio')!;
    await act(async () => button(cue(el, 2), 'Play from here')!.click());
    // Cue 2 starts at 3 s of the episode: 7 s into audio that begins with a 4-second intro.
    expect(audio.currentTime).toBe(7);
    expect(cue(el, 2).getAttribute('aria-current')).toBe('true');
    const at = async (seconds: number) => {
      audio.currentTime = seconds;
      await act(async () => audio.dispatchEvent(new Event('timeupdate')));
    };
    await at(5);
    expect(cue(el, 1).getAttribute('aria-current')).toBe('true');
    expect(cue(el, 2).getAttribute('aria-current')).toBeNull();
    // Still in the intro: no cue is heard yet (at 2.5 s without the offset, cue 1 would be).
    await at(2.5);
    expect(el.querySelector('li[aria-current]')).toBeNull();
  });
});
