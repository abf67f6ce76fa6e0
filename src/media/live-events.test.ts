import { describe, expect, it } from 'vitest';
import { LiveEventError, liveEventParser, readLiveEvents } from './live-events.ts';

const peaks = (first: number) => ({ FirstPixel: first, SamplesPerPixel: 256, SampleRate: 44100, Data: 'AAD//w==' });
const block = (event: string, data: unknown) => `event: ${event}\ndata: ${JSON.stringify(data)}\n\n`;

/** A body that gives `parts` as its chunks, then closes (close) or stays open as a live stream does,
 * and records whether its reader cancelled it. */
function bodyOf(parts: string[], close = false) {
  const state = { cancelled: false };
  const bytes = parts.map((p) => new TextEncoder().encode(p));
  const body = new ReadableStream<Uint8Array>({
    pull(controller) {
      const next = bytes.shift();
      if (next) controller.enqueue(next);
      else if (close) controller.close();
      else return new Promise<void>(() => undefined);
    },
    cancel() {
      state.cancelled = true;
    },
  });
  return { body, state };
}

describe('liveEventParser', () => {
  it('gives each event once it is whole, whatever the chunks, skipping comments and other events', () => {
    const parse = liveEventParser();
    const text = `${block('peaks', peaks(0))}: keep-alive\n\n${block('other', { x: 1 })}${block('peaks', peaks(1))}${block('end', { State: 'Processing', HasTornAudio: true })}`;
    const seen = [];
    // Cut into 7-character pieces: events and even "\n\n" fall across pieces.
    for (let i = 0; i < text.length; i += 7) seen.push(...parse(text.slice(i, i + 7)));
    expect(seen).toEqual([
      { type: 'peaks', peaks: peaks(0), id: null },
      { type: 'peaks', peaks: peaks(1), id: null },
      { type: 'end', end: { State: 'Processing', HasTornAudio: true } },
    ]);
  });

  it('reads CRLF line ends and data without the space after the colon', () => {
    const parse = liveEventParser();
    expect(parse(`event:end\r\ndata:${JSON.stringify({ State: 'Finalized', HasTornAudio: false })}\r\n\r\n`)).toEqual([{ type: 'end', end: { State: 'Finalized', HasTornAudio: false } }]);
  });

  it('holds an event that is not complete yet', () => {
    const parse = liveEventParser();
    expect(parse(block('peaks', peaks(4)).slice(0, -1))).toEqual([]);
    expect(parse('\n')).toEqual([{ type: 'peaks', peaks: peaks(4), id: null }]);
  });

  it('gives each peaks event its id (what a reconnecting reader sends as Last-Event-ID)', () => {
    const parse = liveEventParser();
    expect(parse(`id: 7\n${block('peaks', peaks(0))}event: peaks\nid:12\ndata: ${JSON.stringify(peaks(3))}\n\n`)).toEqual([
      { type: 'peaks', peaks: peaks(0), id: '7' },
      { type: 'peaks', peaks: peaks(3), id: '12' },
    ]);
  });

  it('refuses an event of ours whose data is not the protocol’s', () => {
    expect(() => liveEventParser()(block('peaks', { FirstPixel: -1 }))).toThrow();
    expect(() => liveEventParser()('event: end\ndata: {not json\n\n')).toThrow();
  });
});

describe('readLiveEvents', () => {
  it('calls back for each append in order, returns the end and cancels the body', async () => {
    const text = `${block('peaks', peaks(0))}${block('peaks', peaks(1))}${block('end', { State: 'Finalized', HasTornAudio: false })}${block('peaks', peaks(2))}`;
    const { body, state } = bodyOf([text.slice(0, 30), text.slice(30)]);
    const got: number[] = [];
    const end = await readLiveEvents(body, (e) => got.push(e.FirstPixel));
    expect(got).toEqual([0, 1]);
    expect(end).toEqual({ State: 'Finalized', HasTornAudio: false });
    expect(state.cancelled).toBe(true);
  });

  it('returns null when the body closes before the end', async () => {
    const got: number[] = [];
    expect(await readLiveEvents(bodyOf([block('peaks', peaks(0))], true).body, (e) => got.push(e.FirstPixel))).toBeNull();
    expect(got).toEqual([0]);
  });

  it('throws on a malformed event and cancels the body', async () => {
    const { body, state } = bodyOf([block('end', { State: 3 })]);
    await expect(readLiveEvents(body, () => undefined)).rejects.toBeInstanceOf(LiveEventError);
    expect(state.cancelled).toBe(true);
  });
});
