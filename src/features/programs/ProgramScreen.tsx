// /{organizationId}/programs/{programId} — its clips (a virtualised list that stays smooth at
// 10,000 rows), playlists and recordings, as tabs, each filtered and sorted on the device as the
// user types (src/domain/list-filter.ts; the query lives in the URL, shared by the tabs).
import { lazy, memo, Suspense, useDeferredValue, useEffect, useLayoutEffect, useMemo, useRef, useState } from 'react';
import { useWindowVirtualizer } from '@tanstack/react-virtual';
import { clipLabel, seasonEpisodeLabel, clipStateDisplay, CLIP_STATE_LABEL } from '../../domain/clip.ts';
import { domainMessage } from '../../domain/messages.ts';
import { m } from '../../paraglide/messages.js';
import { useLiveQuery } from 'dexie-react-hooks';
import { db } from '../../db/db.ts';
import { asClip, asPlaylist, asProgram, asRecording, hasSynced, live, useRow } from '../../lib/rows.ts';
import { Link, navigate, useSearch } from '../../lib/router.ts';
import { usePlanIncludes, useProgramFlags } from '../../lib/session.ts';
import { useIdParams } from '../../lib/params.ts';
import { PageHeader } from '../../ui/PageHeader.tsx';
import { NotFoundPage } from '../../ui/ErrorPage.tsx';
import { clipCountLabel, visibilityLabel, recordingStateLabel } from '../../lib/labels.ts';
import { getLocale, type Locale } from '../../lib/i18n.ts';
import type { Clip } from '../../protocol/entities.ts';
import { applyListQuery, isFiltered, prepareClips, preparePlaylists, prepareRecordings, readListQuery, writeListQuery, type ListQuery, type Prepared } from '../../domain/list-filter.ts';
import { useListPlace, useRestoredPlace, type ListPlaceHandle } from './listPlace.ts';
import { ListToolbar } from './ListToolbar.tsx';

type TabId = 'clips' | 'playlists' | 'recordings';

/** The screen's query: the tab (clips when absent) and the lists' filter and order, so Back and links keep them. */
function programSearch(tab: TabId, query: ListQuery): string {
  const params = new URLSearchParams();
  if (tab !== 'clips') params.set('tab', tab);
  writeListQuery(params, query);
  const search = params.toString();
  return search ? `?${search}` : '';
}

const sameQuery = (a: ListQuery, b: ListQuery) => a.text === b.text && a.state === b.state && a.publish === b.publish && a.visibility === b.visibility && a.sort === b.sort;

/**
 * The lists' query: the input's own state, mirrored to the URL, so typing never waits on the URL;
 * a URL changed by other means (the place restored by listPlace.ts, a link) is taken up.
 */
function useListQuery(search: string, write: (query: ListQuery) => void): [ListQuery, (query: ListQuery) => void] {
  const fromUrl = useMemo(() => readListQuery(new URLSearchParams(search)), [search]);
  const [query, setQuery] = useState(fromUrl);
  const written = useRef(fromUrl);
  if (!sameQuery(fromUrl, written.current)) {
    written.current = fromUrl;
    if (!sameQuery(fromUrl, query)) setQuery(fromUrl);
  }
  const change = (next: ListQuery) => {
    written.current = next;
    setQuery(next);
    write(next);
  };
  return [query, change];
}

const NewClipDialog = lazy(() => import('./NewClipDialog.tsx').then((mod) => ({ default: mod.NewClipDialog })));

