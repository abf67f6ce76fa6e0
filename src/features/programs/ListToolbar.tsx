// The filter and order of one of the program screen's lists (src/domain/list-filter.ts holds the
// rule): a filter box, the facets the list has (State, PublishState, Visibility), the order, the
// count of rows shown, and Clear. The screen keeps the query in the URL.
import { useId, type ReactNode } from 'react';
import {
  CLIP_STATE_FILTERS,
  EMPTY_LIST_QUERY,
  isFiltered,
  LIST_SORTS,
  listSort,
  publishFilter,
  PUBLISH_STATE_FILTERS,
  RECORDING_STATE_FILTERS,
  stateFilter,
  visibilityFilter,
  VISIBILITY_FILTERS,
  type ListKind,
  type ListQuery,
  type ListSort,
} from '../../domain/list-filter.ts';
import { CLIP_STATE_LABEL, type ClipStateDisplay } from '../../domain/clip.ts';
import { domainMessage } from '../../domain/messages.ts';
import { publishStateLabel, visibilityLabel } from '../../lib/labels.ts';
import { m } from '../../paraglide/messages.js';
import './program-lists.css';

const SORT_LABEL: Record<ListSort, () => string> = {
  newest: m.search_list_sort_newest,
  oldest: m.search_list_sort_oldest,
  title: m.search_list_sort_title,
  episode: m.search_list_sort_episode,
};

function recordingStateName(state: string): string {
  return state === 'Live' ? m.app_recording_state_live() : state === 'Finalized' ? m.app_recording_state_finalized() : m.app_recording_state_processing();
}

type Option = { value: string; label: string };

function Facet({ label, any, options, value, onChange }: { label: string; any: string; options: Option[]; value: string | null; onChange: (value: string | null) => void }) {
  const id = useId();
  return (
    <span className="list-facet">
      <label htmlFor={id}>{label}</label>
      <select id={id} value={value ?? ''} onChange={(e) => onChange(e.target.value || null)}>
        <option value="">{any}</option>
        {options.map((o) => (
          <option key={o.value} value={o.value}>{o.label}</option>
        ))}
      </select>
    </span>
  );
}

type Props = {
  kind: ListKind;
  /** The filter box's label ("Filter clips"). */
  label: string;
  query: ListQuery;
  onChange: (query: ListQuery) => void;
  /** "12 clips": the rows shown, read out as they change. */
  count: ReactNode;
  /** Shown before the filter (a list's own action, such as New playlist). */
  children?: ReactNode;
};

export function ListToolbar({ kind, label, query, onChange, count, children }: Props) {
  const inputId = useId();
  const hintId = useId();
  const set = (part: Partial<ListQuery>) => onChange({ ...query, ...part });
  return (
    <div className="toolbar list-toolbar">
      {children}
      <span className="list-filter">
        <label className="visually-hidden" htmlFor={inputId}>{label}</label>
        <input
          id={inputId}
          type="search"
          placeholder={label}
          value={query.text}
          autoComplete="off"
          aria-describedby={hintId}
          title={m.search_list_filter_hint()}
          // The "/" shortcut (src/app/Shell.tsx) focuses the screen's own filter first.
          data-search-shortcut=""
          onChange={(e) => set({ text: e.target.value })}
        />
        <span id={hintId} className="visually-hidden">{m.search_list_filter_hint()}</span>
      </span>
      {kind === 'clips' && (
        <>
          <Facet
            label={m.search_list_state()}
            any={m.search_list_any_state()}
            options={CLIP_STATE_FILTERS.map((s: ClipStateDisplay) => ({ value: s, label: domainMessage(CLIP_STATE_LABEL[s]) }))}
            value={stateFilter(query, kind)}
            onChange={(state) => set({ state })}
          />
          <Facet
            label={m.search_list_publish_state()}
            any={m.search_list_any_publish_state()}
            options={PUBLISH_STATE_FILTERS.map((s) => ({ value: s, label: publishStateLabel(s) }))}
            value={publishFilter(query, kind)}
            onChange={(publish) => set({ publish })}
          />
        </>
      )}
      {kind === 'recordings' && (
        <Facet
          label={m.search_list_state()}
          any={m.search_list_any_state()}
          options={RECORDING_STATE_FILTERS.map((s) => ({ value: s, label: recordingStateName(s) }))}
          value={stateFilter(query, kind)}
          onChange={(state) => set({ state })}
        />
      )}
      {kind !== 'recordings' && (
        <Facet
          label={m.search_list_visibility()}
          any={m.search_list_any_visibility()}
          options={VISIBILITY_FILTERS.map((v) => ({ value: v, label: visibilityLabel(v) }))}
          value={visibilityFilter(query, kind)}
          onChange={(visibility) => set({ visibility })}
        />
      )}
      <SortSelect kind={kind} value={listSort(query, kind)} onChange={(sort) => set({ sort: sort === LIST_SORTS[kind][0] ? null : sort })} />
      <span className="list-count muted" aria-live="polite">{count}</span>
      {(isFiltered(query, kind) || query.sort !== null) && (
        <button type="button" className="button small" onClick={() => onChange(EMPTY_LIST_QUERY)}>
          {m.search_list_clear()}
        </button>
      )}
    </div>
  );
}

function SortSelect({ kind, value, onChange }: { kind: ListKind; value: ListSort; onChange: (sort: ListSort) => void }) {
  const id = useId();
  const sorts: readonly ListSort[] = LIST_SORTS[kind];
  return (
    <span className="list-facet">
      <label htmlFor={id}>{m.search_list_sort()}</label>
      <select id={id} value={value} onChange={(e) => onChange(sorts.find((s) => s === e.target.value) ?? sorts[0]!)}>
        {sorts.map((s) => (
          <option key={s} value={s}>{SORT_LABEL[s]()}</option>
        ))}
      </select>
    </span>
  );
}
