// The results of one search: a section per type on the 'all' tab (its first few, and a way to all
// of them), or one list that loads its next page as it scrolls into view (and on "Load more", for
// the keyboard). One line says who answered: the server or this device, and why the device.
import { useCallback, useEffect, useRef, useState } from 'react';
import { m } from '../../paraglide/messages.js';
import { highlight, parseQuery, searchLanguageOf, type HighlightSegment, type ParsedQuery, type SearchKind, type SearchLanguage } from '../../domain/search.ts';
import { clipLabel, seasonEpisodeLabel } from '../../domain/clip.ts';
import { fieldErrorText } from '../../domain/messages.ts';
import { Link } from '../../lib/router.ts';
import { formatDateTime, recordingStateLabel, visibilityLabel } from '../../lib/labels.ts';
import type { Program, Recording } from '../../protocol/entities.ts';
import { runSearch, SearchError, SERVER_DEADLINE_MS, type Answer, type DeviceReason } from './engines.ts';
import type { Row, SearchHit } from './types.ts';
import { sortOf, type SearchState } from './search-state.ts';
import { snippet } from './snippet.ts';
import { TYPE_LABEL } from './labels.ts';

/** Results per page of one type, and per type on the 'all' tab. */
const PAGE_SIZE = 20;
const ALL_TAB_SIZE = 5;

const SHOW_ALL: Record<SearchKind, () => string> = {
  clip: m.search_show_all_clips,
  program: m.search_show_all_programs,
  playlist: m.search_show_all_playlists,
  recording: m.search_show_all_recordings,
};

type Props = {
  organizationId: string;
  state: SearchState;
  kinds: SearchKind[];
  online: boolean;
  programs: Program[];
  onShowAll: (kind: SearchKind) => void;
};

export function SearchResults({ organizationId, state, kinds, online, programs, onShowAll }: Props) {
  const [sources, setSources] = useState<Partial<Record<SearchKind, Answer>>>({});
  const onAnswer = useCallback((kind: SearchKind, answer: Answer) => setSources((s) => ({ ...s, [kind]: answer })), []);
  const query = parseQuery(state.text);
  const programById = new Map(programs.map((p) => [p.Id, p]));
  const single = kinds.length === 1;
  return (
    <>
      <SourceLine answers={kinds.map((k) => sources[k]).filter((a): a is Answer => a !== undefined)} />
      {/* The 'all' tab shows the types that found something; nothing found anywhere is said once. */}
      {!single && kinds.every((k) => sources[k]?.hits.length === 0) && <p className="empty search-empty">{m.search_no_results()}</p>}
      {kinds.map((kind) => (
        <KindResults
          key={`${kind}:${String(online)}`}
          kind={kind}
          single={single}
          organizationId={organizationId}
          state={state}
          online={online}
          query={query}
          programById={programById}
          onAnswer={onAnswer}
          onShowAll={onShowAll}
        />
      ))}
    </>
  );
}

function reasonText(reason: DeviceReason): string {
  switch (reason.kind) {
    case 'programs': return m.search_source_programs();
    case 'offline': return m.search_source_device_offline();
    case 'slow': return m.search_source_device_slow({ seconds: SERVER_DEADLINE_MS / 1000 });
    case 'unreachable': return m.search_source_device_unreachable();
    case 'status': return m.search_source_device_status({ status: reason.status });
  }
}

/** Who answered: the first reason the device answered for other than programs, else the server. */
function SourceLine({ answers }: { answers: Answer[] }) {
  if (answers.length === 0) return null;
  const device = answers.find((a) => a.source === 'device' && a.reason.kind !== 'programs');
  const text = device?.source === 'device' ? reasonText(device.reason) : answers.some((a) => a.source === 'server') ? m.search_source_server() : m.search_source_programs();
  return (
    <p className={`search-source ${device ? 'search-source-device' : ''}`} role="status" data-source={device ? 'device' : 'server'}>
      {text}
    </p>
  );
}

type KindProps = {
  kind: SearchKind;
  single: boolean;
  organizationId: string;
  state: SearchState;
  online: boolean;
  query: ParsedQuery;
  programById: ReadonlyMap<string, Program>;
  onAnswer: (kind: SearchKind, answer: Answer) => void;
  onShowAll: (kind: SearchKind) => void;
};