export function ProgramScreen() {
  const { organizationId, programId } = useIdParams('organizationId', 'programId');
  const program = useRow('programs', programId);
  const query = useSearch();
  const search = new URLSearchParams(query);
  const base = `/${organizationId}/programs/${programId}`;
  const place = useListPlace(base, query);
  const flags = useProgramFlags(organizationId, program.state === 'ok' ? asProgram(program.row) : null);
  // Clips, playlists and recordings are content: without content access on this program the
  // tabs say so instead of looking empty, and nothing offers to create a clip (section 6).
  const content = flags?.HasContentAccess ?? false;
  // Section 6: analytics needs the plan's playlist-download-analytics too.
  const planAnalytics = usePlanIncludes(organizationId, 'playlist-download-analytics');
  const tab: TabId = search.get('tab') === 'playlists' ? 'playlists' : search.get('tab') === 'recordings' ? 'recordings' : 'clips';
  // Replacing the entry keeps its state: the saved scroll place lives there (listPlace.ts).
  const replaceSearch = (id: TabId, q: ListQuery) => navigate(base + programSearch(id, q), { replace: true, state: history.state });
  const [listQuery, setListQuery] = useListQuery(query, (q) => replaceSearch(tab, q));
  if (program.state === 'missing') return <NotFoundPage kind="program" />;
  if (program.state === 'loading') return <p className="muted">{m.app_loading()}</p>;
  const p = asProgram(program.row);
  // The query outlives a look at another tab; what does not apply there is ignored there.
  const select = (id: TabId) => replaceSearch(id, listQuery);
  return (
    <>
      <PageHeader
        title={p.Name}
        documentTitle={[p.Name, m.app_programs_title()]}
        link={<Link href={`/${organizationId}/programs`}>{m.app_programs_title()}</Link>}
        actions={
          <>
            <Link href={`${base}/settings`} className="button">{m.structure_program_settings()}</Link>
            {flags?.HasAnalyticsAccess && planAnalytics && <Link href={`${base}/analytics`} className="button">{m.analytics_tab()}</Link>}
            {content && <NewClipButton programId={programId} base={base} />}
          </>
        }
        tabs={[
          { id: 'clips', label: m.app_program_clips(), selected: tab === 'clips', onSelect: () => select('clips') },
          { id: 'playlists', label: m.app_program_playlists(), selected: tab === 'playlists', onSelect: () => select('playlists') },
          { id: 'recordings', label: m.app_program_recordings(), selected: tab === 'recordings', onSelect: () => select('recordings') },
        ]}
      />
      <div role="tabpanel" id={`panel-${tab}`} aria-labelledby={`tab-${tab}`}>
        {flags && !content ? (
          <p className="empty">{m.app_program_no_content_access()}</p>
        ) : (
          <>
            {tab === 'clips' && <ClipList programId={programId} base={base} place={place} query={listQuery} onQuery={setListQuery} />}
            {tab === 'playlists' && <PlaylistList programId={programId} base={base} place={place} query={listQuery} onQuery={setListQuery} />}
            {tab === 'recordings' && <RecordingList programId={programId} base={base} place={place} query={listQuery} onQuery={setListQuery} />}
          </>
        )}
      </div>
    </>
  );
}

function NewClipButton({ programId, base }: { programId: string; base: string }) {
  const [open, setOpen] = useState(false);
  return (
    <>
      <button type="button" className="button primary" onClick={() => setOpen(true)}>
        {m.app_program_new_clip()}
      </button>
      {open && (
        <Suspense fallback={null}>
          <NewClipDialog open programId={programId} onClose={() => setOpen(false)} onCreated={(id) => navigate(`${base}/clips/${id}`)} />
        </Suspense>
      )}
    </>
  );
}

/** A row's usual height; rows with a title on two lines (phones) are measured as they render. */
const ROW_HEIGHT = 64;

type ListProps = { programId: string; base: string; place: ListPlaceHandle; query: ListQuery; onQuery: (query: ListQuery) => void };

/**
 * The rows a list shows: each row's text is folded once per change of the rows (and language), and
 * each keystroke only filters and sorts those. The deferred query keeps the box responsive while a
 * long list (10,000 clips) re-renders.
 */
