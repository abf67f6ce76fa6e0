// A clip's headliner videos on the clip screen (section 7, POST/GET /v1/clips/{clipId}/headliner-videos
// and …/download): audiograms the server renders, one per aspect ratio of the program's
// headliner-video setting. Rules and states: src/domain/headliner.ts.
//
//   offline ──> says making and downloading need the connection; the button is off
//   loaded ──any Queued / Rendering──> asked again every POLL_MS ──> Ready (Download) | Failed (why)
//   Make videos ──202──> the new rows, then polled      ──400──> the reason at the field it names
//                                                                 (captions) or under the button
//
// The videos are the server's work and files, not synced rows: nothing here can wait in the outbox.
import { useCallback, useEffect, useId, useState } from 'react';
import { formatFileSize } from '../../domain/file.ts';
import { HEADLINER_PREVIEW_SECONDS, isHeadlinerBusy } from '../../domain/headliner.ts';
import { fieldErrorText } from '../../domain/messages.ts';
import type { HeadlinerAspectRatio } from '../../domain/monetization.ts';
import { formatDuration } from '../../domain/time.ts';
import { call, organizationHeaders } from '../../lib/api.ts';
import { useOnline } from '../../lib/connectivity.ts';
import { getLocale } from '../../lib/i18n.ts';
import { m } from '../../paraglide/messages.js';
import { createHeadlinerVideos, listHeadlinerVideos, type HeadlinerVideo } from '../../protocol/api/headliner-videos.ts';

/** How often the videos are asked for while one is being made. */
const POLL_MS = 3000;

type Loaded = { kind: 'loading' } | { kind: 'failed' } | { kind: 'ok'; videos: HeadlinerVideo[] };
type Captions = 'setting' | 'on' | 'off';

const RATIO: Record<HeadlinerAspectRatio, () => string> = {
  '1:1': () => m.headliner_ratio_square(),
  '9:16': () => m.headliner_ratio_portrait(),
  '16:9': () => m.headliner_ratio_landscape(),
};

function stateText(v: HeadlinerVideo): string {
  switch (v.State) {
    case 'Queued':
      // Queued again after a failed attempt: why, while it is tried again.
      return v.Problem ? m.headliner_retrying({ why: v.Problem }) : m.headliner_state_queued();
    case 'Rendering':
      return m.headliner_state_rendering();
    case 'Ready':
      return m.headliner_state_ready();
    case 'Failed':
      return m.headliner_state_failed({ why: v.Problem ?? '' });
  }
}

/** The file name the server gives (Content-Disposition's UTF-8 name), else a plain one. */
function fileNameOf(header: string | null): string {
  const utf8 = header ? /filename\*=UTF-8''([^;]+)/i.exec(header)?.[1] : undefined;
  return utf8 ? decodeURIComponent(utf8) : 'headliner.mp4';
}

