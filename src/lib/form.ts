// Edit state over a live row: the baseline follows the row (so synced changes to fields the user
// has not touched flow in), `edits` holds what the user typed. Dirty = an edit differs from the
// baseline. 'Reset' clears edits; 'Apply' writes the changed fields, then clears edits.
import { useMemo, useState } from 'react';

export function useEditState<V extends Record<string, unknown>>(baseline: V) {
  const [edits, setEdits] = useState<Partial<V>>({});
  const values = useMemo(() => ({ ...baseline, ...edits }) as V, [baseline, edits]);
  const changed = useMemo(() => {
    const out: Partial<V> = {};
    for (const key of Object.keys(edits) as Array<keyof V>) {
      if (JSON.stringify(edits[key]) !== JSON.stringify(baseline[key])) out[key] = edits[key] as V[keyof V];
    }
    return out;
  }, [edits, baseline]);
  const dirty = Object.keys(changed).length > 0;
  return {
    values,
    changed,
    dirty,
    set: <K extends keyof V>(key: K, value: V[K]) => setEdits((e) => ({ ...e, [key]: value })),
    reset: () => setEdits({}),
  };
}
