// /{organizationId}/imports — bring a podcast from another host: its feed's URL, or the feed's XML
// file, becomes a program with its playlist and a clip per episode (the server's import jobs do
// the work). The list shows each import's progress and every episode that failed, with its
// reason; while any is Busy it is polled as a long operation (section 4: every 1500 ms, at most
// 90 s). Imports need the network: offline, the screen says so and asks nothing of the server.
import { useCallback, useEffect, useRef, useState, type FormEvent } from 'react';
import { m } from '../../paraglide/messages.js';
import { pollOperation, type OperationStatus } from '../../domain/polling.ts';
import { ImportErrorCode, type ImportEpisodeState } from '../../domain/imports.ts';
import { fieldErrorText } from '../../domain/messages.ts';
import { JSON_BODY_LIMIT_BYTES } from '../../protocol/errors.ts';
import * as routes from '../../protocol/api/imports.ts';
import type { Import, ImportEpisode } from '../../protocol/api/imports.ts';
import { call } from '../../lib/api.ts';
import { useOnline } from '../../lib/connectivity.ts';
import { formatDateTime } from '../../lib/labels.ts';
import { Link, useParams } from '../../lib/router.ts';
import { showToast } from '../../lib/toast.ts';
import { Field } from '../../ui/Field.tsx';
import { PageHeader } from '../../ui/PageHeader.tsx';

/** The feed file as JSON must fit the server's body limit (with room for the JSON around it). */
const FILE_MAX_BYTES = JSON_BODY_LIMIT_BYTES - 64 * 1024;

const ERROR_TEXT: Record<string, () => string> = {
  [ImportErrorCode.RefusedTarget]: () => m.imports_error_refused(),
  [ImportErrorCode.HttpStatus]: () => m.imports_error_http(),
  [ImportErrorCode.Timeout]: () => m.imports_error_timeout(),
  [ImportErrorCode.Unreachable]: () => m.imports_error_unreachable(),
  [ImportErrorCode.TooLarge]: () => m.imports_error_too_large(),
  [ImportErrorCode.TooManyRedirects]: () => m.imports_error_redirects(),
  [ImportErrorCode.FeedUnreadable]: () => m.imports_error_unreadable(),
  [ImportErrorCode.FeedLocked]: () => m.imports_error_locked(),
  [ImportErrorCode.TooManyEpisodes]: () => m.imports_error_too_many(),
  [ImportErrorCode.NoAudio]: () => m.imports_error_no_audio(),
  [ImportErrorCode.AudioProcessing]: () => m.imports_error_processing(),
  [ImportErrorCode.NotAllowed]: () => m.imports_error_not_allowed(),
};
const errorText = (code: string | null) => (code ? ERROR_TEXT[code] : undefined)?.() ?? m.imports_error_failed();

const STATUS_TEXT: Record<OperationStatus, () => string> = {
  Busy: () => m.imports_status_busy(),
  Failed: () => m.imports_status_failed(),
  Success: () => m.imports_status_success(),
};

const EPISODE_TEXT: Record<ImportEpisodeState, () => string> = {
  Queued: () => m.imports_episode_queued(),
  Fetching: () => m.imports_episode_fetching(),
  Processing: () => m.imports_episode_processing(),
  Done: () => m.imports_episode_done(),
  Failed: () => m.imports_episode_failed(),
};

type ListState = { kind: 'loading' } | { kind: 'failed' } | { kind: 'ready'; items: Import[] };

