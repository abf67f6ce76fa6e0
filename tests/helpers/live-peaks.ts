// Watching a live recording's peaks in a test (GET /v1/recordings/{id}/live/peaks): each 'peaks'
// event as it comes, until 'end'; an error if the stream closes first.
import { expect } from 'vitest';
import { readLiveEvents } from '../../src/media/live-events.ts';
import type { LiveEndEvent, LivePeaksEvent } from '../../src/protocol/api/live-recordings.ts';

export async function watchLivePeaks(base: string, headers: Record<string, string>, id: string, onPeaks: (e: LivePeaksEvent) => void): Promise<LiveEndEvent> {
  const res = await fetch(`${base}/api/v1/recordings/${id}/live/peaks`, { headers });
  expect(res.status).toBe(200);
  expect(res.headers.get('content-type')).toContain('text/event-stream');
  const end = await readLiveEvents(res.body!, onPeaks);
  if (!end) throw new Error('the stream closed before its end event');
  return end;
}

/** The pixels of one 'peaks' event (min and max, 16 bits each). */
export const pixelsOf = (e: LivePeaksEvent) => Buffer.from(e.Data, 'base64').length / 4;
