// /{organizationId}/programs/{programId} — its clips (a virtualised list that stays smooth at
// 10,000 rows), playlists and recordings, as tabs.
import { lazy, memo, Suspense, useEffect, useLayoutEffect, useMemo, useRef, useState } from 'react';
import { useWindowVirtualizer } from '@tanstack/react-virtual';
import { clipLabel, seasonEpisodeLabel, clipStateDisplay, CLIP_STATE_LABEL } from '../../domain/clip.ts';
import { domainMessage } from '../../domain/messages.ts';
import { m } from '../../paraglide/messages.js';
import { useLiveQuery } from 'dexie-react-hooks';
import { db } from '../../db/db.ts';
import { asClip, asPlaylist, asProgram, asRecording, hasSynced, live, useRow } from '../../lib/rows.ts';
import { Link, navigate, useSearch } from '../../lib/router.ts';
import { useProgramFlags } from '../../lib/session.ts';
import { useIdParams } from '../../lib/params.ts';
import { PageHeader } from '../../ui/PageHeader.tsx';
import { NotFoundPage } from '../../ui/ErrorPage.tsx';
import { clipCountLabel, visibilityLabel, recordingStateLabel } from '../../lib/labels.ts';
import type { Clip } from '../../protocol/entities.ts';
import { useListPlace, useRestoredPlace, type ListPlaceHandle } from './listPlace.ts';

type TabId = 'clips' | 'playlists' | 'recordings';

/** The screen's query: the tab (clips when absent) and the clip filter, so Back and links keep them. */
function programSearch(tab: TabId, filter: string): string {
  const params = new URLSearchParams();
  if (tab !== 'clips') params.set('tab', tab);
  if (filter) params.set('q', filter);
  const query = params.toString();
  return query ? `?${query}` : '';
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
  const tab: TabId = search.get('tab') === 'playlists' ? 'playlists' : search.get('tab') === 'recordings' ? 'recordings' : 'clips';
  const filter = search.get('q') ?? '';
  if (program.state === 'missing') return <NotFoundPage kind="program" />;
  if (program.state === 'loading') return <p className="muted">{m.app_loading()}</p>;
  const p = asProgram(program.row);
  // Replacing the entry keeps its state: the saved scroll place lives there (listPlace.ts).
  const replaceSearch = (id: TabId, f: string) => navigate(base + programSearch(id, f), { replace: true, state: history.state });
  const select = (id: TabId) => replaceSearch(id, filter);
  return (
    <>
      <PageHeader
        title={p.Name}
        link={<Link href={`/${organizationId}/programs`}>{m.app_programs_title()}</Link>}
        actions={
          <>
            <Link href={`${base}/settings`} className="button">{m.structure_program_settings()}</Link>
            {flags?.HasAnalyticsAccess && <Link href={`${base}/analytics`} className="button">{m.analytics_tab()}</Link>}
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
            {tab === 'clips' && <ClipList programId={programId} base={base} place={place} initialFilter={filter} onFilter={(f) => replaceSearch('clips', f)} />}
            {tab === 'playlists' && <PlaylistList programId={programId} base={base} place={place} />}
            {tab === 'recordings' && <RecordingList programId={programId} base={base} place={place} />}
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

type ClipListProps = { programId: string; base: string; place: ListPlaceHandle; initialFilter: string; onFilter: (filter: string) => void };

function ClipList({ programId, base, place, initialFilter, onFilter }: ClipListProps) {
  const clips = useLiveQuery(async () => live((await db.clips.where('ProgramId').equals(programId).toArray()).map(asClip)).sort((a, b) => b.CreatedAtUtc.localeCompare(a.CreatedAtUtc) || a.Id.localeCompare(b.Id)), [programId]);
  // The input's own state, mirrored to the URL: the URL is read once, so typing never waits on it.
  const [filter, setFilter] = useState(initialFilter);
  const shown = useMemo(() => {
    const f = filter.trim().toLowerCase();
    return f ? (clips ?? []).filter((c) => (c.Title ?? '').toLowerCase().includes(f)) : (clips ?? []);
  }, [clips, filter]);
  // The page scrolls, not a box inside it: the list is as tall as its rows and only the rows in
  // view are in the DOM. scrollMargin is where the list starts on the page.
  const listRef = useRef<HTMLDivElement>(null);
  const [margin, setMargin] = useState(0);
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
      <div className="toolbar">
        <label className="visually-hidden" htmlFor="clip-filter">{m.app_program_filter()}</label>
        <input
          id="clip-filter"
          type="search"
          placeholder={m.app_program_filter()}
          value={filter}
          onChange={(e) => {
            setFilter(e.target.value);
            onFilter(e.target.value);
          }}
        />
        <span className="muted" aria-live="polite">{clipCountLabel(shown.length)}</span>
      </div>
      {clips !== undefined && shown.length === 0 ? (
        <p className="empty">{filter.trim() ? m.app_program_no_clips() : m.app_program_no_clips_yet()}</p>
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

function PlaylistList({ programId, base, place }: { programId: string; base: string; place: ListPlaceHandle }) {
  const playlists = useLiveQuery(async () => live((await db.playlists.where('ProgramId').equals(programId).toArray()).map(asPlaylist)).sort((a, b) => a.Title.localeCompare(b.Title)), [programId]);
  // A playlist's ClipIds keep a clip deleted after it was added; the count is of the clips the
  // playlist screen lists (the program's clip keys, no rows read), once the store has synced.
  const liveClips = useLiveQuery(async () => ((await hasSynced()) ? new Set((await db.clips.where('ProgramId').equals(programId).primaryKeys()) as string[]) : null), [programId]);
  useRestoredPlace(place, playlists !== undefined);
  if (playlists === undefined) return <p className="muted">{m.app_loading()}</p>;
  return (
    <>
      {/* A new playlist is made on its own screen (src/features/playlists), offline too. */}
      <div className="toolbar">
        <Link href={`${base}/playlists/new`} className="button">{m.playlists_new()}</Link>
      </div>
      {playlists.length === 0 ? (
        <p className="empty">{m.app_program_no_playlists()}</p>
      ) : (
        <ul className="card-list">
          {playlists.map((p) => (
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

function RecordingList({ programId, base, place }: { programId: string; base: string; place: ListPlaceHandle }) {
  const recordings = useLiveQuery(async () => live((await db.recordings.where('ProgramId').equals(programId).toArray()).map(asRecording)).sort((a, b) => (b.CaptureStartUtc ?? b.CreatedAtUtc).localeCompare(a.CaptureStartUtc ?? a.CreatedAtUtc)), [programId]);
  useRestoredPlace(place, recordings !== undefined);
  if (recordings === undefined) return <p className="muted">{m.app_loading()}</p>;
  if (recordings.length === 0) return <p className="empty">{m.app_program_no_recordings()}</p>;
  return (
    <ul className="card-list">
      {recordings.map((r) => (
        <li key={r.Id}>
          <Link href={`${base}/recordings/${r.Id}`} className="card-link">
            <span className="card-title">{r.Title ?? r.CaptureStartUtc ?? r.Id}</span>
            <span className="pill">{recordingStateLabel(r)}</span>
          </Link>
        </li>
      ))}
    </ul>
  );
}
