// A refused change's errors as a list ("Slug: This slug is already in use…"), as both the clip
// screen (where the change was made) and the sync details show them; nothing when the server named
// no error.
import type { NeedsAttentionEntry } from '../db/db.ts';
import { refusedErrorLines } from '../lib/sync-labels.ts';

export function RefusedErrorList({ item }: { item: Pick<NeedsAttentionEntry, 'entity' | 'errors'> }) {
  if (item.errors.length === 0) return null;
  return (
    <ul>
      {refusedErrorLines(item).map((line, i) => (
        <li key={i}>{line}</li>
      ))}
    </ul>
  );
}