function useShown<T extends { Id: string }>(rows: T[] | undefined, prepare: (rows: T[], locale: Locale) => readonly Prepared<T>[], query: ListQuery, kind: 'clips' | 'playlists' | 'recordings'): T[] {
  const locale = getLocale();
  const prepared = useMemo(() => prepare(rows ?? [], locale), [rows, prepare, locale]);
  const deferred = useDeferredValue(query);
  return useMemo(() => applyListQuery(prepared, deferred, kind, locale), [prepared, deferred, kind, locale]);
}


function ClipList({ programId, base, place, query, onQuery }: ListProps) {
  const clips = useLiveQuery(async () => live((await db.clips.where('ProgramId').equals(programId).toArray()).map(asClip)), [programId]);
  const shown = useShown(clips, prepareClips, query, 'clips');
  // The page scrolls, not a box inside it: the list is as tall as its rows and only the rows in
  // view are in the DOM. scrollMargin is where the list starts on the page.
  const listRef = useRef<HTMLDivElement>(null);
  const [margin, setMargin] = useState(0);
  // After every render (what is above the list changes height as it loads); a move under 1 px keeps
  // the same state, so it settles after one more render.
  // eslint-disable-next-line react-hooks/exhaustive-deps -- no dependency list on purpose
  useLayoutEffect(() => {
    const top = listRef.current ? listRef.current.getBoundingClientRect().top + window.scrollY : 0;
    setMargin((m) => (Math.abs(m - top) < 1 ? m : top));
  });
  // useFlushSync off: rows render in React's normal batch instead of synchronously inside every
  // scroll event, which keeps frames short at 10,000 rows.
  const virtualizer = useWindowVirtualizer({ count: shown.length, estimateSize: () => ROW_HEIGHT, overscan: 8, scrollMargin: margin, useFlushSync: false, getItemKey: (i) => shown[i]?.Id ?? i });
  // The place's anchor is the row at the top of the view; restoring puts that row back there.
  // Rows above it have only their estimated height until they render, so the restored scrollY
  // may differ from the saved one while the same rows are in view.
  const shownRef = useRef(shown);
  shownRef.current = shown;
  const { anchorAt } = place;
  useEffect(() => {
    anchorAt.current = (scrollY) => {
      const row = virtualizer.getVirtualItemForOffset(scrollY);
      return row && row.start <= scrollY ? { anchorKey: String(row.key), anchorOffset: scrollY - row.start } : null;
    };
    return () => void (anchorAt.current = null);
  }, [anchorAt, virtualizer]);
  useRestoredPlace(place, clips !== undefined, (p) => {
    const index = p.anchorKey === null ? -1 : shownRef.current.findIndex((c) => c.Id === p.anchorKey);
    const start = index < 0 ? undefined : virtualizer.getOffsetForIndex(index, 'start')?.[0];
    return start === undefined ? p.scrollY : start + p.anchorOffset;
  });
  return (
    <>
      <ListToolbar kind="clips" label={m.app_program_filter()} query={query} onChange={onQuery} count={clipCountLabel(shown.length)} />
      {clips !== undefined && shown.length === 0 ? (
        <p className="empty">{isFiltered(query, 'clips') ? m.app_program_no_clips() : m.app_program_no_clips_yet()}</p>
      ) : (
        <div ref={listRef} className="virtual-list" data-testid="clip-list">
          <ul style={{ height: `${virtualizer.getTotalSize()}px` }} aria-label={m.app_program_clips()}>
            {virtualizer.getVirtualItems().map((v) => {
              const c = shown[v.index];
              if (!c) return null;
              return (
                <li
                  key={c.Id}
                  ref={virtualizer.measureElement}
                  data-index={v.index}
                  className="virtual-row"
                  style={{ transform: `translateY(${v.start - virtualizer.options.scrollMargin}px)` }}
                  aria-setsize={shown.length}
                  aria-posinset={v.index + 1}
                >
                  <ClipRow clip={c} href={`${base}/clips/${c.Id}`} />
                </li>
              );
            })}
          </ul>
        </div>
      )}
    </>
  );
}

