// The body of every analytics screen (organization, program, clip): the query form (date-range
// preset or custom dates, interval, time zone) kept in the URL, the "As of" line, the downloads
// chart with the previous period, the media types and the groupings of the level. Every chart is
// also a table and a CSV file.
import { useMemo, useState } from 'react';
import { ANALYTICS_INTERVALS, MAX_RANGE_DAYS, validateAnalyticsRange, type AnalyticsGrouping, type AnalyticsInterval } from '../../domain/analytics.ts';
import { fieldErrorText, formatFormError } from '../../domain/messages.ts';
import type { ReportColumn } from '../../domain/reports.ts';
import { getLocale } from '../../lib/i18n.ts';
import { formatDateTime, formatSeconds } from '../../lib/labels.ts';
import { useTimeZones } from '../../lib/reference-data.ts';
import { Link, navigate, useLocation, useSearch } from '../../lib/router.ts';
import type { FieldError } from '../../protocol/errors.ts';
import type { DownloadsSeries, Grouping, MediaTypesSeries } from '../../protocol/api/analytics-api.ts';
import type { Consumption } from '../../protocol/api/analytics-insights.ts';
import { m } from '../../paraglide/messages.js';
import { Field } from '../../ui/Field.tsx';
import { csvFileName, downloadCsv, tableCsv, type CsvTable } from './csv.ts';
import { axisLabel, bucketLabel, countryName, dateLabel, formatChange, formatCount, formatShare } from './format.ts';
import { LEVEL_GROUPINGS, type AnalyticsLevel } from './load.ts';
import { changePercent, comparisonRows, defaultTimeZone, intervalsFor, presetRange, previousPeriod, RANGE_PRESETS, readQuery, todayIn, writeQuery, type AnalyticsQuery, type RangePreset } from './range.ts';
import { TimeSeriesChart, type ChartSeries } from './TimeSeriesChart.tsx';
import { useAnalyticsView } from './use-view.ts';
import { NotInPlan } from './NotInPlan.tsx';
import './analytics.css';

const PRESET_LABEL: Record<RangePreset, () => string> = {
  last7: () => m.analytics_preset_last7(),
  last30: () => m.analytics_preset_last30(),
  last90: () => m.analytics_preset_last90(),
  thisMonth: () => m.analytics_preset_this_month(),
  lastMonth: () => m.analytics_preset_last_month(),
  custom: () => m.analytics_preset_custom(),
};
const INTERVAL_LABEL: Record<AnalyticsInterval, () => string> = {
  hour: () => m.analytics_interval_hour(),
  day: () => m.analytics_interval_day(),
  week: () => m.analytics_interval_week(),
  month: () => m.analytics_interval_month(),
};
const GROUPING_TITLE: Record<AnalyticsGrouping, () => string> = {
  programs: () => m.analytics_grouping_programs(),
  clips: () => m.analytics_grouping_clips(),
  apps: () => m.analytics_grouping_apps(),
  devices: () => m.analytics_grouping_devices(),
  os: () => m.analytics_grouping_os(),
  countries: () => m.analytics_grouping_countries(),
  sources: () => m.analytics_grouping_sources(),
};
// The values the counting job writes (sync-server/analytics/counting-agents.ts, the recorder's
// sources); anything else is shown as the server labelled it.
const SOURCE_LABEL: Record<string, () => string> = {
  feed: () => m.analytics_source_feed(),
  embed: () => m.analytics_source_embed(),
  page: () => m.analytics_source_page(),
  api: () => m.analytics_source_api(),
  web: () => m.analytics_source_web(),
  unknown: () => m.analytics_unknown(),
};
const DEVICE_LABEL: Record<string, () => string> = {
  Desktop: () => m.analytics_device_desktop(),
  Mobile: () => m.analytics_device_mobile(),
  Tablet: () => m.analytics_device_tablet(),
  Watch: () => m.analytics_device_watch(),
  TV: () => m.analytics_device_tv(),
  Car: () => m.analytics_device_car(),
  'Smart speaker': () => m.analytics_device_smart_speaker(),
  Unknown: () => m.analytics_unknown(),
};

/** An item's name as the reader should see it. */
function itemLabel(grouping: AnalyticsGrouping, item: { Key: string; Label: string }, locale: string): string {
  if (grouping === 'countries') return countryName(item.Key, locale) ?? m.analytics_unknown();
  if (grouping === 'sources') return SOURCE_LABEL[item.Key.toLowerCase()]?.() ?? item.Label;
  if (grouping === 'devices') return DEVICE_LABEL[item.Label]?.() ?? item.Label;
  if ((grouping === 'apps' || grouping === 'os') && item.Label === 'Unknown') return m.analytics_unknown();
  return item.Label;
}