export function ImportsScreen() {
  const online = useOnline();
  const { organizationId } = useParams<{ organizationId: string }>();
  const [list, setList] = useState<ListState>({ kind: 'loading' });
  const [pollTimedOut, setPollTimedOut] = useState(false);
  const [pollRun, setPollRun] = useState(0);
  const alive = useRef(true);
  useEffect(() => {
    alive.current = true;
    return () => {
      alive.current = false;
    };
  }, []);

  const load = useCallback(async (): Promise<Import[] | null> => {
    const res = await call(routes.listImports, { query: { pageSize: '50' } });
    if (!alive.current) return null;
    if (res.kind !== 'ok') {
      setList((l) => (l.kind === 'ready' ? l : { kind: 'failed' }));
      return null;
    }
    setList({ kind: 'ready', items: res.data.Items });
    return res.data.Items;
  }, []);

  // The list, and while any import is Busy, the long-operation polling of section 4.
  useEffect(() => {
    if (!online) return;
    let stopped = false;
    const clock = {
      now: () => Date.now(),
      sleep: (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms)),
    };
    const asOperation = (items: Import[] | null) => ({ Id: 'imports', Status: (items?.some((i) => i.Status === 'Busy') ? 'Busy' : 'Success') as OperationStatus });
    void (async () => {
      const first = asOperation(await load());
      if (stopped || first.Status !== 'Busy') return;
      setPollTimedOut(false);
      const outcome = await pollOperation(first, {
        clock,
        isTransient: () => true,
        fetch: async () => {
          if (stopped) throw new Error('left the screen');
          const items = await load();
          if (items === null) throw new Error('imports not loaded');
          return asOperation(items);
        },
      });
      if (!stopped && outcome.status === 'timedOut') setPollTimedOut(true);
    })();
    return () => {
      stopped = true;
    };
  }, [online, load, pollRun]);

  const retry = async (id: string) => {
    const res = await call(routes.retryImport, { json: { ImportId: id } });
    if (res.kind === 'ok') setPollRun((n) => n + 1);
    else showToast({ type: 'danger', title: m.imports_error_failed() });
  };

  return (
    <>
      <PageHeader title={m.imports_title()} />
      <p>{m.imports_intro()}</p>
      {!online ? (
        <p className="alert alert-info" role="status">
          {m.imports_offline()}
        </p>
      ) : (
        <StartImport onStarted={() => setPollRun((n) => n + 1)} />
      )}
      <section className="card" aria-labelledby="imports-list-title">
        <h2 id="imports-list-title">{m.imports_list_title()}</h2>
        {pollTimedOut && <p className="muted" role="status">{m.imports_poll_timeout()}</p>}
        {online && list.kind === 'loading' && <p className="muted">{m.imports_loading()}</p>}
        {online && list.kind === 'failed' && <p className="alert alert-danger">{m.imports_load_failed()}</p>}
        {list.kind === 'ready' && list.items.length === 0 && <p className="empty">{m.imports_none()}</p>}
        {list.kind === 'ready' && list.items.length > 0 && (
          <ul className="imports-list">
            {list.items.map((item) => (
              <ImportItem key={item.Id} item={item} organizationId={organizationId} online={online} onRetry={() => void retry(item.Id)} />
            ))}
          </ul>
        )}
      </section>
    </>
  );
}

