// /{organizationId}/search (section 2 "Search", section 6 "Content search types"; issue 32): a
// query box, type tabs that start with 'all' (searchTypesFor), search-by fields, visibility,
// program and created-date filters, the three sorts, results with their matches highlighted that
// link to the content routes, more pages as the list scrolls. The URL holds the search
// (search-state.ts). engines.ts decides who answers, the server or this device, and the screen
// says which did.
import { useEffect, useMemo, useRef, useState } from 'react';
import { useLiveQuery } from 'dexie-react-hooks';
import { m } from '../../paraglide/messages.js';
import { db } from '../../db/db.ts';
import { SEARCH_FIELDS, searchTypesFor, type SearchField, type SearchKind, type SearchSort, type SearchType } from '../../domain/search.ts';
import { VISIBILITY_FILTERS } from '../../domain/list-filter.ts';
import { useIdParams } from '../../lib/params.ts';
import { navigate, useSearch } from '../../lib/router.ts';
import { organizationById, useSession } from '../../lib/session.ts';
import { usePrograms } from '../../lib/rows.ts';
import { useOnline } from '../../lib/connectivity.ts';
import { visibilityLabel } from '../../lib/labels.ts';
import { PageHeader } from '../../ui/PageHeader.tsx';
import { KeyboardHint, withCommandKey } from '../../ui/KeyboardHint.tsx';
import { activeFilterCount, EMPTY_SEARCH, readSearchState, searchStateQuery, sortOf, type SearchState } from './search-state.ts';
import { SearchResults } from './SearchResults.tsx';
import { TYPE_LABEL } from './labels.ts';
import { prepareDeviceSearch } from './engines.ts';
import './search.css';

/** Quiet time after the last key before the search runs and the URL follows. */
const TYPING_DELAY_MS = 250;

const FIELD_LABEL: Record<SearchField, () => string> = {
  Title: m.search_field_title,
  Description: m.search_field_description,
  Annotations: m.search_field_annotations,
  Transcript: m.search_field_transcript,
};
const SORT_LABEL: Record<SearchSort, () => string> = {
  Relevance: m.search_sort_relevance,
  DateNewest: m.search_list_sort_newest,
  DateOldest: m.search_list_sort_oldest,
};

