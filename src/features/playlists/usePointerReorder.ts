// Reorder a vertical list by dragging a row's handle with pointer events, so the same code serves
// a mouse, a pen and a finger (HTML5 drag and drop never starts from a touch). The row follows the
// pointer; the rows it passes slide aside to show where it will land; the page scrolls when the
// pointer nears the top or bottom edge.
//
//   idle ──pointerdown on a handle──> dragging ──pointerup──> idle (onDrop(from, to) when moved)
//                                        │
//                                        └──pointercancel / Escape / lost capture──> idle (no move)
//
// The handle needs `touch-action: none`, or a touch that starts on it scrolls the page and the
// browser cancels the pointer.
import { useEffect, useRef, useState, type KeyboardEvent, type PointerEvent } from 'react';

/** Where the dragged row lands: how many other rows have their middle above the dragged row's. */
export function dropIndex(centers: readonly number[], from: number, center: number): number {
  let to = 0;
  centers.forEach((c, i) => {
    if (i !== from && c < center) to += 1;
  });
  return to;
}

/** How far a row slides while another row is dragged from `from` towards `to`. */
export function slideOf(index: number, from: number, to: number, step: number): number {
  if (from < to && index > from && index <= to) return -step;
  if (to < from && index >= to && index < from) return step;
  return 0;
}

type Drag = {
  pointerId: number;
  from: number;
  startY: number;
  startScroll: number;
  /** Row middles, and how far the rows it passes slide (its height and the gap), measured when the drag began. */
  centers: number[];
  step: number;
  clientY: number;
};

export type DragView = { from: number; to: number; dy: number; step: number };

const EDGE = 48;
const SCROLL_SPEED = 12;

export function usePointerReorder(listRef: React.RefObject<HTMLElement | null>, onDrop: (from: number, to: number) => void) {
  const drag = useRef<Drag | null>(null);
  const [view, setView] = useState<DragView | null>(null);
  const onDropRef = useRef(onDrop);
  useEffect(() => {
    onDropRef.current = onDrop;
  });

  const update = () => {
    const d = drag.current;
    if (!d) return;
    const dy = d.clientY - d.startY + (window.scrollY - d.startScroll);
    setView({ from: d.from, to: dropIndex(d.centers, d.from, (d.centers[d.from] ?? 0) + dy), dy, step: d.step });
  };

  const end = (drop: boolean) => {
    const d = drag.current;
    drag.current = null;
    setView(null);
    if (!d || !drop) return;
    const dy = d.clientY - d.startY + (window.scrollY - d.startScroll);
    const to = dropIndex(d.centers, d.from, (d.centers[d.from] ?? 0) + dy);
    if (to !== d.from) onDropRef.current(d.from, to);
  };

  // While dragging near an edge of the window, scroll it (the pointer may not move meanwhile).
  const dragging = view !== null;
  useEffect(() => {
    if (!dragging) return;
    let frame = requestAnimationFrame(function tick() {
      const d = drag.current;
      if (!d) return;
      const by = d.clientY < EDGE ? -SCROLL_SPEED : d.clientY > window.innerHeight - EDGE ? SCROLL_SPEED : 0;
      if (by !== 0) {
        const before = window.scrollY;
        window.scrollBy(0, by);
        if (window.scrollY !== before) update();
      }
      frame = requestAnimationFrame(tick);
    });
    return () => cancelAnimationFrame(frame);
  }, [dragging]);

  /** Props for the handle of the row at `index`. */
  const handleProps = (index: number) => ({
    onPointerDown: (e: PointerEvent<HTMLElement>) => {
      if (drag.current || !e.isPrimary || (e.pointerType === 'mouse' && e.button !== 0)) return;
      const rows = Array.from(listRef.current?.children ?? []) as HTMLElement[];
      const rects = rows.map((r) => r.getBoundingClientRect());
      const first = rects[0];
      const second = rects[1];
      e.currentTarget.setPointerCapture(e.pointerId);
      drag.current = {
        pointerId: e.pointerId,
        from: index,
        startY: e.clientY,
        startScroll: window.scrollY,
        centers: rects.map((r) => r.top + r.height / 2),
        step: (rects[index]?.height ?? 0) + (first && second ? second.top - first.bottom : 0),
        clientY: e.clientY,
      };
      update();
    },
    onPointerMove: (e: PointerEvent<HTMLElement>) => {
      const d = drag.current;
      if (!d || e.pointerId !== d.pointerId) return;
      d.clientY = e.clientY;
      update();
    },
    onPointerUp: (e: PointerEvent<HTMLElement>) => {
      if (drag.current?.pointerId !== e.pointerId) return;
      drag.current.clientY = e.clientY;
      end(true);
    },
    onPointerCancel: () => end(false),
    onLostPointerCapture: () => {
      if (drag.current) end(false);
    },
    /** Escape drops the row back where it was; true when the key was used. */
    cancelOnEscape: (e: KeyboardEvent) => {
      if (e.key !== 'Escape' || !drag.current) return false;
      end(false);
      return true;
    },
  });

  return { view, handleProps };
}