function KindResults({ kind, single, organizationId, state, online, query, programById, onAnswer, onShowAll }: KindProps) {
  const [hits, setHits] = useState<SearchHit[]>([]);
  const [next, setNext] = useState<number | null>(1);
  const [loading, setLoading] = useState(false);
  const [error, setError] = useState<unknown>(null);
  const [started, setStarted] = useState(false);
  const current = useRef<AbortController | null>(null);
  const pageSize = single ? PAGE_SIZE : ALL_TAB_SIZE;

  const load = useCallback(
    async (page: number) => {
      // One page at a time; a search that is gone (unmounted, aborted) lets the next one start.
      if (current.current && !current.current.signal.aborted) return;
      const controller = new AbortController();
      current.current = controller;
      setLoading(true);
      setError(null);
      try {
        const answer = await runSearch(
          organizationId,
          {
            kind,
            text: state.text,
            fields: state.fields,
            visibility: state.visibility,
            programId: state.programId,
            from: state.from,
            to: state.to,
            sort: sortOf(state),
            page,
            pageSize,
            timeZone: Intl.DateTimeFormat().resolvedOptions().timeZone,
          },
          { online, signal: controller.signal },
        );
        if (controller.signal.aborted) return;
        setHits((h) => (page === 1 ? answer.hits : [...h, ...answer.hits]));
        setNext(answer.hasNext ? page + 1 : null);
        onAnswer(kind, answer);
      } catch (e) {
        if (!controller.signal.aborted) setError(e);
      } finally {
        if (current.current === controller) {
          current.current = null;
          setLoading(false);
          setStarted(true);
        }
      }
    },
    [organizationId, kind, state, online, pageSize, onAnswer],
  );

  useEffect(() => {
    void load(1);
    return () => {
      current.current?.abort();
      current.current = null;
    };
  }, [load]);

  // Endless scroll: the next page loads when the end of the list comes into view.
  const end = useRef<HTMLDivElement>(null);
  useEffect(() => {
    const el = end.current;
    if (!single || !el || next === null || next === 1 || typeof IntersectionObserver === 'undefined') return;
    const observer = new IntersectionObserver((seen) => {
      if (seen.some((s) => s.isIntersecting)) void load(next);
    }, { rootMargin: '400px 0px' });
    observer.observe(el);
    return () => observer.disconnect();
  }, [single, next, load, hits.length]);

  if (!single && started && hits.length === 0 && error === null && !loading) return null;
  const title = TYPE_LABEL[kind]();
  const headingId = `results-${kind}`;
  const body = (
    <>
      {error !== null && <SearchErrorAlert error={error} onRetry={() => void load(next ?? 1)} />}
      {started && hits.length === 0 && error === null && !loading && <p className="empty search-empty">{m.search_no_results()}</p>}
      {hits.length > 0 && (
        <ul className="search-results" aria-labelledby={headingId}>
          {hits.map((hit) => (
            <li key={`${hit.kind}:${hit.row.Id}`}>
              <HitRow hit={hit} organizationId={organizationId} query={query} programById={programById} />
            </li>
          ))}
        </ul>
      )}
      {loading && <p className="muted search-loading" role="status">{m.search_loading()}</p>}
      {!loading && next !== null && next > 1 && error === null && (
        single ? (
          <div ref={end} className="search-more">
            <button type="button" className="button" onClick={() => void load(next)}>{m.search_load_more()}</button>
          </div>
        ) : (
          <div className="search-more">
            <button type="button" className="button small" onClick={() => onShowAll(kind)}>{SHOW_ALL[kind]()}</button>
          </div>
        )
      )}
    </>
  );
  return (
    <section className="search-section" aria-labelledby={headingId}>
      <h2 id={headingId} className={single ? 'visually-hidden' : 'search-section-title'}>{title}</h2>
      {body}
    </section>
  );
}