const col = (Key: string, Label: string, Type: ReportColumn['Type']): ReportColumn => ({ Key, Label, Type });

type Props = { organizationId: string; level: AnalyticsLevel };

export function AnalyticsView({ organizationId, level }: Props) {
  const locale = getLocale();
  const [path] = useLocation();
  const search = useSearch();
  const zones = useTimeZones();
  const zoneIds = useMemo(() => zones?.map((z) => z.IanaId) ?? null, [zones]);
  const fallbackZone = defaultTimeZone(zoneIds, Intl.DateTimeFormat().resolvedOptions().timeZone);
  const query = readQuery(new URLSearchParams(search), fallbackZone);
  const own = query.preset === 'custom' ? validateAnalyticsRange(query.startDate, query.endDate, query.interval) : [];
  const view = useAnalyticsView(organizationId, level, own.length === 0 ? query : null);
  const set = (change: Partial<AnalyticsQuery>) => {
    const next = { ...query, ...change };
    // An hourly series of a range too long for it: days instead of a refusal.
    if (!intervalsFor(next.startDate, next.endDate).includes(next.interval) && next.interval === 'hour') next.interval = 'day';
    navigate(path + writeQuery(next, fallbackZone), { replace: true });
  };
  const errorAt = (field: string): string | undefined => {
    const mine = own.find((e) => e.field === field);
    if (mine) return formatFormError(mine.error);
    const theirs = view.fieldErrors.find((e) => e.Field.toLowerCase() === field.toLowerCase());
    return theirs ? fieldErrorText(theirs) : undefined;
  };
  const otherErrors = view.fieldErrors.filter((e: FieldError) => !['startdate', 'enddate', 'timezoneianaid', 'interval'].includes(e.Field.toLowerCase()));
  const data = view.shown?.data ?? null;
  // The plan changed since the session was read: the server's refusal, said as the gate says it.
  if (view.problem === 'notInPlan') return <NotInPlan organizationId={organizationId} />;

  return (
    <>
      <form className="card analytics-query" aria-label={m.analytics_query_label()} onSubmit={(e) => e.preventDefault()}>
        <Field label={m.analytics_range_label()}>
          <select
            value={query.preset}
            onChange={(e) => {
              const preset = e.target.value as RangePreset;
              // Custom starts from the dates shown, for the user to change.
              set(preset === 'custom' ? { preset } : { preset, ...presetRange(preset, todayIn(query.timeZone)) });
            }}
          >
            {RANGE_PRESETS.map((p) => (
              <option key={p} value={p}>{PRESET_LABEL[p]()}</option>
            ))}
          </select>
        </Field>
        {query.preset === 'custom' && (
          <>
            <Field label={m.analytics_start_label()} error={errorAt('startDate')}>
              <input type="date" value={query.startDate} onChange={(e) => set({ startDate: e.target.value })} />
            </Field>
            <Field label={m.analytics_end_label()} error={errorAt('endDate')}>
              <input type="date" value={query.endDate} onChange={(e) => set({ endDate: e.target.value })} />
            </Field>
          </>
        )}
        <Field label={m.analytics_interval_label()} error={errorAt('interval')} {...(intervalsFor(query.startDate, query.endDate).includes('hour') ? {} : { hint: m.analytics_hour_hint({ days: MAX_RANGE_DAYS.hour }) })}>
          <select value={query.interval} onChange={(e) => set({ interval: e.target.value as AnalyticsInterval })}>
            {ANALYTICS_INTERVALS.filter((i) => i !== 'hour' || intervalsFor(query.startDate, query.endDate).includes('hour') || query.interval === 'hour').map((i) => (
              <option key={i} value={i}>{INTERVAL_LABEL[i]()}</option>
            ))}
          </select>
        </Field>
        <Field label={m.analytics_time_zone_label()} error={errorAt('timeZoneIanaId')}>
          <select value={query.timeZone} onChange={(e) => set({ timeZone: e.target.value })}>
            {(zones ?? []).some((z) => z.IanaId === query.timeZone) ? null : <option value={query.timeZone}>{query.timeZone}</option>}
            {(zones ?? []).map((z) => (
              <option key={z.IanaId} value={z.IanaId}>{z.DisplayName}</option>
            ))}
          </select>
        </Field>
      </form>
      {otherErrors.length > 0 && (
        <p role="alert" className="alert alert-danger">{otherErrors.map((e) => fieldErrorText(e)).join(' ')}</p>
      )}
      {own.length === 0 && <ViewStatus view={view} locale={locale} />}
      {data && own.length === 0 && (
        <div className="analytics-grid">
          <DownloadsCard series={data.series} previous={data.previous} query={query} locale={locale} />
          {data.consumption && <ConsumptionCard consumption={data.consumption} locale={locale} />}
          {data.mediaTypes && <MediaTypesCard series={data.mediaTypes} query={query} locale={locale} />}
          {LEVEL_GROUPINGS[level.kind].map((g) => {
            const grouping = data.groupings[g];
            return grouping ? <GroupingCard key={g} grouping={grouping} query={query} locale={locale} organizationId={organizationId} search={search} /> : null;
          })}
        </div>
      )}
    </>
  );
}

