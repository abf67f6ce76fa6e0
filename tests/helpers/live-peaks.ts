// Watching a live recording's peaks in a test (GET /v1/recordings/{id}/live/peaks): each 'peaks'
// event as it comes, until 'end'; an error if the stream closes first.
import { expect } from 'vitest';
import type { LiveEndEvent, LivePeaksEvent } from '../../src/protocol/api/live-recordings.ts';

export async function watchLivePeaks(base: string, headers: Record<string, string>, id: string, onPeaks: (e: LivePeaksEvent) => void): Promise<LiveEndEvent> {
  const res = await fetch(`${base}/api/v1/recordings/${id}/live/peaks`, { headers });
  expect(res.status).toBe(200);
  expect(res.headers.get('content-type')).toContain('text/event-stream');
  const reader = res.body!.pipeThrough(new TextDecoderStream()).getReader();
  let buffer = '';
  for (;;) {
    const { done, value } = await reader.read();
    if (done) throw new Error('the stream closed before its end event');
    buffer += value;
    let cut: number;
    while ((cut = buffer.indexOf('\n\n')) >= 0) {
      const block = buffer.slice(0, cut);
      buffer = buffer.slice(cut + 2);
      const event = /^event: (.*)$/m.exec(block)?.[1];
      const data = /^data: (.*)$/m.exec(block)?.[1];
      if (event === 'peaks') onPeaks(JSON.parse(data!) as LivePeaksEvent);
      if (event === 'end') {
        await reader.cancel();
        return JSON.parse(data!) as LiveEndEvent;
      }
    }
  }
}

/** The pixels of one 'peaks' event (min and max, 16 bits each). */
export const pixelsOf = (e: LivePeaksEvent) => Buffer.from(e.Data, 'base64').length / 4;