function SearchErrorAlert({ error, onRetry }: { error: unknown; onRetry: () => void }) {
  const fields = error instanceof SearchError && error.body ? error.body.Errors : null;
  return (
    <div className="alert alert-danger" role="alert">
      {fields ? (
        <ul className="search-error-list">
          {fields.map((f) => (
            <li key={`${f.Field}:${f.Code}`}>{m.search_error_field({ field: f.Field, message: fieldErrorText(f) })}</li>
          ))}
        </ul>
      ) : (
        <p>{m.search_error_device({ message: error instanceof Error ? (error.cause instanceof Error ? error.cause.message : error.message) : String(error) })}</p>
      )}
      {!fields && (
        <button type="button" className="button small" onClick={onRetry}>{m.search_retry()}</button>
      )}
    </div>
  );
}

function Marked({ segments }: { segments: readonly HighlightSegment[] }) {
  return (
    <>
      {segments.map((s, i) => (s.match ? <mark key={i}>{s.text}</mark> : <span key={i}>{s.text}</span>))}
    </>
  );
}

const str = (v: unknown): string | null => (typeof v === 'string' && v.trim() !== '' ? v : null);

function hitLink(organizationId: string, hit: SearchHit): string {
  const programPath = `/${organizationId}/programs/${hit.kind === 'program' ? hit.row.Id : String(hit.row['ProgramId'])}`;
  switch (hit.kind) {
    case 'program': return programPath;
    case 'clip': return `${programPath}/clips/${hit.row.Id}`;
    case 'playlist': return `${programPath}/playlists/${hit.row.Id}`;
    case 'recording': return `${programPath}/recordings/${hit.row.Id}`;
  }
}

function hitTitle(hit: SearchHit): string {
  const row = hit.row;
  switch (hit.kind) {
    case 'program': return str(row['Name']) ?? row.Id;
    case 'clip': return clipLabel({ Title: str(row['Title']) });
    case 'playlist': return str(row['Title']) ?? row.Id;
    case 'recording': return str(row['Title']) ?? (str(row['CaptureStartUtc']) ? formatDateTime(String(row['CaptureStartUtc'])) : row.Id);
  }
}

/** The text a result shows under its title: the description, else (a recording) nothing. */
function hitBody(row: Row): string | null {
  return str(row['Description']);
}

function HitRow({ hit, organizationId, query, programById }: { hit: SearchHit; organizationId: string; query: ParsedQuery; programById: ReadonlyMap<string, Program> }) {
  const row = hit.row;
  const program = programById.get(hit.kind === 'program' ? row.Id : String(row['ProgramId']));
  const language: SearchLanguage = searchLanguageOf(program?.Language ?? null);
  const title = hitTitle(hit);
  const body = hitBody(row);
  const tags = hit.kind === 'clip' && Array.isArray(row['Tags']) ? (row['Tags'] as unknown[]).filter((t): t is string => typeof t === 'string') : [];
  const se = hit.kind === 'clip' ? seasonEpisodeLabel({ Season: typeof row['Season'] === 'number' ? row['Season'] : null, Episode: typeof row['Episode'] === 'number' ? row['Episode'] : null }) : null;
  const created = str(row['CreatedAtUtc']);
  return (
    <Link href={hitLink(organizationId, hit)} className="search-hit">
      <span className="search-hit-title"><Marked segments={highlight(title, query, language)} /></span>
      <span className="search-hit-meta">
        {hit.kind !== 'program' && program && <span>{program.Name}</span>}
        {se && <span>{se}</span>}
        {(hit.kind === 'clip' || hit.kind === 'playlist') && <span>{visibilityLabel(str(row['Visibility']))}</span>}
        {hit.kind === 'recording' && <span>{recordingStateLabel(row as unknown as Recording)}</span>}
        {created && hit.kind !== 'program' && <span>{formatDateTime(created)}</span>}
      </span>
      {body && <span className="search-hit-body"><Marked segments={snippet(highlight(body, query, language))} /></span>}
      {tags.length > 0 && (
        <span className="search-hit-tags">
          {tags.map((t) => (
            <span key={t} className="search-tag"><Marked segments={highlight(t, query, language)} /></span>
          ))}
        </span>
      )}
    </Link>
  );
}
