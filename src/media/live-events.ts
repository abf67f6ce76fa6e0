// Reading a live recording's event stream (GET /v1/recordings/{id}/live/peaks, server-sent events:
// 'peaks' for each append, then 'end'), one reader for the recording screen (RecordingLive) and the
// tests that watch a stream. Events arrive split anywhere across chunks; an event is whole at its
// blank line. Comments (': keep-alive') and events of other names are skipped; an event of ours whose
// data is not what the protocol says is an error, not an event quietly dropped.
import { LIVE_END_EVENT, LIVE_PEAKS_EVENT, LiveEndEvent, LivePeaksEvent } from '../protocol/api/live-recordings.ts';

/** `id`: the event's SSE id (null when it has none), what a reader reconnecting sends as Last-Event-ID. */
export type LiveEvent = { type: typeof LIVE_PEAKS_EVENT; peaks: LivePeaksEvent; id: string | null } | { type: typeof LIVE_END_EVENT; end: LiveEndEvent };

/** One event block (the lines before a blank line) as one of ours, or null (a comment, another name). */
function eventOf(block: string): LiveEvent | null {
  let name = 'message';
  let id: string | null = null;
  const data: string[] = [];
  for (const raw of block.split('\n')) {
    const line = raw.endsWith('\r') ? raw.slice(0, -1) : raw;
    if (line === '' || line.startsWith(':')) continue;
    const colon = line.indexOf(':');
    const field = colon < 0 ? line : line.slice(0, colon);
    // The text after "field:" loses one leading space, as the EventSource standard reads it.
    const value = colon < 0 ? '' : line.slice(colon + 1).replace(/^ /, '');
    if (field === 'event') name = value;
    else if (field === 'data') data.push(value);
    // The standard ignores an id holding NUL; ours are digits.
    else if (field === 'id' && !value.includes('\0')) id = value;
  }
  if (name !== LIVE_PEAKS_EVENT && name !== LIVE_END_EVENT) return null;
  const json: unknown = JSON.parse(data.join('\n'));
  return name === LIVE_PEAKS_EVENT ? { type: LIVE_PEAKS_EVENT, peaks: LivePeaksEvent.parse(json), id } : { type: LIVE_END_EVENT, end: LiveEndEvent.parse(json) };
}

/** A parser fed the stream's text as it comes; each call returns the events completed by that text. */
export function liveEventParser(): (text: string) => LiveEvent[] {
  let buffer = '';
  return (text) => {
    buffer += text.replace(/\r\n?/g, '\n');
    const events: LiveEvent[] = [];
    let cut: number;
    while ((cut = buffer.indexOf('\n\n')) >= 0) {
      const event = eventOf(buffer.slice(0, cut));
      buffer = buffer.slice(cut + 2);
      if (event) events.push(event);
    }
    return events;
  };
}

/**
 * Reads a live event stream's body, calling `onPeaks` for each append in order (with its id, to
 * ask again from after it as Last-Event-ID), until its 'end'
 * (returned; the body is then cancelled) or until the body closes first (null: the connection went,
 * the caller says so or reads again).
 */
export async function readLiveEvents(body: ReadableStream<Uint8Array>, onPeaks: (peaks: LivePeaksEvent, id: string | null) => void): Promise<LiveEndEvent | null> {
  const reader = body.getReader();
  const text = new TextDecoder();
  const parse = liveEventParser();
  for (;;) {
    // A read that fails is the connection going (thrown as it is: the caller may ask again).
    const { done, value } = await reader.read();
    if (done) return null;
    let events: LiveEvent[];
    try {
      events = parse(text.decode(value, { stream: true }));
    } catch (error) {
      // An event that is not what the protocol says: the stream is dropped and the caller told.
      await reader.cancel().catch(() => undefined);
      throw new LiveEventError(error);
    }
    for (const event of events) {
      if (event.type === LIVE_PEAKS_EVENT) {
        onPeaks(event.peaks, event.id);
        continue;
      }
      await reader.cancel();
      return event.end;
    }
  }
}

/** An event of ours whose data is not the protocol's: asking again would get the same, unlike a
 * connection that went. */
export class LiveEventError extends Error {
  constructor(cause: unknown) {
    super(`A live event is not what the protocol says: ${cause instanceof Error ? cause.message : String(cause)}`, { cause });
    this.name = 'LiveEventError';
  }
}