export function ClipHeadlinerVideos({ clipId }: { clipId: string }) {
  const online = useOnline();
  const id = useId();
  const [loaded, setLoaded] = useState<Loaded>({ kind: 'loading' });
  const [captions, setCaptions] = useState<Captions>('setting');
  const [asking, setAsking] = useState(false);
  const [problems, setProblems] = useState<{ captions?: string; form?: string }>({});
  const [downloadProblem, setDownloadProblem] = useState<string | null>(null);

  const load = useCallback(async () => {
    const res = await call(listHeadlinerVideos, { params: { clipId } });
    setLoaded(res.kind === 'ok' ? { kind: 'ok', videos: res.data.Items } : { kind: 'failed' });
  }, [clipId]);

  useEffect(() => {
    if (online) void load();
  }, [online, load]);

  const busy = loaded.kind === 'ok' && loaded.videos.some((v) => isHeadlinerBusy(v.State));
  useEffect(() => {
    if (!online || !busy) return;
    const timer = setTimeout(() => void load(), POLL_MS);
    return () => clearTimeout(timer);
  }, [online, busy, loaded, load]);

  const make = async () => {
    setAsking(true);
    setProblems({});
    const query: { transcriptEnabled?: 'true' | 'false' } = captions === 'setting' ? {} : { transcriptEnabled: captions === 'on' ? 'true' : 'false' };
    const res = await call(createHeadlinerVideos, { params: { clipId }, query });
    setAsking(false);
    if (res.kind === 'ok') return void load();
    if (res.kind === 'badRequest') {
      const next: { captions?: string; form?: string } = {};
      for (const error of res.body.Errors) {
        if (error.Field === 'transcriptEnabled') next.captions ??= fieldErrorText(error);
        else next.form ??= fieldErrorText(error);
      }
      return setProblems(next);
    }
    setProblems({ form: res.kind === 'error' ? m.headliner_offline() : m.headliner_make_failed() });
  };

  const download = async (video: HeadlinerVideo) => {
    setDownloadProblem(null);
    try {
      // Fetched with the organization the studio works in (a plain link would act in the user's first).
      const res = await fetch(video.DownloadUrl!, { headers: organizationHeaders(), credentials: 'same-origin' });
      if (!res.ok) throw new Error(String(res.status));
      const url = URL.createObjectURL(await res.blob());
      const a = document.createElement('a');
      a.href = url;
      a.download = fileNameOf(res.headers.get('content-disposition'));
      document.body.append(a);
      a.click();
      a.remove();
      setTimeout(() => URL.revokeObjectURL(url), 60_000);
    } catch {
      setDownloadProblem(m.headliner_download_failed());
    }
  };

  const titleId = `${id}-title`;
  const captionsId = `${id}-captions`;
  const number = new Intl.NumberFormat(getLocale());
  return (
    <section className="card headliner-videos" aria-labelledby={titleId}>
      <h2 id={titleId}>{m.headliner_title()}</h2>
      <p className="muted">{m.headliner_intro({ seconds: number.format(HEADLINER_PREVIEW_SECONDS) })}</p>
      {!online && (
        <p className="muted" role="status">
          {m.headliner_offline()}
        </p>
      )}
      <div className="field">
        <label htmlFor={captionsId}>{m.headliner_captions_label()}</label>
        <select
          id={captionsId}
          value={captions}
          aria-invalid={problems.captions ? true : undefined}
          aria-describedby={problems.captions ? `${captionsId}-error` : undefined}
          onChange={(e) => setCaptions(e.target.value as Captions)}
        >
          <option value="setting">{m.headliner_captions_setting()}</option>
          <option value="on">{m.headliner_captions_on()}</option>
          <option value="off">{m.headliner_captions_off()}</option>
        </select>
        {problems.captions && (
          <p className="field-error" id={`${captionsId}-error`} role="alert">
            {problems.captions}
          </p>
        )}
      </div>
      <div>
        <button
          type="button"
          className="button"
          aria-describedby={`${id}-make-hint${problems.form ? ` ${id}-make-error` : ''}`}
          disabled={!online || asking || busy}
          onClick={() => void make()}
        >
          {m.headliner_make()}
        </button>
        <p className="field-hint" id={`${id}-make-hint`}>
          {m.headliner_make_hint()}
        </p>
        {problems.form && (
          <p className="field-error" id={`${id}-make-error`} role="alert">
            {problems.form}
          </p>
        )}
      </div>
      {online && loaded.kind === 'loading' && (
        <p className="muted" role="status">
          {m.headliner_loading()}
        </p>
      )}
      {loaded.kind === 'failed' && (
        <p className="field-error" role="alert">
          {m.headliner_load_failed()}{' '}
          <button type="button" className="button" onClick={() => void load()}>
            {m.headliner_retry()}
          </button>
        </p>
      )}
      {loaded.kind === 'ok' &&
        (loaded.videos.length === 0 ? (
          <p className="muted">{m.headliner_none()}</p>
        ) : (
          <ul className="headliner-list" aria-label={m.headliner_list_label()} aria-busy={busy}>
            {loaded.videos.map((v) => (
              <li key={v.Id}>
                <strong>{RATIO[v.AspectRatio]()}</strong>, {v.TranscriptEnabled ? m.headliner_with_captions() : m.headliner_without_captions()}
                <br />
                <span className={v.State === 'Failed' ? 'field-error' : 'muted'} role="status">
                  {stateText(v)}
                </span>
                {v.State === 'Ready' && v.DownloadUrl && (
                  <>
                    <span className="muted">
                      {' · '}
                      {m.headliner_details({
                        // Frame sizes are written without grouping, as video sizes are (1080×1920).
                        width: String(v.Width),
                        height: String(v.Height),
                        duration: formatDuration(v.DurationSeconds),
                        size: formatFileSize(v.SizeInBytes ?? 0, getLocale()),
                      })}
                    </span>{' '}
                    <button type="button" className="button" aria-label={m.headliner_download_label({ ratio: RATIO[v.AspectRatio]() })} disabled={!online} onClick={() => void download(v)}>
                      {m.headliner_download()}
                    </button>
                  </>
                )}
              </li>
            ))}
          </ul>
        ))}
      {downloadProblem && (
        <p className="field-error" role="alert">
          {downloadProblem}
        </p>
      )}
    </section>
  );
}
