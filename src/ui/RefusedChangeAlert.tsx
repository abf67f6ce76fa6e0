// A change the server refused after it synced (a needsAttention entry), shown where it was made:
// what was refused (the screen's title), why (the HTTP status in words, and each field error in
// the server's words), and what to do: Discard it, or Try again once the cause is gone; a screen
// may add its own action (the clip form's Edit again). `id` lets the control that made the change
// be described by it.
import type { ReactNode } from 'react';
import type { NeedsAttentionEntry } from '../db/db.ts';
import { dismissNeedsAttention, retryNeedsAttention } from '../db/conflicts.ts';
import { savedLocally } from '../lib/local-write.ts';
import { attentionReason } from '../lib/sync-labels.ts';
import { m } from '../paraglide/messages.js';
import { RefusedErrorList } from './RefusedErrorList.tsx';

export function RefusedChangeAlert({ item, title, id, children }: { item: NeedsAttentionEntry; title: string; id?: string; children?: ReactNode }) {
  return (
    <div id={id} role="alert" className="alert alert-danger">
      <p>
        <strong>{title}</strong> {attentionReason(item.httpStatus)}
      </p>
      <RefusedErrorList item={item} />
      <div className="form-actions">
        <button type="button" className="button" onClick={() => void savedLocally(dismissNeedsAttention(item.id))}>{m.app_attention_dismiss()}</button>
        <button type="button" className="button" onClick={() => void savedLocally(retryNeedsAttention(item.id))}>{m.app_attention_retry()}</button>
        {children}
      </div>
    </div>
  );
}
