// Earlier reports: what the device keeps (src/db/reports-db.ts), shown at once, newest first; when
// online, GET /internal/reports (the caller's reports in this organization, newest first) is
// merged into it, so reports started on another device appear, and those still Busy move on.
import { useEffect, useState } from 'react';
import { useLiveQuery } from 'dexie-react-hooks';
import { m } from '../../paraglide/messages.js';
import { keepReports, keptReports } from '../../db/reports-db.ts';
import { listReports, type ReportOperationSummary } from '../../protocol/api/reports.ts';
import { call } from '../../lib/api.ts';
import { useOnline } from '../../lib/connectivity.ts';
import { formatDateTime } from '../../lib/labels.ts';
import { Link } from '../../lib/router.ts';
import { filtersSummary, KIND_TEXT, STATUS_PILL, STATUS_TEXT } from './report-text.ts';

/** Reports listed from the server: one page, the newest. */
const LIST_PAGE_SIZE = '50';

export function ReportList({ owner, hrefOf }: { owner: string; hrefOf: (op: ReportOperationSummary) => string }) {
  const online = useOnline();
  const kept = useLiveQuery(() => keptReports(owner), [owner]);
  const [refresh, setRefresh] = useState<'idle' | 'failed'>('idle');

  useEffect(() => {
    if (!online) return;
    let live = true;
    void call(listReports, { query: { pageSize: LIST_PAGE_SIZE } }).then(async (res) => {
      if (!live) return;
      if (res.kind !== 'ok') return setRefresh('failed');
      setRefresh('idle');
      await keepReports(owner, res.data.Items);
    });
    return () => {
      live = false;
    };
  }, [online, owner]);

  return (
    <section className="card" aria-labelledby="reports-list-title">
      <h2 id="reports-list-title">{m.reports_list_title()}</h2>
      {!online && <p className="muted" role="status">{m.reports_list_offline()}</p>}
      {online && refresh === 'failed' && <p className="muted" role="status">{m.reports_list_stale()}</p>}
      {kept === undefined ? (
        <p className="muted">{m.reports_loading()}</p>
      ) : kept.length === 0 ? (
        <p className="empty">{m.reports_list_none()}</p>
      ) : (
        <ul className="report-list">
          {kept.map(({ key, operation: op }) => (
            <li key={key} className="report-item">
              <Link href={hrefOf(op)} className="report-link">
                <span className="report-item-title">
                  {KIND_TEXT[op.Kind]()}
                  {op.LevelName ? ` · ${op.LevelName}` : ''}
                </span>
                <span className={STATUS_PILL[op.Status]}>
                  {STATUS_TEXT[op.Status]()}
                  {op.Status === 'Busy' ? ` ${m.reports_progress_value({ progress: op.Progress })}` : ''}
                </span>
              </Link>
              <p className="muted report-item-meta">
                {filtersSummary(op)} · {m.reports_started_at({ when: formatDateTime(op.CreatedAtUtc) })}
              </p>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
