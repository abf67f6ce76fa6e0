// The user's own picture (section 7 "Account": PUT /internal/users/me/image with the file as the
// body, DELETE to remove it; section 3's size variants). Unlike a row's artwork it is not kept on
// the device to send later: it belongs to the account, not to the organization the device syncs,
// so a change needs the network and says so offline. The file rules of section 5 are checked
// before anything is sent; the server's refusal (not an image, too large, unreadable) shows at
// the field. The session is loaded again afterwards: its User.ImageUrl is what every screen shows.
import { useId, useRef, useState } from 'react';
import { m } from '../../paraglide/messages.js';
import { validateImageFile } from '../../domain/artwork.ts';
import { IMAGE_EXTENSIONS } from '../../domain/constants.ts';
import { imageUrlForSize } from '../../domain/image.ts';
import { fieldErrorText, formatFormError } from '../../domain/messages.ts';
import { deleteMyImage, putMyImage } from '../../protocol/api/images.ts';
import { routeUrl, xsrfToken } from '../../lib/api.ts';
import { useOnline } from '../../lib/connectivity.ts';
import { withLoading } from '../../lib/loading.ts';
import { loadSession, type SessionUser } from '../../lib/session.ts';
import { showToast } from '../../lib/toast.ts';

const ACCEPT = ['image/jpeg', 'image/png', ...IMAGE_EXTENSIONS.map((e) => `.${e}`)].join(',');
/** The picture's box in CSS pixels; the small variant (256) covers it on a 2× screen. */
const SIZE_PX = 96;

type Refusal = { Errors?: Array<Parameters<typeof fieldErrorText>[0]> };

/** What the server said, in the user's words: its first error's message, else by status. */
async function refusalOf(res: Response): Promise<string> {
  const body = (res.headers.get('content-type') ?? '').includes('json') ? ((await res.json().catch(() => null)) as Refusal | null) : null;
  const first = body?.Errors?.[0];
  if (first) return fieldErrorText(first);
  if (res.status === 413) return m.artwork_refused_size();
  if (res.status === 415) return m.artwork_refused_type();
  return m.account_picture_failed();
}

export function ProfilePicture({ user }: { user: SessionUser }) {
  const id = useId();
  const input = useRef<HTMLInputElement>(null);
  const online = useOnline();
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const served = user.ImageUrl ? imageUrlForSize(user.ImageUrl, SIZE_PX * 2, SIZE_PX * 2) : null;

  async function send(file: File | null) {
    setError(null);
    if (file) {
      const problem = validateImageFile({ name: file.name, size: file.size });
      if (problem) return setError(formatFormError(problem));
    }
    if (!online) return setError(m.account_picture_offline());
    setBusy(true);
    try {
      const route = file ? putMyImage : deleteMyImage;
      const headers: Record<string, string> = { 'x-xsrf-token': await xsrfToken() };
      if (file) headers['content-type'] = file.type || 'application/octet-stream';
      const res = await withLoading(fetch(routeUrl(route), { method: route.method.toUpperCase(), headers, body: file, credentials: 'same-origin' }));
      if (!res.ok) return setError(await refusalOf(res));
      await withLoading(loadSession());
      showToast({ type: 'success', title: file ? m.account_picture_saved() : m.account_picture_removed() });
    } catch {
      setError(navigator.onLine ? m.account_picture_failed() : m.account_picture_offline());
    } finally {
      setBusy(false);
    }
  }

  return (
    <section className="card form" aria-labelledby={`${id}-title`}>
      <h2 id={`${id}-title`}>{m.account_picture_title()}</h2>
      <div style={{ display: 'flex', flexDirection: 'row', gap: '1rem', alignItems: 'center', flexWrap: 'wrap' }}>
        <div style={{ width: SIZE_PX, height: SIZE_PX, flex: 'none', borderRadius: '50%', overflow: 'hidden', display: 'grid', placeItems: 'center', border: '1px solid currentColor' }}>
          {served?.ok ? <img src={served.url} alt={m.account_picture_alt()} width={SIZE_PX} height={SIZE_PX} style={{ objectFit: 'cover' }} /> : <span className="field-hint">{m.account_picture_none()}</span>}
        </div>
        <div style={{ flex: '1 1 16rem', minWidth: 0 }}>
          <input
            ref={input}
            id={`${id}-file`}
            type="file"
            accept={ACCEPT}
            hidden
            aria-label={m.account_picture_choose()}
            aria-invalid={error ? true : undefined}
            aria-describedby={`${id}-hint${error ? ` ${id}-error` : ''}`}
            onChange={(e) => {
              const file = e.target.files?.[0];
              e.target.value = '';
              if (file) void send(file);
            }}
          />
          <button type="button" className="button" disabled={busy} aria-busy={busy} onClick={() => input.current?.click()}>
            {m.account_picture_choose()}
          </button>{' '}
          {user.ImageUrl && (
            <button type="button" className="button danger-outline" disabled={busy} onClick={() => void send(null)}>
              {m.account_picture_remove()}
            </button>
          )}
          <p id={`${id}-hint`} className="field-hint">
            {m.account_picture_hint()}
          </p>
          {error && (
            <p id={`${id}-error`} className="field-error" role="alert">
              {error}
            </p>
          )}
        </div>
      </div>
    </section>
  );
}
