// @vitest-environment happy-dom
import { act, useState } from 'react';
import { createRoot, type Root } from 'react-dom/client';
import { afterEach, describe, expect, it } from 'vitest';
import { WaveformMarkers, type EditableMarker } from './WaveformMarkers.tsx';

(globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true;

const roots: Root[] = [];
afterEach(() => {
  act(() => roots.splice(0).forEach((root) => root.unmount()));
  document.body.innerHTML = '';
});

/** The layer held by a screen-like owner that applies what the layer asks for. */
function Owner(props: { initial: EditableMarker[]; playhead: number }) {
  const [markers, setMarkers] = useState(props.initial);
  const [selected, setSelected] = useState<string | null>(null);
  let next = markers.length;
  return (
    <WaveformMarkers
      durationSeconds={300}
      markers={markers}
      selectedId={selected}
      onSelect={setSelected}
      onMove={(id, seconds) => setMarkers((ms) => ms.map((k) => (k.id === id ? { ...k, seconds } : k)))}
      onAdd={(seconds) => setMarkers((ms) => [...ms, { id: `n${next++}`, seconds, label: 'New', kind: 'chapter' }])}
      onRemove={(id) => setMarkers((ms) => ms.filter((k) => k.id !== id))}
      playheadSeconds={props.playhead}
      label="Chapters"
    />
  );
}

function render(initial: EditableMarker[], playhead = 42): HTMLElement {
  const el = document.createElement('div');
  document.body.append(el);
  const root = createRoot(el);
  roots.push(root);
  act(() => root.render(<Owner initial={initial} playhead={playhead} />));
  return el;
}
const flags = (el: HTMLElement) => [...el.querySelectorAll<HTMLElement>('[role="slider"]')];
const names = (el: HTMLElement) => flags(el).map((f) => f.getAttribute('aria-label'));
function key(target: Element, k: string, init: KeyboardEventInit = {}) {
  act(() => {
    target.dispatchEvent(new KeyboardEvent('keydown', { key: k, bubbles: true, cancelable: true, ...init }));
  });
}

describe('WaveformMarkers', () => {
  it('names each marker by its place, words and time, in time order', () => {
    const el = render([
      { id: 'b', seconds: 65, label: 'Intro', kind: 'chapter' },
      { id: 'a', seconds: 0, label: 'Cold open', kind: 'chapter' },
      { id: 'x', seconds: 120, label: 'Sponsor', kind: 'ad' },
    ]);
    expect(names(el)).toEqual(['Chapter 1, Cold open, at 0:00', 'Chapter 2, Intro, at 1:05', 'Ad 1, Sponsor, at 2:00']);
    expect(flags(el)[1]!.getAttribute('aria-valuetext')).toBe('1:05');
    expect(el.querySelector('[role="group"]')!.getAttribute('aria-label')).toBe('Chapters');
  });

  it('moves a focused marker by 1 s and 10 s within the audio, removes it and adds at the playhead', () => {
    const el = render([
      { id: 'a', seconds: 5, label: 'One', kind: 'chapter' },
      { id: 'b', seconds: 295, label: 'Two', kind: 'chapter' },
    ]);
    const first = flags(el)[0]!;
    act(() => first.focus());
    expect(first.getAttribute('aria-current')).toBe('true');
    key(first, 'ArrowRight');
    expect(flags(el)[0]!.getAttribute('aria-valuenow')).toBe('6');
    key(flags(el)[0]!, 'ArrowLeft', { shiftKey: true });
    expect(flags(el)[0]!.getAttribute('aria-valuenow')).toBe('0');
    key(flags(el)[1]!, 'ArrowRight', { shiftKey: true });
    expect(flags(el)[1]!.getAttribute('aria-valuenow')).toBe('300');
    key(flags(el)[1]!, 'm');
    expect(names(el)).toEqual(['Chapter 1, One, at 0:00', 'Chapter 2, New, at 0:42', 'Chapter 3, Two, at 5:00']);
    key(flags(el)[1]!, 'Delete');
    expect(names(el)).toEqual(['Chapter 1, One, at 0:00', 'Chapter 2, Two, at 5:00']);
    // The focus went to the removed marker's neighbour, so Delete again goes on along the strip.
    expect(document.activeElement?.getAttribute('aria-label')).toBe('Chapter 2, Two, at 5:00');
  });

  it('lets M add the first marker from the empty strip', () => {
    const el = render([], 12.34);
    const strip = el.querySelector<HTMLElement>('[role="group"]')!;
    expect(strip.tabIndex).toBe(0);
    key(strip, 'M');
    expect(names(el)).toEqual(['Chapter 1, New, at 0:12']);
    expect(flags(el)[0]!.getAttribute('aria-valuenow')).toBe('12.3');
  });

  it('drags a marker with the pointer to the time under it; Escape during the drag puts it back', () => {
    const el = render([{ id: 'a', seconds: 30, label: 'Intro', kind: 'chapter' }]);
    const strip = el.querySelector<HTMLElement>('[role="group"]')!;
    // happy-dom lays nothing out: the strip is given the 600 px a browser would (300 s of audio, 2 px a second).
    strip.getBoundingClientRect = () => ({ left: 100, top: 0, width: 600, height: 28, right: 700, bottom: 28, x: 100, y: 0, toJSON: () => ({}) }) as DOMRect;
    const pointer = (target: Element, type: string, clientX: number) =>
      act(() => {
        target.dispatchEvent(new PointerEvent(type, { bubbles: true, cancelable: true, pointerId: 1, button: 0, clientX }));
      });
    pointer(flags(el)[0]!, 'pointerdown', 160);
    expect(flags(el)[0]!.getAttribute('aria-current')).toBe('true');
    // Less than the drag threshold: a press, not a move.
    pointer(flags(el)[0]!, 'pointermove', 162);
    expect(flags(el)[0]!.getAttribute('aria-valuenow')).toBe('30');
    pointer(flags(el)[0]!, 'pointermove', 400);
    expect(flags(el)[0]!.getAttribute('aria-valuenow')).toBe('150');
    key(flags(el)[0]!, 'Escape');
    expect(flags(el)[0]!.getAttribute('aria-valuenow')).toBe('30');
    pointer(flags(el)[0]!, 'pointerdown', 160);
    pointer(flags(el)[0]!, 'pointermove', 1000);
    pointer(flags(el)[0]!, 'pointerup', 1000);
    expect(names(el)).toEqual(['Chapter 1, Intro, at 5:00']);
  });
});