type View = ReturnType<typeof useAnalyticsView>;

/** "As of {time}", and why the numbers are not newer (offline, failed) or not there at all. */
function ViewStatus({ view, locale }: { view: View; locale: string }) {
  // The numbers are complete up to the counting's own time when it is known (older than the
  // fetch while requests wait to be counted), else up to when they were fetched.
  const progress = view.shown?.data.progress ?? null;
  const asOf = view.shown ? m.analytics_as_of({ time: formatDateTime(progress?.AsOfUtc ?? view.shown.fetchedAt, locale) }) : null;
  const pending = (view.shown?.data.series.PendingDownloads ?? 0) > 0 || (progress?.RawEventsPending ?? 0) > 0;
  if (view.problem === 'forbidden') return <p role="alert" className="alert alert-warning">{m.analytics_forbidden()}</p>;
  if (view.problem === 'notFound') return <p role="alert" className="alert alert-warning">{m.analytics_not_found()}</p>;
  if (view.problem === 'offline' || view.problem === 'failed') {
    if (!view.checked) return null;
    const why = view.problem === 'offline' ? (view.shown ? m.analytics_offline_kept() : m.analytics_offline_never()) : view.shown ? m.analytics_failed_kept() : m.analytics_failed();
    return (
      <div role="status" className="alert alert-warning analytics-status">
        {asOf && <strong>{asOf}</strong>} <span>{why}</span>{' '}
        {view.problem === 'failed' && (
          <button type="button" className="button" onClick={view.retry}>{m.analytics_retry()}</button>
        )}
      </div>
    );
  }
  return (
    <p role="status" className="analytics-status muted">
      {asOf ?? (view.loading ? m.analytics_loading() : null)}
      {asOf && view.loading && ` · ${m.analytics_refreshing()}`}
      {pending && ` · ${m.analytics_pending()}`}
    </p>
  );
}

/** A card's table toggle and CSV button. */
function CardTools({ tableShown, onToggle, tableId, csv, fileName }: { tableShown: boolean; onToggle: () => void; tableId: string; csv: CsvTable; fileName: string }) {
  return (
    <div className="analytics-tools">
      <button type="button" className="button" aria-expanded={tableShown} aria-controls={tableId} onClick={onToggle}>
        {tableShown ? m.analytics_hide_table() : m.analytics_show_table()}
      </button>
      <button type="button" className="button" onClick={() => downloadCsv(fileName, tableCsv(csv))}>
        {m.analytics_export_csv()}
      </button>
    </div>
  );
}

