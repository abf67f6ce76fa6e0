// One report: its progress while Busy, then its table and the CSV download, or why it failed.
//
// The device's copy (src/db/reports-db.ts) is what is shown, at once and offline; when online the
// operation is fetched (GET /v1/reports/{kind}/{operationId}) and kept after each answer, by the
// long-operation polling of section 4 (src/domain/polling.ts):
//
//   kept Busy ──wait 1500 ms──► poll ──Busy──► (again; Progress moves the bar)
//   kept Success without its result, or not kept ──► poll at once
//   poll ─ Success/Failed ─► kept, shown      ─ 90 s ─► "still running", Look again
//   poll ─ 404 ─► no such report              ─ network lost ─► stop; what is kept stays shown
//
// The CSV is made on the device from the kept result by the shared reportCsv, so a finished report
// downloads offline exactly as the server's /csv would answer.
import { useEffect, useState } from 'react';
import { useLiveQuery } from 'dexie-react-hooks';
import { m } from '../../paraglide/messages.js';
import { keepReports, keptReport } from '../../db/reports-db.ts';
import { pollOperation, type Operation } from '../../domain/polling.ts';
import { reportCsv, reportFileName, type ReportKind, type ReportResult } from '../../domain/reports.ts';
import { getReport, type ReportOperation } from '../../protocol/api/reports.ts';
import { call } from '../../lib/api.ts';
import { useOnline } from '../../lib/connectivity.ts';
import { getLocale } from '../../lib/i18n.ts';
import { formatDateTime } from '../../lib/labels.ts';
import { Link } from '../../lib/router.ts';
import { columnHeading, filtersSummary, formatCell, isIdColumn, KIND_TEXT, STATUS_PILL, STATUS_TEXT } from './report-text.ts';

type Fetching = { state: 'idle' } | { state: 'timedOut' } | { state: 'notFound' } | { state: 'failed' };

class Transient extends Error {}
class NotFound extends Error {}

const clock = { now: () => Date.now(), sleep: (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms)) };

export function ReportView({ owner, operationId, kind, backHref }: { owner: string; operationId: string; kind: ReportKind | null; backHref: string }) {
  const online = useOnline();
  const kept = useLiveQuery(async () => (await keptReport(owner, operationId)) ?? null, [owner, operationId]);
  const [fetching, setFetching] = useState<Fetching>({ state: 'idle' });
  const [run, setRun] = useState(0);
  const op = kept?.operation ?? null;
  const opKind = op?.Kind ?? kind;
  // What the server still has to say: a report not kept, one Busy, one finished whose result this
  // device has not fetched yet (the list carries no results).
  const needsServer = kept !== undefined && (op === null || op.Status === 'Busy' || (op.Status === 'Success' && op.Result === null));
  const initialStatus = op?.Status === 'Busy' ? 'Busy' : 'Success';

  useEffect(() => {
    if (!online || !needsServer || !opKind) return;
    let stopped = false;
    setFetching({ state: 'idle' });
    const fetchOperation = async (id: string): Promise<Operation> => {
      if (stopped) throw new Error('left the report');
      const res = await call(getReport, { params: { kind: opKind, operationId: id } });
      if (stopped) throw new Error('left the report');
      if (res.kind === 'ok') {
        await keepReports(owner, [res.data]);
        return res.data;
      }
      if (res.kind === 'notFound') throw new NotFound();
      if (res.kind === 'error' || (res.kind === 'status' && res.status >= 500)) throw new Transient();
      throw new Error(`report ${res.status}`);
    };
    void (async () => {
      const outcome = await pollOperation<Operation>({ Id: operationId, Status: initialStatus }, { clock, fetch: fetchOperation, isTransient: (e) => e instanceof Transient });
      if (stopped) return;
      if (outcome.status === 'timedOut') setFetching({ state: 'timedOut' });
      if (outcome.status === 'aborted') setFetching({ state: outcome.error instanceof NotFound ? 'notFound' : 'failed' });
    })();
    return () => {
      stopped = true;
    };
    // The run restarts on "Look again"; the operation's own changes (Progress) do not restart it.
  }, [online, needsServer, opKind, owner, operationId, initialStatus, run]);

  const back = (
    <p>
      <Link href={backHref}>← {m.reports_back()}</Link>
    </p>
  );
  if (kept === undefined) return back;
  if (!op) {
    return (
      <>
        {back}
        {!online || !opKind ? (
          <p className="alert alert-info">{opKind ? m.reports_not_kept_offline() : m.reports_not_found()}</p>
        ) : fetching.state === 'notFound' ? (
          <p className="alert alert-danger">{m.reports_not_found()}</p>
        ) : fetching.state === 'failed' || fetching.state === 'timedOut' ? (
          <p className="alert alert-danger">{m.reports_load_failed()}</p>
        ) : (
          <p className="muted">{m.reports_loading()}</p>
        )}
      </>
    );
  }
  return (
    <>
      {back}
      <section className="card report-view" aria-labelledby="report-title" aria-busy={op.Status === 'Busy'}>
        <div className="card-heading">
          <h2 id="report-title">
            {KIND_TEXT[op.Kind]()}
            {op.LevelName ? ` · ${op.LevelName}` : ''}
          </h2>
          <span className={STATUS_PILL[op.Status]}>{STATUS_TEXT[op.Status]()}</span>
        </div>
        <p className="muted">
          {filtersSummary(op)} · {m.reports_started_at({ when: formatDateTime(op.CreatedAtUtc) })}
          {op.FinishedAtUtc ? ` · ${m.reports_finished_at({ when: formatDateTime(op.FinishedAtUtc) })}` : ''}
        </p>
        {op.Status === 'Busy' && (
          <div className="report-progress">
            <progress max={100} value={op.Progress} aria-label={m.reports_progress_label()} />
            <span>{m.reports_progress_value({ progress: op.Progress })}</span>
          </div>
        )}
        {op.Status === 'Busy' && !online && <p className="alert alert-info">{m.reports_pending_offline()}</p>}
        {op.Status === 'Busy' && online && fetching.state === 'timedOut' && (
          <div className="alert alert-info" role="status">
            <p>{m.reports_poll_timeout()}</p>
            <button type="button" className="button small" onClick={() => setRun((n) => n + 1)}>
              {m.reports_look_again()}
            </button>
          </div>
        )}
        {fetching.state === 'failed' && <p className="alert alert-danger">{m.reports_load_failed()}</p>}
        {op.Status === 'Failed' && <p className="alert alert-danger">{op.FailureReason ? m.reports_failed_reason({ reason: op.FailureReason }) : m.reports_failed()}</p>}
        {op.Status === 'Success' && op.Result === null && <p className="muted">{online ? m.reports_loading() : m.reports_not_kept_offline()}</p>}
        {op.Status === 'Success' && op.Result && <ReportResultView op={op} result={op.Result} />}
      </section>
    </>
  );
}