const ClipRow = memo(function ClipRow({ clip, href }: { clip: Clip; href: string }) {
  const se = seasonEpisodeLabel(clip);
  const state = clipStateDisplay(clip.State);
  return (
    <Link href={href} className="row-link">
      <span className="row-main">
        <span className="row-title">{clipLabel(clip)}</span>
        <span className="row-meta">
          {se && <span>{se}</span>}
          <span>{visibilityLabel(clip.Visibility)}</span>
        </span>
      </span>
      {state && <span className={`pill pill-${state}`}>{domainMessage(CLIP_STATE_LABEL[state])}</span>}
    </Link>
  );
});

function PlaylistList({ programId, base, place, query, onQuery }: ListProps) {
  const playlists = useLiveQuery(async () => live((await db.playlists.where('ProgramId').equals(programId).toArray()).map(asPlaylist)), [programId]);
  const shown = useShown(playlists, preparePlaylists, query, 'playlists');
  // A playlist's ClipIds keep a clip deleted after it was added; the count is of the clips the
  // playlist screen lists (the program's clip keys, no rows read), once the store has synced.
  const liveClips = useLiveQuery(async () => ((await hasSynced()) ? new Set((await db.clips.where('ProgramId').equals(programId).primaryKeys()) as string[]) : null), [programId]);
  useRestoredPlace(place, playlists !== undefined);
  if (playlists === undefined) return <p className="muted">{m.app_loading()}</p>;
  return (
    <>
      <ListToolbar kind="playlists" label={m.search_list_filter_playlists()} query={query} onChange={onQuery} count={m.search_list_playlist_count({ count: shown.length })}>
        {/* A new playlist is made on its own screen (src/features/playlists), offline too. */}
        <Link href={`${base}/playlists/new`} className="button">{m.playlists_new()}</Link>
      </ListToolbar>
      {shown.length === 0 ? (
        <p className="empty">{playlists.length > 0 ? m.search_list_no_playlists() : m.app_program_no_playlists()}</p>
      ) : (
        <ul className="card-list">
          {shown.map((p) => (
            <li key={p.Id}>
              <Link href={`${base}/playlists/${p.Id}`} className="card-link">
                <span className="card-title">{p.Title}</span>
                <span className="muted">{clipCountLabel(liveClips ? p.ClipIds.filter((id) => liveClips.has(id)).length : p.ClipIds.length)}</span>
                <span className="pill">{visibilityLabel(p.Visibility)}</span>
              </Link>
            </li>
          ))}
        </ul>
      )}
    </>
  );
}

function RecordingList({ programId, base, place, query, onQuery }: ListProps) {
  const recordings = useLiveQuery(async () => live((await db.recordings.where('ProgramId').equals(programId).toArray()).map(asRecording)), [programId]);
  const shown = useShown(recordings, prepareRecordings, query, 'recordings');
  useRestoredPlace(place, recordings !== undefined);
  if (recordings === undefined) return <p className="muted">{m.app_loading()}</p>;
  if (recordings.length === 0) return <p className="empty">{m.app_program_no_recordings()}</p>;
  return (
    <>
      <ListToolbar kind="recordings" label={m.search_list_filter_recordings()} query={query} onChange={onQuery} count={m.search_list_recording_count({ count: shown.length })} />
      {shown.length === 0 ? (
        <p className="empty">{m.search_list_no_recordings()}</p>
      ) : (
        <ul className="card-list">
          {shown.map((r) => (
            <li key={r.Id}>
              <Link href={`${base}/recordings/${r.Id}`} className="card-link">
                <span className="card-title">{r.Title ?? r.CaptureStartUtc ?? r.Id}</span>
                <span className="pill">{recordingStateLabel(r)}</span>
              </Link>
            </li>
          ))}
        </ul>
      )}
    </>
  );
}