export function SearchScreen() {
  const { organizationId } = useIdParams('organizationId');
  const session = useSession()?.session;
  const entries = useMemo(() => (session ? (organizationById(session, organizationId)?.UserPermissions ?? []) : []), [session, organizationId]);
  const organization = useLiveQuery(() => db.organizations.get(organizationId), [organizationId]);
  // The organization's type (whether it records) is on its synced row.
  const provider = typeof organization?.['Provider'] === 'string' ? organization['Provider'] : null;
  const types = useMemo(() => searchTypesFor(entries, { Provider: provider }), [entries, provider]);
  const programs = usePrograms(organizationId);
  const online = useOnline();

  const urlSearch = useSearch();
  const state = useMemo(() => readSearchState(urlSearch), [urlSearch]);
  const base = `/${organizationId}/search`;
  const replace = (next: SearchState) => navigate(base + searchStateQuery(next), { replace: true });
  const set = (part: Partial<SearchState>) => replace({ ...state, ...part });
  // A type the user may not search (an old link) reads as 'all'.
  const type: SearchType = types.includes(state.type) ? state.type : 'all';

  // The box's own text, so typing never waits; the URL (and the search) follow after a pause, and
  // a URL changed by other means (Back, a link) is taken up.
  const [text, setText] = useState(state.text);
  const typed = useRef(state.text);
  if (state.text !== typed.current) {
    typed.current = state.text;
    if (text !== state.text) setText(state.text);
  }
  useEffect(() => {
    if (text === state.text) return;
    const timer = setTimeout(() => {
      typed.current = text;
      replace({ ...state, text });
    }, TYPING_DELAY_MS);
    return () => clearTimeout(timer);
  });

  // The device's index loads (or is built) while the user types, ready for when it must answer.
  useEffect(() => prepareDeviceSearch(organizationId), [organizationId]);

  const box = useRef<HTMLInputElement>(null);
  // Opened with an empty box (the menu, the shortcut): ready to type.
  useEffect(() => {
    if (!state.text) box.current?.focus();
    // eslint-disable-next-line react-hooks/exhaustive-deps -- on opening only: later text is the user's typing
  }, []);

  const kinds = (type === 'all' ? types.filter((t) => t !== 'all') : [type]) as SearchKind[];
  const filters = activeFilterCount(state);
  const ready = state.text.trim() !== '' || filters > 0;

  return (
    <>
      <PageHeader
        title={m.search_title()}
        tabs={types.map((t) => ({ id: t, label: TYPE_LABEL[t](), selected: t === type, onSelect: () => set({ type: t }) }))}
      />
      <div role="tabpanel" id={`panel-${type}`} aria-labelledby={`tab-${type}`} className="search-panel">
        <form
          role="search"
          className="search-bar"
          onSubmit={(e) => {
            e.preventDefault();
            typed.current = text;
            replace({ ...state, text });
          }}
        >
          <label className="visually-hidden" htmlFor="search-box">{m.search_box_label()}</label>
          <input
            id="search-box"
            ref={box}
            type="search"
            value={text}
            placeholder={m.search_box_placeholder()}
            autoComplete="off"
            enterKeyHint="search"
            aria-describedby="search-hint"
            data-search-shortcut=""
            maxLength={500}
            onChange={(e) => setText(e.target.value)}
          />
          <span className="search-sort">
            <label htmlFor="search-sort">{m.search_list_sort()}</label>
            <select id="search-sort" value={sortOf(state)} onChange={(e) => set({ sort: e.target.value as SearchSort })}>
              {(['Relevance', 'DateNewest', 'DateOldest'] as const).map((s) => (
                <option key={s} value={s}>{SORT_LABEL[s]()}</option>
              ))}
            </select>
          </span>
        </form>
        <p id="search-hint" className="search-hint muted">
          {m.search_hint()}
          {/* The keys to search only where a keyboard is used (issue 36). */}
          <KeyboardHint> {m.shell_hint_search({ search: withCommandKey('K') })}</KeyboardHint>
        </p>
        <details className="search-filters" open={filters > 0 ? true : undefined}>
          <summary>{filters > 0 ? m.search_filters_count({ count: filters }) : m.search_filters()}</summary>
          <div className="search-filter-grid">
            <fieldset className="search-fields">
              <legend>{m.search_fields()}</legend>
              {SEARCH_FIELDS.map((f) => (
                <label key={f} className="search-check">
                  <input
                    type="checkbox"
                    checked={state.fields.length === 0 || state.fields.includes(f)}
                    onChange={(e) => {
                      const now = state.fields.length === 0 ? [...SEARCH_FIELDS] : state.fields;
                      const next = e.target.checked ? [...now, f] : now.filter((x) => x !== f);
                      // None ticked is no field at all: read as all, as the server reads it.
                      set({ fields: next.length === SEARCH_FIELDS.length ? [] : SEARCH_FIELDS.filter((x) => next.includes(x)) });
                    }}
                  />
                  {FIELD_LABEL[f]()}
                </label>
              ))}
            </fieldset>
            <label className="search-filter">
              {m.search_list_visibility()}
              <select value={state.visibility ?? ''} onChange={(e) => set({ visibility: e.target.value || null })}>
                <option value="">{m.search_list_any_visibility()}</option>
                {VISIBILITY_FILTERS.map((v) => (
                  <option key={v} value={v}>{visibilityLabel(v)}</option>
                ))}
              </select>
            </label>
            <label className="search-filter">
              {m.search_program()}
              <select value={state.programId ?? ''} onChange={(e) => set({ programId: e.target.value || null })}>
                <option value="">{m.search_all_programs()}</option>
                {(programs ?? []).map((p) => (
                  <option key={p.Id} value={p.Id}>{p.Name}</option>
                ))}
              </select>
            </label>
            <label className="search-filter">
              {m.search_created_from()}
              <input type="date" value={state.from ?? ''} max={state.to ?? undefined} onChange={(e) => set({ from: e.target.value || null })} />
            </label>
            <label className="search-filter">
              {m.search_created_to()}
              <input type="date" value={state.to ?? ''} min={state.from ?? undefined} onChange={(e) => set({ to: e.target.value || null })} />
            </label>
          </div>
          {filters > 0 && (
            <button type="button" className="button small" onClick={() => replace({ ...EMPTY_SEARCH, text: state.text, type: state.type, sort: state.sort })}>
              {m.search_list_clear()}
            </button>
          )}
        </details>
        {ready ? (
          <SearchResults
            // A new search starts afresh: its own pages, its own place.
            key={`${type}${searchStateQuery(state)}`}
            organizationId={organizationId}
            state={state}
            kinds={kinds}
            online={online}
            programs={programs ?? []}
            onShowAll={(kind) => set({ type: kind })}
          />
        ) : (
          <p className="empty">{m.search_start()}</p>
        )}
      </div>
    </>
  );
}