/** Rows drawn at first: a content report has a row per clip (thousands); the CSV has them all. */
const ROWS_AT_FIRST = 200;

function ReportResultView({ op, result }: { op: ReportOperation; result: ReportResult }) {
  const locale = getLocale();
  const [all, setAll] = useState(false);
  const rows = all ? result.Rows : result.Rows.slice(0, ROWS_AT_FIRST);
  // Ids stay in the CSV; the table shows the names beside them.
  const shown = result.Columns.map((c, i) => ({ c, i })).filter(({ c }) => !isIdColumn(c));
  const download = () => {
    const blob = new Blob([reportCsv(result)], { type: 'text/csv;charset=utf-8' });
    const url = URL.createObjectURL(blob);
    const a = document.createElement('a');
    a.href = url;
    a.download = reportFileName(op.Kind, op.Filters);
    document.body.append(a);
    a.click();
    a.remove();
    setTimeout(() => URL.revokeObjectURL(url), 10_000);
  };
  return (
    <>
      <div className="report-actions">
        <span className="muted">{m.reports_result_rows({ count: result.Rows.length })}</span>
        <button type="button" className="button primary" onClick={download}>
          {m.reports_download_csv()}
        </button>
      </div>
      {result.Rows.length === 0 ? (
        <p className="empty">{m.reports_result_empty()}</p>
      ) : (
        <div className="table-scroll report-table-wrap" tabIndex={0} role="region" aria-labelledby="report-title">
          <table className="report-table">
            <caption className="visually-hidden">{m.reports_table_caption()}</caption>
            <thead>
              <tr>
                {shown.map(({ c }) => (
                  <th key={c.Key} scope="col" className={c.Type === 'text' || c.Type === 'datetime' ? undefined : 'num'}>
                    {columnHeading(c)}
                  </th>
                ))}
              </tr>
            </thead>
            <tbody>
              {rows.map((row, r) => (
                <tr key={r}>
                  {shown.map(({ c, i }) => (
                    <td key={c.Key} className={c.Type === 'text' || c.Type === 'datetime' ? undefined : 'num'}>
                      {formatCell(row[i] ?? null, c, locale)}
                    </td>
                  ))}
                </tr>
              ))}
            </tbody>
            {result.Totals && (
              <tfoot>
                <tr>
                  {/* The first cell names the row (the server's 'Total' is English, and may sit in an id column left off here). */}
                  {shown.map(({ c, i }, n) => (
                    <td key={c.Key} className={c.Type === 'text' || c.Type === 'datetime' ? undefined : 'num'}>
                      {n === 0 ? m.reports_total() : formatCell(result.Totals?.[i] ?? null, c, locale)}
                    </td>
                  ))}
                </tr>
              </tfoot>
            )}
          </table>
        </div>
      )}
      {rows.length < result.Rows.length && (
        <p className="report-more">
          <button type="button" className="button small" onClick={() => setAll(true)}>
            {m.reports_show_all_rows({ count: result.Rows.length })}
          </button>
        </p>
      )}
    </>
  );
}
