// @vitest-environment happy-dom
// The clip screen's upload list as a user reads it (a progress bar per file with its percent,
// paused while offline, done, refused; cancel forgets the file) and the queue's rules that need no
// server: the section-5 file rules before anything is kept. (Its backoff is section 9's client
// retry delays, src/domain/timing.ts retryDelayMs, tested there.) Replacing a clip's audio asks
// first; while the new file is on its way, and when the server could not use it, the row says the
// current audio is still what listeners get; an edit of the clip's title meanwhile does not make
// the row say the new audio is ready.
// (tests/e2e/upload.spec.ts sends real files through the real server in Chromium.)
import 'fake-indexeddb/auto';
import { act } from 'react';
import { createRoot, type Root } from 'react-dom/client';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { db } from '../../db/db.ts';
import { ClipUpload } from './ClipUpload.tsx';
import { explainedRefusal, queueUpload } from '../../lib/upload-queue.ts';
import { uploadsDb, type UploadRecord } from '../../db/upload-db.ts';
import { baseLocale, setLocale } from '../../lib/i18n.ts';
import { loadSession } from '../../lib/session.ts';

(globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true;

const CLIP = '7c9e6679-7425-40de-944b-e07fc1f90ae7';
const ORG = '3f2504e0-4f89-41d3-9a0c-0305e82c3301';

function record(over: Partial<UploadRecord>): UploadRecord {
  return {
    id: crypto.randomUUID(), userId: 'u1', organizationId: ORG, clipId: CLIP, fileName: 'episode-12.mp3', size: 200 * 1024 * 1024,
    blob: null, tusUrl: null, offset: 0, state: 'queued', problem: null, createdAt: Date.now(), ...over,
  };
}

function setOnline(online: boolean) {
  Object.defineProperty(navigator, 'onLine', { configurable: true, get: () => online });
  window.dispatchEvent(new Event(online ? 'online' : 'offline'));
}

const roots: Root[] = [];

async function render(): Promise<HTMLElement> {
  const el = document.createElement('div');
  document.body.append(el);
  const root = createRoot(el);
  roots.push(root);
  await act(async () => root.render(<ClipUpload organizationId={ORG} clipId={CLIP} />));
  await act(() => new Promise((r) => setTimeout(r, 50)));
  return el;
}

const bars = (el: HTMLElement) => [...el.querySelectorAll('[role="progressbar"]')];

/** Signs in from the cached session (the server cannot be reached here): picking needs a user. */
async function signIn(): Promise<void> {
  const session = {
    Type: 'activated',
    UserBelongsToMultipleOrganizations: false,
    User: { Id: 'u1', Name: 'Ada', FirstName: 'Ada', Email: 'ada@example.com', IsAdmin: false, IsAdminOrSupport: false, HasResellerAccess: false, InterfaceLanguage: null },
    Organizations: [{ Id: ORG, Name: 'Radio', IsDemoOrganization: false, UserPermissions: [{ ObjectType: 'Organization', ObjectId: ORG, Permissions: { HasContentAccess: true } }] }],
  };
  localStorage.setItem('castaway.session', JSON.stringify(session));
  globalThis.fetch = () => Promise.reject(new TypeError('offline'));
  await loadSession();
}

/** Picks a file in the "Upload an audio file" field, as the browser's file chooser does. */
async function pickFile(el: HTMLElement, file: File): Promise<void> {
  const input = el.querySelector<HTMLInputElement>('input[type="file"]')!;
  Object.defineProperty(input, 'files', { configurable: true, get: () => [file] });
  await act(async () => {
    input.dispatchEvent(new Event('change', { bubbles: true }));
  });
  await act(() => new Promise((r) => setTimeout(r, 50)));
}

const dialog = () => document.querySelector<HTMLElement>('[role="alertdialog"]');
const inDialog = (name: string) => [...(dialog()?.querySelectorAll('button') ?? [])].find((b) => b.textContent === name)!;

/** A clip serving its audio (Ready, with its audio URL), as the sync pulled it. */
const READY = {
  Id: CLIP, OrganizationId: ORG, State: 'Ready', ModifiedAtUtc: '2026-01-01T10:00:00.000Z', AudioProcessingProblem: null,
  Urls: { AudioPrivateUrl: `/api/internal/clips/${CLIP}/audio?v=1` },
};

beforeEach(async () => {
  await uploadsDb.uploads.clear();
  await db.clips.clear();
});
afterEach(() => {
  // Unmounted, so no live query or dialog timer outlives the test's document.
  act(() => roots.splice(0).forEach((r) => r.unmount()));
  document.body.innerHTML = '';
});

describe('the upload list on the clip screen', () => {
  it('offline, a queued file shows its progress bar with the file name, its percent, and "paused while offline"', async () => {
    setOnline(false);
    await uploadsDb.uploads.add(record({ offset: 50 * 1024 * 1024, tusUrl: '/api/internal/uploads/abc' }));
    const el = await render();
    const [bar] = bars(el);
    expect(bar!.getAttribute('aria-label')).toBe('Upload of episode-12.mp3');
    expect(bar!.getAttribute('aria-valuenow')).toBe('25');
    expect(el.textContent).toContain('Paused while offline at 25%: the file is kept on this device and the upload continues when the network returns');
  });

  it('online: uploading shows sent of total; done shows 100 %; a refused file says why', async () => {
    setOnline(true);
    await uploadsDb.uploads.bulkAdd([
      record({ fileName: 'a.mp3', state: 'uploading', offset: 150 * 1024 * 1024, createdAt: 1 }),
      record({ fileName: 'b.mp3', state: 'done', offset: 200 * 1024 * 1024, createdAt: 2 }),
      record({ fileName: 'c.mp3', state: 'failed', problem: 'clipGone', createdAt: 3 }),
    ]);
    // No network calls here: the rows are already settled or mid-flight in another tab.
    const el = await render();
    const [a, b, c] = bars(el);
    expect(a!.getAttribute('aria-valuenow')).toBe('75');
    expect(a!.getAttribute('aria-valuetext')).toBe('Uploading: 75% (150 MB of 200 MB)');
    expect(b!.getAttribute('aria-valuenow')).toBe('100');
    expect(b!.getAttribute('aria-valuetext')).toBe('Uploaded: 100%. The server is processing the audio.');
    expect(c!.getAttribute('aria-valuetext')).toBe('This clip no longer exists, or you may not change its audio');
    expect(el.querySelector('[role="alert"]')!.textContent).toContain('c.mp3');
  });

  it('a file refused at the month’s stored-audio cap names the cap and what is stored, in hours, as an alert at its row', async () => {
    setOnline(true);
    await uploadsDb.uploads.add(record({ fileName: 'long-interview.mp3', state: 'failed', problem: 'storageCap', cap: { cap: 50, used: 50.5 } }));
    const el = await render();
    const text = 'Not uploaded: this month’s cap for stored audio is 50 hours and 50.5 hours are stored. An admin can raise the cap under Billing & features; then pick the file again.';
    expect(bars(el)[0]!.getAttribute('aria-valuetext')).toBe(text);
    expect(el.querySelector('[role="alert"]')!.textContent).toBe(`long-interview.mp3 ${text}`);
  });

  it('a file the server refused for another reason it gave (an account not yet confirmed) says that reason at its row', async () => {
    setOnline(true);
    const text = 'Confirm your e-mail address to make changes: until then this account can look but not change anything';
    const refusal = { Field: 'account', Code: 'accountNotActivated', Message: text, MessageKey: 'domain_account_not_activated' };
    await uploadsDb.uploads.add(record({ fileName: 'first-take.mp3', state: 'failed', problem: 'refused', refusal }));
    const el = await render();
    expect(bars(el)[0]!.getAttribute('aria-valuetext')).toBe(text);
    expect(el.querySelector('[role="alert"]')!.textContent).toBe(`first-take.mp3 ${text}`);
  });

  it('once the server has the file, the row follows the clip: processing, then ready; an Error says why, as an alert', async () => {
    setOnline(true);
    // The clip was Ready with its old audio when the server took the new file.
    const before = { Id: CLIP, OrganizationId: ORG, State: 'Ready', ModifiedAtUtc: '2026-01-01T10:00:00.000Z', AudioProcessingProblem: null };
    await db.clips.put(before);
    await uploadsDb.uploads.add(record({ fileName: 'take-2.flac', state: 'done', offset: 200 * 1024 * 1024, clipModifiedAtUtc: before.ModifiedAtUtc }));
    const el = await render();
    const text = () => bars(el)[0]!.getAttribute('aria-valuetext');
    const pulled = (row: Record<string, unknown>) => act(async () => {
      await db.clips.put({ ...before, ...row });
      await new Promise((r) => setTimeout(r, 50));
    });
    // That Ready is the old audio's: this file is still being processed.
    expect(text()).toBe('Uploaded: 100%. The server is processing the audio.');
    await pulled({ State: 'Processing', ModifiedAtUtc: '2026-01-01T10:00:01.000Z' });
    expect(text()).toBe('Uploaded: 100%. The server is processing the audio.');
    await pulled({ State: 'Ready', ModifiedAtUtc: '2026-01-01T10:00:02.000Z' });
    expect(text()).toBe('Uploaded and processed: the audio is ready');
    expect(el.querySelector('[role="alert"]')).toBeNull();
    await pulled({ State: 'Warning', ModifiedAtUtc: '2026-01-01T10:00:03.000Z', AudioProcessingProblem: 'Some damaged audio frames were skipped' });
    expect(text()).toBe('Uploaded and processed, with a warning: Some damaged audio frames were skipped');
    await pulled({ State: 'Error', ModifiedAtUtc: '2026-01-01T10:00:04.000Z', AudioProcessingProblem: 'The uploaded file is not audio in a format we accept' });
    expect(text()).toBe('Uploaded, but the server could not use this audio: The uploaded file is not audio in a format we accept');
    expect(el.querySelector('[role="alert"]')!.textContent).toContain('take-2.flac');
  });

  it('in German, the problem the server wrote in English reads in German too', async () => {
    setOnline(true);
    await setLocale('de-DE', { reload: false });
    try {
      await db.clips.put({ Id: CLIP, OrganizationId: ORG, State: 'Warning', ModifiedAtUtc: '2026-01-01T10:00:03.000Z', AudioProcessingProblem: 'Some damaged audio frames were skipped' });
      await uploadsDb.uploads.add(record({ fileName: 'take-3.mp3', state: 'done', offset: 200 * 1024 * 1024, clipModifiedAtUtc: '2026-01-01T10:00:00.000Z' }));
      const el = await render();
      expect(bars(el)[0]!.getAttribute('aria-valuetext')).toBe('Hochgeladen und verarbeitet, mit einer Warnung: Einige beschädigte Audio-Frames wurden übersprungen');
    } finally {
      await setLocale(baseLocale, { reload: false });
    }
  });

  it('Cancel upload removes the file from the device', async () => {
    setOnline(false);
    await uploadsDb.uploads.add(record({}));
    const el = await render();
    const cancel = [...el.querySelectorAll('button')].find((b) => b.textContent === 'Cancel upload')!;
    await act(async () => cancel.click());
    await act(() => new Promise((r) => setTimeout(r, 50)));
    expect(await uploadsDb.uploads.count()).toBe(0);
    expect(bars(el)).toEqual([]);
  });
});

describe('replacing a clip\'s audio', () => {
  beforeEach(async () => {
    setOnline(false);
    await signIn();
  });

  it('a Ready clip asks first, naming the file; Cancel queues nothing and leaves the audio as it was', async () => {
    await db.clips.put(READY);
    const el = await render();
    await pickFile(el, new File([new Uint8Array(10)], 'take-2.mp3'));
    expect(dialog()).not.toBeNull();
    expect(dialog()!.textContent).toContain('Replace the audio?');
    expect(dialog()!.textContent).toContain('Replace this clip’s audio with take-2.mp3? The current audio stays published until the new file is ready.');
    await act(async () => inDialog('Cancel').click());
    await act(() => new Promise((r) => setTimeout(r, 50)));
    expect(dialog()).toBeNull();
    expect(await uploadsDb.uploads.count()).toBe(0);
    expect(bars(el)).toEqual([]);
    expect(await db.clips.get(CLIP)).toEqual(READY);
  });

  it('Replace queues the file, and its row says listeners still get the current audio', async () => {
    await db.clips.put(READY);
    const el = await render();
    await pickFile(el, new File([new Uint8Array(10)], 'take-2.mp3'));
    await act(async () => inDialog('Replace').click());
    await act(() => new Promise((r) => setTimeout(r, 80)));
    expect(dialog()).toBeNull();
    const kept = await uploadsDb.uploads.toArray();
    expect(kept.map((r) => [r.fileName, r.state])).toEqual([['take-2.mp3', 'queued']]);
    expect(bars(el)[0]!.getAttribute('aria-valuetext')).toBe('Paused while offline at 0%: the file is kept on this device and the upload continues when the network returns');
    expect(el.querySelector('.upload-row [role="status"]')!.textContent).toContain('Listeners still get the current audio until this file is ready.');
  });

  it('a clip without audio uploads straight away, without a question', async () => {
    await db.clips.put({ Id: CLIP, OrganizationId: ORG, State: 'New', ModifiedAtUtc: '2026-01-01T10:00:00.000Z', Urls: {} });
    const el = await render();
    await pickFile(el, new File([new Uint8Array(10)], 'first.mp3'));
    expect(dialog()).toBeNull();
    expect((await uploadsDb.uploads.toArray()).map((r) => r.fileName)).toEqual(['first.mp3']);
  });

  it('a file still under way for a clip without audio is not replaced unasked either', async () => {
    await db.clips.put({ Id: CLIP, OrganizationId: ORG, State: 'New', ModifiedAtUtc: '2026-01-01T10:00:00.000Z', Urls: {} });
    await uploadsDb.uploads.add(record({ fileName: 'first.mp3', offset: 10 * 1024 * 1024 }));
    const el = await render();
    await pickFile(el, new File([new Uint8Array(10)], 'second.mp3'));
    expect(dialog()!.textContent).toContain('Replace the file this clip is still uploading or processing with second.mp3?');
    await act(async () => inDialog('Cancel').click());
    await act(() => new Promise((r) => setTimeout(r, 50)));
    expect((await uploadsDb.uploads.toArray()).map((r) => r.fileName)).toEqual(['first.mp3']);
  });

  it('a file the rules refuse is refused at the field, without asking', async () => {
    await db.clips.put(READY);
    const el = await render();
    await pickFile(el, new File(['x'], 'notes.txt'));
    expect(dialog()).toBeNull();
    expect(el.querySelector('[role="alert"]')).not.toBeNull();
    expect(await uploadsDb.uploads.count()).toBe(0);
  });

  it('while the new file processes the row says the current audio is published; when it fails, the problem and that the previous audio stays', async () => {
    setOnline(true);
    await db.clips.put(READY);
    await uploadsDb.uploads.add(record({ fileName: 'take-2.flac', state: 'done', offset: 200 * 1024 * 1024, clipModifiedAtUtc: READY.ModifiedAtUtc }));
    const el = await render();
    const text = () => bars(el)[0]!.getAttribute('aria-valuetext');
    expect(text()).toBe('Uploaded: 100%. The server is processing the audio.');
    expect(el.querySelector('.upload-row [role="status"]')!.textContent).toContain('Listeners still get the current audio until this file is ready.');
    expect(el.querySelector('[role="alert"]')).toBeNull();
    // The server could not use the file: the row keeps State Ready and its audio, with the problem (versions.ts).
    await act(async () => {
      await db.clips.put({ ...READY, ModifiedAtUtc: '2026-01-01T10:00:05.000Z', AudioProcessingProblem: 'The uploaded file is not audio in a format we accept' });
      await new Promise((r) => setTimeout(r, 50));
    });
    expect(text()).toBe('Uploaded, but the server could not use this audio: The uploaded file is not audio in a format we accept. The previous audio is still published.');
    expect(el.querySelector('[role="alert"]')!.textContent).toContain('take-2.flac');
    expect(el.textContent).not.toContain('Listeners still get');
  });

  describe('a field edit while the new file processes', () => {
    /** Queues take-2.mp3 for the clip as it is now (offline), then lets the server take all of it. */
    async function replaceAndSend(): Promise<HTMLElement> {
      expect(await queueUpload({ userId: 'u1', organizationId: ORG, clipId: CLIP, file: new File([new Uint8Array(10)], 'take-2.mp3') })).toBeNull();
      const [queued] = await uploadsDb.uploads.toArray();
      await uploadsDb.uploads.update(queued!.id, { state: 'done', blob: null, offset: 10 });
      setOnline(true);
      return render();
    }
    const pulled = (row: Record<string, unknown>) => act(async () => {
      await db.clips.put({ ...READY, ...row });
      await new Promise((r) => setTimeout(r, 50));
    });
    const text = (el: HTMLElement) => bars(el)[0]!.getAttribute('aria-valuetext');
    // The server wrote the new title: ModifiedAtUtc changed, the audio did not (the clip stays Ready
    // with its current audio until the new file has processed, versions.ts).
    const titled = { Title: 'Episode 12, final', ModifiedAtUtc: '2026-01-01T10:00:01.000Z' };

    it('a title edit leaves the row processing; the new audio URL then reads as ready', async () => {
      await db.clips.put(READY);
      const el = await replaceAndSend();
      expect(text(el)).toBe('Uploaded: 100%. The server is processing the audio.');
      await pulled(titled);
      expect(text(el)).toBe('Uploaded: 100%. The server is processing the audio.');
      expect(el.querySelector('.upload-row [role="status"]')!.textContent).toContain('Listeners still get the current audio until this file is ready.');
      await pulled({ ...titled, ModifiedAtUtc: '2026-01-01T10:00:02.000Z', Urls: { AudioPrivateUrl: `/api/media/clips/${CLIP}/audio?v=2` } });
      expect(text(el)).toBe('Uploaded and processed: the audio is ready');
      expect(el.textContent).not.toContain('Listeners still get');
    });

    it('after a title edit, a file the server could not use reads as kept, also for a clip whose audio had a warning', async () => {
      const warned = { State: 'Warning', AudioProcessingProblem: 'Some damaged audio frames were skipped' };
      await db.clips.put({ ...READY, ...warned });
      const el = await replaceAndSend();
      await pulled({ ...warned, ...titled });
      expect(text(el)).toBe('Uploaded: 100%. The server is processing the audio.');
      await pulled({ ...titled, State: 'Warning', ModifiedAtUtc: '2026-01-01T10:00:02.000Z', AudioProcessingProblem: 'The uploaded file is not audio in a format we accept' });
      expect(text(el)).toBe('Uploaded, but the server could not use this audio: The uploaded file is not audio in a format we accept. The previous audio is still published.');
    });

    it('a first file onto a clip without audio: a title edit, processing, then ready', async () => {
      const fresh = { Id: CLIP, OrganizationId: ORG, State: 'New', ModifiedAtUtc: '2026-01-01T10:00:00.000Z', AudioProcessingProblem: null, Urls: {} };
      await db.clips.put(fresh);
      const el = await replaceAndSend();
      const row = (over: Record<string, unknown>) => act(async () => {
        await db.clips.put({ ...fresh, ...over });
        await new Promise((r) => setTimeout(r, 50));
      });
      await row({ State: 'AudioUploaded', ModifiedAtUtc: '2026-01-01T10:00:01.000Z' });
      await row({ State: 'Processing', Title: 'Episode 12, final', ModifiedAtUtc: '2026-01-01T10:00:02.000Z' });
      expect(text(el)).toBe('Uploaded: 100%. The server is processing the audio.');
      await row({ State: 'Ready', ModifiedAtUtc: '2026-01-01T10:00:03.000Z', Urls: { AudioPrivateUrl: `/api/media/clips/${CLIP}/audio?v=1` } });
      expect(text(el)).toBe('Uploaded and processed: the audio is ready');
    });
  });
});

describe('the upload queue', () => {
  // What the server's 403 makes of an upload: the cap with its figures, another explained reason
  // as the server's field error (both failures, not tried again), a bare 403 (a stale XSRF token)
  // nothing: it is tried again with a new token.
  it('reads an explained 403 as a failure with its reason, and a bare one as a stale token', () => {
    const cap = { Field: 'body', Code: 'addOnCapReached', Message: 'cap', Params: { addOn: 'ExtraStorage', cap: 50, used: 50.5 } };
    const unactivated = { Field: 'account', Code: 'accountNotActivated', Message: 'Confirm your e-mail address…', MessageKey: 'domain_account_not_activated' };
    expect(explainedRefusal(403, JSON.stringify({ Errors: [cap] }))).toEqual({ problem: 'storageCap', cap: { cap: 50, used: 50.5 } });
    expect(explainedRefusal(403, JSON.stringify({ Errors: [unactivated] }))).toEqual({ problem: 'refused', refusal: unactivated });
    expect(explainedRefusal(403, '')).toBeNull();
    expect(explainedRefusal(403, '<html>forbidden</html>')).toBeNull();
    expect(explainedRefusal(500, JSON.stringify({ Errors: [unactivated] }))).toBeNull();
  });

  it('keeps a picked file at once, offline, replacing an earlier file of the same clip', async () => {
    setOnline(false);
    const first = new File([new Uint8Array(10)], 'take-1.mp3');
    const second = new File([new Uint8Array(20)], 'take-2.wav');
    expect(await queueUpload({ userId: 'u1', organizationId: ORG, clipId: CLIP, file: first })).toBeNull();
    expect(await queueUpload({ userId: 'u1', organizationId: ORG, clipId: CLIP, file: second })).toBeNull();
    const kept = await uploadsDb.uploads.toArray();
    expect(kept.map((r) => [r.fileName, r.size, r.state, r.offset])).toEqual([['take-2.wav', 20, 'queued', 0]]);
  });

  it('keeps the clip row\'s ModifiedAtUtc from before the server had the file, so a fast Error is read as this file\'s outcome', async () => {
    setOnline(false);
    await db.clips.put({ Id: CLIP, OrganizationId: ORG, State: 'Ready', ModifiedAtUtc: '2026-01-01T10:00:00.000Z' });
    await queueUpload({ userId: 'u1', organizationId: ORG, clipId: CLIP, file: new File([new Uint8Array(10)], 'garbage.mp3') });
    const [kept] = await uploadsDb.uploads.toArray() as UploadRecord[];
    expect(kept!.clipModifiedAtUtc).toBe('2026-01-01T10:00:00.000Z');
    // It served no audio (no audio URL): nothing to compare but ModifiedAtUtc.
    expect(kept!.clipServedAudio).toBeNull();
    // The server processed the file (Error) before the upload's last response was handled here.
    await db.clips.put({ Id: CLIP, OrganizationId: ORG, State: 'Error', ModifiedAtUtc: '2026-01-01T10:00:02.000Z', AudioProcessingProblem: 'The uploaded file is not audio in a format we accept' });
    await uploadsDb.uploads.update(kept!.id, { state: 'done', blob: null, offset: 10 });
    const el = await render();
    expect(bars(el)[0]!.getAttribute('aria-valuetext')).toBe('Uploaded, but the server could not use this audio: The uploaded file is not audio in a format we accept');
  });

  it('refuses with the section-5 rules before keeping anything: empty file, extension not accepted', async () => {
    const empty = await queueUpload({ userId: 'u1', organizationId: ORG, clipId: CLIP, file: new File([], 'episode.mp3') });
    expect(empty?.type).toBe('emptyFile');
    const txt = await queueUpload({ userId: 'u1', organizationId: ORG, clipId: CLIP, file: new File(['x'], 'notes.txt') });
    expect(txt?.type).toBe('invalidFileExtension');
    expect(await uploadsDb.uploads.count()).toBe(0);
  });
});
