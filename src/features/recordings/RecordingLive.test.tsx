// The live waveform when its connection goes (issue 34 follow-up), against the real server
// (createApp on PGlite, answering the component's fetches): an agent's MP3 stream is pushed to the
// live ingest in pieces the test controls. The page's event stream is closed under it without an
// 'end' (as a proxy's timeout or a server restart does): the screen says so, asks again by itself
// with the last event's id, and the waveform goes on where it stopped. Offline it says it waits for
// the connection, and back online it resumes. When the stream ends, the waveform holds every pixel
// once: as many columns as the stream's peaks make, none drawn twice.
import 'fake-indexeddb/auto';
// The page's DOM, before React loads (tests/happy-page.ts).
import '../../../tests/happy-page.ts';
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import type { RecordingAgentWithToken } from '../../protocol/api/recording-agents.ts';

const { RecordingLive } = await import('./RecordingLive.tsx');
const { seedId } = await import('../../../sync-server/seed.ts');
const { fixturePath } = await import('../../../tests/audio/fixtures.ts');
const { mount, pageOnAppForSuite, settle } = await import('../../../tests/page-on-app.ts');
const { setOnline } = await import('../../../tests/outbox-on-app.ts');
const { getLocale, setLocale } = await import('../../paraglide/runtime.js');

let agent: RecordingAgentWithToken;
/** The Last-Event-ID of each request the page made for the peaks (null: none). */
const peaksAsked: Array<string | null> = [];
/** The page's open event streams, each closable as a lost connection closes it. */
const open = new Set<() => void>();

const page = pageOnAppForSuite({
  clips: 2,
  async ready(opened) {
    agent = (await (await opened.api('/api/v1/recording-agents', { method: 'POST', body: JSON.stringify({ Name: 'Studio 2 encoder', ProgramIds: [seedId('program:morning')] }) })).json()) as RecordingAgentWithToken;
    // Between the page and the server, as a proxy is: the peaks streams pass through, and `dropAll`
    // closes them (the body ends with no 'end', the server's side is cancelled).
    const toServer = globalThis.fetch;
    globalThis.fetch = async (input: RequestInfo | URL, init?: RequestInit) => {
      const res = await toServer(input, init);
      if (!String(input).includes('/live/peaks') || !res.body) return res;
      peaksAsked.push(new Headers(init?.headers).get('last-event-id'));
      const reader = res.body.getReader();
      let close = () => undefined as void;
      const body = new ReadableStream<Uint8Array>({
        start(controller) {
          close = () => {
            open.delete(close);
            void reader.cancel().catch(() => undefined);
            controller.close();
          };
          open.add(close);
          // The page giving the request up ends it, as a browser's fetch does.
          init?.signal?.addEventListener('abort', () => open.has(close) && close(), { once: true });
        },
        async pull(controller) {
          const { done, value } = await reader.read().catch(() => ({ done: true as const, value: undefined }));
          if (!open.has(close)) return;
          if (done) {
            open.delete(close);
            controller.close();
          } else controller.enqueue(value);
        },
        cancel() {
          open.delete(close);
          void reader.cancel().catch(() => undefined);
        },
      });
      return new Response(body, { status: res.status, headers: res.headers });
    };
  },
});

const dropAll = () => [...open].forEach((close) => close());

/** An agent's stream whose pieces the test sends: `send` a share of the file, `end` the body. */
function agentStream(title: string) {
  const bytes = new Uint8Array(readFileSync(fixturePath('speech-12s.mp3')));
  let at = 0;
  let controller!: ReadableStreamDefaultController<Uint8Array>;
  const body = new ReadableStream<Uint8Array>({ start: (c) => void (controller = c) });
  const answered = page().app.request(`/api/v1/programs/${seedId('program:morning')}/recordings/live?title=${encodeURIComponent(title)}`, {
    method: 'PUT',
    headers: { authorization: `Bearer ${agent.Token}`, 'content-type': 'audio/mpeg' },
    body,
    duplex: 'half',
  } as RequestInit);
  return {
    answered,
    send(share: number) {
      const to = Math.min(bytes.length, at + Math.round(bytes.length * share));
      for (; at < to; at += 4096) controller.enqueue(bytes.slice(at, Math.min(to, at + 4096)));
      at = to;
    },
    end: () => controller.close(),
  };
}

