// The cut editor's state: kept regions of the source (seconds, sorted, disjoint) with undo/redo.
//
//   edit (trim start | trim end | remove a–b | keep only a–b) ──> new present; old present → past;
//   undo: present → future, past.pop() → present;  redo: the reverse.  A new edit clears future.
import { normalizeRegions, type Region } from '../../media/cut.ts';
import { CROSSFADE_MS_DEFAULT, type CutEdit } from '../../protocol/media.ts';

export type CutState = { duration: number; kept: Region[] };
export type CutHistory = { past: CutState[]; present: CutState; future: CutState[] };

/** Undo depth kept in memory. */
export const UNDO_LIMIT = 200;

export function initialCut(duration: number, kept?: readonly Region[]): CutHistory {
  return { past: [], present: { duration, kept: normalizeRegions(kept ?? [{ start: 0, end: duration }], duration) }, future: [] };
}

function intersect(kept: readonly Region[], a: number, b: number): Region[] {
  return kept.map((r) => ({ start: Math.max(r.start, a), end: Math.min(r.end, b) })).filter((r) => r.end > r.start);
}

export function subtract(kept: readonly Region[], a: number, b: number): Region[] {
  const out: Region[] = [];
  for (const r of kept) {
    if (b <= r.start || a >= r.end) out.push({ ...r });
    else {
      if (a > r.start) out.push({ start: r.start, end: a });
      if (b < r.end) out.push({ start: b, end: r.end });
    }
  }
  return out;
}

export type CutAction =
  | { type: 'trimStart'; at: number }
  | { type: 'trimEnd'; at: number }
  | { type: 'remove'; start: number; end: number }
  | { type: 'keepOnly'; start: number; end: number }
  | { type: 'undo' }
  | { type: 'redo' }
  | { type: 'reset'; duration: number; kept?: Region[] };

function edit(s: CutState, action: Exclude<CutAction, { type: 'undo' | 'redo' | 'reset' }>): CutState {
  const d = s.duration;
  const clamp = (t: number) => Math.max(0, Math.min(d, t));
  switch (action.type) {
    case 'trimStart':
      return { duration: d, kept: intersect(s.kept, clamp(action.at), d) };
    case 'trimEnd':
      return { duration: d, kept: intersect(s.kept, 0, clamp(action.at)) };
    case 'remove':
      return { duration: d, kept: subtract(s.kept, clamp(Math.min(action.start, action.end)), clamp(Math.max(action.start, action.end))) };
    case 'keepOnly':
      return { duration: d, kept: intersect(s.kept, clamp(Math.min(action.start, action.end)), clamp(Math.max(action.start, action.end))) };
  }
}

const same = (a: CutState, b: CutState) => a.kept.length === b.kept.length && a.kept.every((r, i) => r.start === b.kept[i]!.start && r.end === b.kept[i]!.end);

export function cutReducer(h: CutHistory, action: CutAction): CutHistory {
  switch (action.type) {
    case 'undo': {
      const prev = h.past.at(-1);
      return prev ? { past: h.past.slice(0, -1), present: prev, future: [h.present, ...h.future] } : h;
    }
    case 'redo': {
      const next = h.future[0];
      return next ? { past: [...h.past, h.present], present: next, future: h.future.slice(1) } : h;
    }
    case 'reset':
      return initialCut(action.duration, action.kept);
    default: {
      const next = edit(h.present, action);
      // An edit that would keep nothing, or changes nothing, is not taken.
      if (next.kept.length === 0 || same(next, h.present)) return h;
      return { past: [...h.past, h.present].slice(-UNDO_LIMIT), present: next, future: [] };
    }
  }
}

export function keptSeconds(s: CutState): number {
  return s.kept.reduce((t, r) => t + (r.end - r.start), 0);
}

export function toCutEdit(s: CutState, crossfadeMs: number = CROSSFADE_MS_DEFAULT): CutEdit {
  return { KeptRegions: s.kept.map((r) => ({ StartSeconds: r.start, EndSeconds: r.end })), CrossfadeMs: crossfadeMs };
}

export function fromCutEdit(edit: CutEdit, duration: number): CutHistory {
  return initialCut(duration, edit.KeptRegions.map((r) => ({ start: r.StartSeconds, end: r.EndSeconds })));
}