function StartImport({ onStarted }: { onStarted: () => void }) {
  const [url, setUrl] = useState('');
  const [file, setFile] = useState<File | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const fileInput = useRef<HTMLInputElement>(null);

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    setError(null);
    let json: { FeedUrl: string } | { FeedXml: string };
    if (file) {
      if (file.size > FILE_MAX_BYTES) return setError(m.imports_file_too_large({ max: Math.floor(FILE_MAX_BYTES / 1024 / 1024) }));
      json = { FeedXml: await file.text() };
    } else if (url.trim()) {
      json = { FeedUrl: url.trim() };
    } else {
      return setError(m.imports_need_source());
    }
    setBusy(true);
    const res = await call(routes.startImport, { json });
    setBusy(false);
    if (res.kind === 'ok') {
      setUrl('');
      setFile(null);
      if (fileInput.current) fileInput.current.value = '';
      onStarted();
      return;
    }
    if (res.kind === 'badRequest') {
      const first = res.body.Errors[0];
      return setError(first?.Code === 'urlInvalid' ? m.imports_error_refused() : first?.Code === ImportErrorCode.FeedUnreadable ? m.imports_error_unreadable() : first ? fieldErrorText(first) : m.imports_error_failed());
    }
    if (res.kind === 'status' && res.status === 403) return setError(m.imports_not_allowed());
    setError(res.kind === 'error' ? m.imports_offline() : m.imports_error_failed());
  };

  return (
    <form className="card form" onSubmit={(e) => void submit(e)} aria-labelledby="imports-start-title">
      <h2 id="imports-start-title">{m.imports_start_title()}</h2>
      <Field label={m.imports_url_label()} hint={m.imports_url_hint()}>
        <input type="url" inputMode="url" value={url} disabled={busy || file !== null} placeholder="https://" onChange={(e) => setUrl(e.target.value)} />
      </Field>
      <Field label={m.imports_file_label()}>
        <input ref={fileInput} type="file" accept=".xml,.rss,application/rss+xml,application/xml,text/xml" disabled={busy} onChange={(e) => setFile(e.target.files?.[0] ?? null)} />
      </Field>
      {error && (
        <p className="alert alert-danger" role="alert">
          {error}
        </p>
      )}
      <div className="form-actions">
        <button type="submit" className="button primary" disabled={busy}>
          {busy ? m.imports_starting() : m.imports_start()}
        </button>
      </div>
    </form>
  );
}

function ImportItem({ item, organizationId, online, onRetry }: { item: Import; organizationId: string | undefined; online: boolean; onRetry: () => void }) {
  const failed = item.Episodes.filter((e) => e.State === 'Failed');
  return (
    <li className="import-item" aria-busy={item.Status === 'Busy'}>
      <div className="import-head">
        <strong>{item.Title ?? item.FeedUrl ?? m.imports_source_file()}</strong> · <span className={`status status-${item.Status.toLowerCase()}`}>{STATUS_TEXT[item.Status]()}</span>
      </div>
      <p className="muted">
        {item.Source === 'Xml' ? m.imports_source_file() : item.FeedUrl} · {m.imports_started_by({ name: item.CreatedByName ?? '—', when: formatDateTime(item.CreatedAtUtc) })}
      </p>
      <p>
        <progress max={Math.max(1, item.Counts.Episodes)} value={item.Counts.Done + item.Counts.Failed} aria-label={m.imports_progress_label()} />{' '}
        {m.imports_counts({ done: item.Counts.Done, total: item.Counts.Episodes, failed: item.Counts.Failed })}
      </p>
      {item.ErrorCode && (
        <p className="alert alert-danger">
          {errorText(item.ErrorCode)} {item.Reason && <span className="muted">({item.Reason})</span>}
        </p>
      )}
      {failed.length > 0 && (
        <details open>
          <summary>{m.imports_failed_episodes({ count: failed.length })}</summary>
          <ul>
            {failed.map((e) => (
              <EpisodeLine key={e.Guid} episode={e} />
            ))}
          </ul>
        </details>
      )}
      {item.Status === 'Busy' && item.Episodes.length > 0 && (
        <details>
          <summary>{m.imports_episodes()}</summary>
          <ul>
            {item.Episodes.map((e) => (
              <EpisodeLine key={e.Guid} episode={e} />
            ))}
          </ul>
        </details>
      )}
      <div className="import-actions">
        {item.ProgramId && organizationId && <Link href={`/${organizationId}/programs/${item.ProgramId}`}>{m.imports_open_program()}</Link>}
        {item.Status === 'Failed' && online && (
          <button type="button" className="button" onClick={onRetry}>
            {m.imports_retry()}
          </button>
        )}
      </div>
    </li>
  );
}

function EpisodeLine({ episode }: { episode: ImportEpisode }) {
  return (
    <li>
      {episode.Title ?? episode.Guid}: {EPISODE_TEXT[episode.State]()}
      {episode.State === 'Failed' && (
        <>
          {' '}
          — {errorText(episode.ErrorCode)} {episode.Reason && <span className="muted">({episode.Reason})</span>}
        </>
      )}
    </li>
  );
}