const drawn = (el: HTMLElement) => Number(el.querySelector('.live-waveform')!.getAttribute('data-drawn-width'));
const statusTexts = (el: HTMLElement) => [...el.querySelectorAll('[role="status"]')].map((p) => p.textContent);
async function until(what: string, ok: () => boolean, ms = 10_000) {
  for (let waited = 0; !ok(); waited += 100) {
    if (waited > ms) throw new Error(`waited ${ms} ms for ${what}`);
    await settle(100);
  }
}

describe('the live waveform when its connection goes', () => {
  it('says the connection was lost, reconnects from the last event, says it waits offline, resumes online, and draws each pixel once', async () => {
    const title = 'Live through a tunnel';
    const stream = agentStream(title);
    let id = '';
    const found = async () => (id = (await page().test.store.query<{ id: string }>(`SELECT id FROM recordings WHERE title = $1`, [title]))[0]?.id ?? '');
    while (!(await found())) await settle(50);
    stream.send(0.3);
    const el = await mount(<RecordingLive recordingId={id} />);
    await until('the first columns', () => drawn(el) > 0);

    // The event stream closes with no 'end': said at once, and asked again with the last id.
    const before = drawn(el);
    dropAll();
    await until('the lost connection said', () => statusTexts(el).some((t) => t?.startsWith('The connection to the live stream was lost. Reconnecting…')));
    await until('a second request', () => peaksAsked.length >= 2);
    expect(peaksAsked[0]).toBeNull();
    expect(peaksAsked[1]).toMatch(/^\d+$/);
    await until('the lost note gone', () => !statusTexts(el).some((t) => t?.includes('was lost')));
    stream.send(0.3);
    await until('more columns', () => drawn(el) > before);

    // Offline: it says it waits for the connection; the stream goes on meanwhile.
    const locale = getLocale();
    await setOnline(false);
    expect(statusTexts(el)).toContain('Waiting for the connection: the live waveform resumes where it stopped when the device is back online.');
    // And in German (drawn again as the device goes offline once more).
    await setLocale('de-DE', { reload: false });
    await setOnline(true);
    await setOnline(false);
    expect(statusTexts(el)).toContain('Warten auf die Verbindung: Die Live-Wellenform setzt dort fort, wo sie stehen blieb, sobald das Gerät wieder online ist.');
    await setLocale(locale, { reload: false });
    const offlineAt = drawn(el);
    const asked = peaksAsked.length;
    stream.send(0.2);
    await settle(300);
    expect(drawn(el)).toBe(offlineAt);
    await setOnline(true);
    await until('a request after going online', () => peaksAsked.length > asked);
    expect(Number(peaksAsked.at(-1))).toBeGreaterThan(Number(peaksAsked[1]));
    await until('the columns sent while offline', () => drawn(el) > offlineAt);

    // The rest, and the end: every pixel of the stream drawn once.
    stream.send(1);
    stream.end();
    expect((await stream.answered).status).toBe(201);
    await until('the end said', () => el.textContent!.includes('The stream has ended.'));
    const [rows] = await page().test.store.query<{ pixels: number }>(`SELECT sum(length(decode(data, 'base64')) / 4)::int AS pixels FROM live_peaks WHERE recording_id = $1`, [id]);
    expect(rows!.pixels).toBeGreaterThan(0);
    // A column is 16 pixels (LIVE_PIXELS_PER_COLUMN); the last one, not full, is not drawn.
    await until('the last columns drawn', () => drawn(el) === Math.floor(rows!.pixels / 16), 3_000);
    expect(el.textContent).not.toContain('was lost');
  }, 60_000);
});