function DownloadsCard({ series, previous, query, locale }: { series: DownloadsSeries; previous: DownloadsSeries | null; query: AnalyticsQuery; locale: string }) {
  const [table, setTable] = useState(false);
  const interval = series.Interval;
  const rows = useMemo(() => comparisonRows(series.Points, previous?.Points ?? null), [series, previous]);
  const axis = useMemo(() => series.Points.map((p) => axisLabel(p.Start, interval, locale)), [series, interval, locale]);
  const points = useMemo(() => series.Points.map((p) => bucketLabel(p.Start, interval, locale)), [series, interval, locale]);
  const lines = useMemo<ChartSeries[]>(
    () => [
      { label: m.analytics_series_current(), values: rows.map((r) => r.downloads), color: 'var(--brand)' },
      ...(previous ? [{ label: m.analytics_series_previous(), values: rows.map((r) => r.previousDownloads), color: '#6b7480', dashed: true }] : []),
    ],
    [rows, previous],
  );
  const before = previousPeriod(series.StartDate, series.EndDate);
  const change = previous ? changePercent(series.Total, previous.Total) : null;
  const range = { start: dateLabel(series.StartDate, locale), end: dateLabel(series.EndDate, locale) };
  const previousRange = { start: dateLabel(before.startDate, locale), end: dateLabel(before.endDate, locale) };
  const csv: CsvTable = {
    columns: [
      col('Start', m.analytics_col_period(), 'datetime'),
      col('Downloads', m.analytics_col_downloads(), 'number'),
      col('PreviousStart', m.analytics_col_previous_period(), 'datetime'),
      col('PreviousDownloads', m.analytics_col_previous_downloads(), 'number'),
    ],
    rows: rows.map((r) => [r.start, r.downloads, r.previousStart, r.previousDownloads]),
  };
  const summary = m.analytics_chart_summary({ ...range, total: formatCount(series.Total, locale), previous: previous ? formatCount(previous.Total, locale) : '–' });
  return (
    <section className="card analytics-card analytics-wide" aria-labelledby="analytics-downloads">
      <h2 id="analytics-downloads">{m.analytics_downloads_title()}</h2>
      <dl className="analytics-totals">
        <div>
          <dt>{m.analytics_total({ ...range })}</dt>
          <dd className="analytics-big">{formatCount(series.Total, locale)}</dd>
        </div>
        <div>
          <dt>{m.analytics_previous_total(previousRange)}</dt>
          <dd>{previous ? formatCount(previous.Total, locale) : '–'}</dd>
        </div>
        <div>
          <dt>{m.analytics_change()}</dt>
          <dd className={change === null ? '' : change >= 0 ? 'analytics-up' : 'analytics-down'}>{change === null ? m.analytics_change_none() : formatChange(change, locale)}</dd>
        </div>
      </dl>
      <TimeSeriesChart axisLabels={axis} pointLabels={points} series={lines} summary={summary} formatValue={(n) => formatCount(n, locale)} />
      <CardTools tableShown={table} onToggle={() => setTable(!table)} tableId="analytics-downloads-table" csv={csv} fileName={csvFileName('downloads', query.startDate, query.endDate)} />
      <div id="analytics-downloads-table" className="table-scroll" hidden={!table}>
        {table && (
          <table className="analytics-table">
            <caption className="visually-hidden">{m.analytics_downloads_title()}</caption>
            <thead>
              <tr>
                <th scope="col">{m.analytics_col_period()}</th>
                <th scope="col" className="num">{m.analytics_col_downloads()}</th>
                <th scope="col">{m.analytics_col_previous_period()}</th>
                <th scope="col" className="num">{m.analytics_col_previous_downloads()}</th>
              </tr>
            </thead>
            <tbody>
              {rows.map((r) => (
                <tr key={r.start}>
                  <th scope="row">{bucketLabel(r.start, interval, locale)}</th>
                  <td className="num">{formatCount(r.downloads, locale)}</td>
                  <td>{r.previousStart ? bucketLabel(r.previousStart, interval, locale) : '–'}</td>
                  <td className="num">{r.previousDownloads === null ? '–' : formatCount(r.previousDownloads, locale)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
      </div>
    </section>
  );
}

const MEDIA_LABEL: Record<string, () => string> = { Audio: () => m.analytics_media_audio(), Video: () => m.analytics_media_video() };
const MEDIA_COLOR: Record<string, string> = { Audio: 'var(--brand)', Video: '#b4561f' };

function MediaTypesCard({ series, query, locale }: { series: MediaTypesSeries; query: AnalyticsQuery; locale: string }) {
  const [table, setTable] = useState(false);
  const interval = series.Interval;
  const starts = useMemo(() => series.MediaTypes[0]?.Points.map((p) => p.Start) ?? [], [series]);
  const axis = useMemo(() => starts.map((s) => axisLabel(s, interval, locale)), [starts, interval, locale]);
  const points = useMemo(() => starts.map((s) => bucketLabel(s, interval, locale)), [starts, interval, locale]);
  const lines = useMemo<ChartSeries[]>(
    () => series.MediaTypes.map((t) => ({ label: MEDIA_LABEL[t.MediaType]?.() ?? t.MediaType, values: t.Points.map((p) => p.Downloads), color: MEDIA_COLOR[t.MediaType] ?? '#6b7480' })),
    [series],
  );
  const csv: CsvTable = {
    columns: [col('Start', m.analytics_col_period(), 'datetime'), ...series.MediaTypes.map((t) => col(t.MediaType, MEDIA_LABEL[t.MediaType]?.() ?? t.MediaType, 'number'))],
    rows: starts.map((s, i) => [s, ...series.MediaTypes.map((t) => t.Points[i]?.Downloads ?? null)]),
  };
  const summary = m.analytics_media_summary({ parts: series.MediaTypes.map((t) => `${MEDIA_LABEL[t.MediaType]?.() ?? t.MediaType} ${formatCount(t.Total, locale)}`).join(', ') });
  return (
    <section className="card analytics-card analytics-wide" aria-labelledby="analytics-media-types">
      <h2 id="analytics-media-types">{m.analytics_media_types_title()}</h2>
      <dl className="analytics-totals">
        {series.MediaTypes.map((t) => (
          <div key={t.MediaType}>
            <dt>{MEDIA_LABEL[t.MediaType]?.() ?? t.MediaType}</dt>
            <dd>{formatCount(t.Total, locale)}</dd>
          </div>
        ))}
      </dl>
      <TimeSeriesChart axisLabels={axis} pointLabels={points} series={lines} summary={summary} formatValue={(n) => formatCount(n, locale)} height={180} />
      <CardTools tableShown={table} onToggle={() => setTable(!table)} tableId="analytics-media-table" csv={csv} fileName={csvFileName('media-types', query.startDate, query.endDate)} />
      <div id="analytics-media-table" className="table-scroll" hidden={!table}>
        {table && (
          <table className="analytics-table">
            <caption className="visually-hidden">{m.analytics_media_types_title()}</caption>
            <thead>
              <tr>
                <th scope="col">{m.analytics_col_period()}</th>
                {series.MediaTypes.map((t) => (
                  <th key={t.MediaType} scope="col" className="num">{MEDIA_LABEL[t.MediaType]?.() ?? t.MediaType}</th>
                ))}
              </tr>
            </thead>
            <tbody>
              {starts.map((s, i) => (
                <tr key={s}>
                  <th scope="row">{bucketLabel(s, interval, locale)}</th>
                  {series.MediaTypes.map((t) => (
                    <td key={t.MediaType} className="num">{formatCount(t.Points[i]?.Downloads ?? 0, locale)}</td>
                  ))}
                </tr>
              ))}
            </tbody>
          </table>
        )}
      </div>
    </section>
  );
}

/** A grouping is a table already: its bars are drawn in the rows, so the chart and the table are one. */
function GroupingCard({ grouping, query, locale, organizationId, search }: { grouping: Grouping; query: AnalyticsQuery; locale: string; organizationId: string; search: string }) {
  const g = grouping.Grouping;
  const id = `analytics-${g}`;
  const top = grouping.Items[0]?.Downloads ?? 0;
  const csv: CsvTable = {
    columns: [col('Key', m.analytics_col_key(), 'text'), col('Label', m.analytics_col_name(), 'text'), col('Downloads', m.analytics_col_downloads(), 'number')],
    rows: grouping.Items.map((i) => [i.Key, itemLabel(g, i, locale), i.Downloads]),
  };
  const keep = search ? `?${search.replace(/^\?/, '')}` : '';
  return (
    <section className="card analytics-card" aria-labelledby={id}>
      <h2 id={id}>{GROUPING_TITLE[g]()}</h2>
      {grouping.Items.length === 0 ? (
        // Clips are listed only of programs whose content the reader may see (the API's rule): an
        // analytics-only user has downloads here and no clip to name.
        <p className="empty">{g === 'clips' && grouping.Total > 0 ? m.analytics_grouping_clips_hidden() : m.analytics_grouping_empty()}</p>
      ) : (
        <div className="table-scroll">
          <table className="analytics-table analytics-bars">
            <caption className="visually-hidden">{GROUPING_TITLE[g]()}</caption>
            <thead>
              <tr>
                <th scope="col">{m.analytics_col_name()}</th>
                <th scope="col" className="num">{m.analytics_col_downloads()}</th>
                <th scope="col" className="num">{m.analytics_col_share()}</th>
              </tr>
            </thead>
            <tbody>
              {grouping.Items.map((i) => (
                <tr key={i.Key}>
                  <th scope="row">
                    <span className="analytics-bar" style={{ width: `${top > 0 ? Math.max(1, (i.Downloads / top) * 100) : 0}%` }} aria-hidden="true" />
                    <span className="analytics-bar-label">
                      {g === 'programs' ? <Link href={`/${organizationId}/programs/${i.Key}/analytics${keep}`}>{itemLabel(g, i, locale)}</Link> : itemLabel(g, i, locale)}
                    </span>
                  </th>
                  <td className="num">{formatCount(i.Downloads, locale)}</td>
                  <td className="num">{grouping.Total > 0 ? formatShare(i.Downloads / grouping.Total, locale) : '–'}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      <div className="analytics-tools">
        <button type="button" className="button" onClick={() => downloadCsv(csvFileName(g, query.startDate, query.endDate), tableCsv(csv))}>
          {m.analytics_export_csv()}
        </button>
      </div>
    </section>
  );
}

/** A clip's consumption curve: the share of its listeners whose delivered bytes reach each part. */
function ConsumptionCard({ consumption, locale }: { consumption: Consumption; locale: string }) {
  const [table, setTable] = useState(false);
  const buckets = consumption.Buckets;
  const axis = useMemo(() => buckets.map((b) => formatSeconds(b.StartSeconds)), [buckets]);
  const points = useMemo(() => buckets.map((b) => `${formatSeconds(b.StartSeconds)} – ${formatSeconds(b.EndSeconds)}`), [buckets]);
  const lines = useMemo<ChartSeries[]>(() => [{ label: m.analytics_col_listeners(), values: buckets.map((b) => Math.round(b.Share * 1000) / 10), color: 'var(--brand)' }], [buckets]);
  const csv: CsvTable = {
    columns: [col('StartSeconds', m.analytics_col_position(), 'number'), col('EndSeconds', m.analytics_col_position_end(), 'number'), col('Listeners', m.analytics_col_listeners(), 'number'), col('Share', m.analytics_col_share(), 'number')],
    rows: buckets.map((b) => [b.StartSeconds, b.EndSeconds, b.Listeners, b.Share]),
  };
  const median = consumption.MedianListenedThroughSeconds;
  return (
    <section className="card analytics-card analytics-wide" aria-labelledby="analytics-consumption">
      <h2 id="analytics-consumption">{m.analytics_consumption_title()}</h2>
      {consumption.DurationSeconds === null ? (
        <p className="empty">{m.analytics_consumption_unpublished()}</p>
      ) : consumption.Listeners === 0 || median === null ? (
        <p className="empty">{m.analytics_consumption_none()}</p>
      ) : (
        <>
          <dl className="analytics-totals">
            <div>
              <dt>{m.analytics_col_listeners()}</dt>
              <dd>{formatCount(consumption.Listeners, locale)}</dd>
            </div>
            <div>
              <dt>{m.analytics_consumption_median()}</dt>
              <dd>
                {formatSeconds(median)}
                {consumption.MedianListenedThroughShare !== null && ` (${formatShare(consumption.MedianListenedThroughShare, locale)})`}
              </dd>
            </div>
          </dl>
          <TimeSeriesChart
            axisLabels={axis}
            pointLabels={points}
            series={lines}
            summary={m.analytics_consumption_summary({ listeners: formatCount(consumption.Listeners, locale), median: formatSeconds(median) })}
            formatValue={(n) => formatShare(n / 100, locale)}
            height={200}
          />
          <p className="muted analytics-note">{m.analytics_consumption_note()}</p>
          <CardTools tableShown={table} onToggle={() => setTable(!table)} tableId="analytics-consumption-table" csv={csv} fileName={csvFileName('consumption', consumption.ClipId, '')} />
          <div id="analytics-consumption-table" className="table-scroll" hidden={!table}>
            {table && (
              <table className="analytics-table">
                <caption className="visually-hidden">{m.analytics_consumption_title()}</caption>
                <thead>
                  <tr>
                    <th scope="col">{m.analytics_col_position()}</th>
                    <th scope="col" className="num">{m.analytics_col_listeners()}</th>
                    <th scope="col" className="num">{m.analytics_col_share()}</th>
                  </tr>
                </thead>
                <tbody>
                  {buckets.map((b, i) => (
                    <tr key={b.StartSeconds}>
                      <th scope="row">{points[i]}</th>
                      <td className="num">{formatCount(b.Listeners, locale)}</td>
                      <td className="num">{formatShare(b.Share, locale)}</td>
                    </tr>
                  ))}
                </tbody>
              </table>
            )}
          </div>
        </>
      )}
    </section>
  );
}
