// The artwork of a network, program, playlist or clip: choose or drop a JPEG or PNG, see it at
// once, remove it. The choice is kept on this device first (src/lib/artwork-queue.ts), so it
// works offline and shows as pending until the server has it; the row's own artwork
// (Urls.ImagePublicUrl, which arrives by sync once the server has made its size variants) shows
// otherwise.
//   <ArtworkPicker kind="program" ownerId={program.Id} organizationId={organizationId} imageUrl={program.Urls.ImagePublicUrl} />
import { useEffect, useId, useMemo, useRef, useState } from 'react';
import { useLiveQuery } from 'dexie-react-hooks';
import type { ImageOwnerKind } from '../domain/artwork.ts';
import { IMAGE_EXTENSIONS } from '../domain/constants.ts';
import { imageUrlForSize } from '../domain/image.ts';
import { formatFormError } from '../domain/messages.ts';
import { artworkDb, artworkKey, type ArtworkRecord } from '../db/artwork-db.ts';
import { chooseArtwork, dismissArtwork, kickArtwork, removeArtwork, useArtworkProgress } from '../lib/artwork-queue.ts';
import { useOnline } from '../lib/connectivity.ts';
import { useSession } from '../lib/session.ts';
import { m } from '../paraglide/messages.js';
import { FileInput, useFileDrop } from './FileDrop.tsx';

const ACCEPT = ['image/jpeg', 'image/png', ...IMAGE_EXTENSIONS.map((e) => `.${e}`)].join(',');
/** The preview box, in CSS pixels: the small variant (256) covers it on a 2× screen. */
const PREVIEW_PX = 128;

function refusalText(status: number | null): string {
  if (status === 415) return m.artwork_refused_type();
  if (status === 413) return m.artwork_refused_size();
  if (status === 403 || status === 404) return m.artwork_refused_access();
  return m.artwork_refused_unreadable();
}

/** A URL for the chosen file's bytes while it is shown (revoked after). */
function useObjectUrl(blob: Blob | null | undefined): string | null {
  const url = useMemo(() => (blob ? URL.createObjectURL(blob) : null), [blob]);
  useEffect(() => () => (url ? URL.revokeObjectURL(url) : undefined), [url]);
  return url;
}

export type ArtworkPickerProps = {
  kind: ImageOwnerKind;
  ownerId: string;
  organizationId: string;
  /** The row's Urls.ImagePublicUrl (site-relative), or null. */
  imageUrl: string | null | undefined;
  disabled?: boolean;
};

export function ArtworkPicker({ kind, ownerId, organizationId, imageUrl, disabled = false }: ArtworkPickerProps) {
  const id = useId();
  const input = useRef<HTMLInputElement>(null);
  const userId = useSession()?.session.User?.Id ?? null;
  const online = useOnline();
  const key = artworkKey(kind, ownerId);
  const pending: ArtworkRecord | null | undefined = useLiveQuery(async () => (await artworkDb.pending.get(key)) ?? null, [key]);
  const progress = useArtworkProgress(kind, ownerId);
  const preview = useObjectUrl(pending?.action === 'put' ? pending.blob : null);
  const [error, setError] = useState<string | null>(null);

  // A choice kept from an earlier visit (or made offline) goes out when the picker is shown online.
  useEffect(() => {
    if (online && userId) void kickArtwork(userId);
  }, [online, userId]);

  const served = imageUrl ? imageUrlForSize(imageUrl, PREVIEW_PX * 2, PREVIEW_PX * 2) : null;
  const shown = pending ? (pending.action === 'put' ? preview : null) : served?.ok ? served.url : null;
  const owner = userId ? { kind, ownerId, userId, organizationId } : null;

  async function take(file: File | undefined) {
    if (!file || !owner) return;
    setError(null);
    const problem = await chooseArtwork(owner, file).catch(() => null);
    if (problem) setError(formatFormError(problem));
  }

  const { dragging, zone } = useFileDrop(!disabled, (file) => void take(file));

  let status: string | null = null;
  if (pending?.state === 'failed') status = null;
  else if (pending?.action === 'remove') status = online ? m.artwork_waiting() : m.artwork_removal_pending();
  else if (pending && !online) status = m.artwork_waiting_offline();
  else if (pending && progress !== null) status = m.artwork_uploading({ percent: Math.round(progress * 100) });
  else if (pending) status = m.artwork_waiting();
  const refused = pending?.state === 'failed' ? refusalText(pending.refusedStatus) : null;
  const shownError = error ?? refused;

  return (
    <div
      className={`field artwork-picker${dragging ? ' is-dragging' : ''}${shownError ? ' has-error' : ''}`}
      {...zone}
    >
      <label htmlFor={disabled ? undefined : id}>{m.artwork_label()}</label>
      <div className="artwork-picker-body" style={{ display: 'flex', gap: '1rem', alignItems: 'center' }}>
        <div className="artwork-preview" style={{ width: PREVIEW_PX, height: PREVIEW_PX, flex: 'none', border: '1px dashed currentColor', display: 'grid', placeItems: 'center', overflow: 'hidden' }}>
          {shown ? (
            <img src={shown} alt={m.artwork_preview()} width={PREVIEW_PX} height={PREVIEW_PX} style={{ objectFit: 'cover' }} />
          ) : (
            <span className="field-hint" style={{ textAlign: 'center', padding: '0 0.5rem' }}>{m.artwork_none()}</span>
          )}
        </div>
        <div>
          {/* Read only (no access to change it): the artwork is shown, with nothing that offers a change. */}
          {!disabled && (
            <>
              <FileInput inputRef={input} id={id} accept={ACCEPT} disabled={!owner} describedBy={`${id}-hint`} onFile={(file) => void take(file)} />
              <button type="button" className="button" disabled={!owner} onClick={() => input.current?.click()}>
                {m.artwork_choose()}
              </button>{' '}
              {(shown || pending?.action === 'put') && (
                <button type="button" className="button danger-outline" disabled={!owner} onClick={() => owner && void removeArtwork(owner)}>
                  {m.artwork_remove()}
                </button>
              )}
              <p id={`${id}-hint`} className="field-hint">
                {m.artwork_hint()}
              </p>
            </>
          )}
          {status && (
            <p className="field-hint" role="status">
              {status}
              {progress !== null && (
                <>
                  {' '}
                  <progress max={1} value={progress} />
                </>
              )}
            </p>
          )}
          {shownError && (
            <p className="field-error" role="alert">
              {shownError}{' '}
              {refused && !error && (
                <button type="button" className="button small" onClick={() => void dismissArtwork(kind, ownerId)}>
                  {m.artwork_dismiss()}
                </button>
              )}
            </p>
          )}
        </div>
      </div>
    </div>
  );
}
