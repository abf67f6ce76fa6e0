// A program's production memo for a date (issue 34; what a memo is: src/protocol/api/production-memos.ts):
// the day's recordings in capture order, each with its time, length, state and annotations, and
// the program's recordings in figures (…/recordings/summary). The date comes from the address
// (memoDate, passed through unchanged, section 4); a date that is not one, or one without
// recordings, is the "Production memo not found" page for it. Read from the server: offline it says
// so and asks nothing.
import { useEffect, useState } from 'react';
import { formatDuration, formatTimeEntry } from '../../domain/time.ts';
import { call } from '../../lib/api.ts';
import { useOnline } from '../../lib/connectivity.ts';
import { formatDateTime } from '../../lib/labels.ts';
import { useIdParams } from '../../lib/params.ts';
import { Link, useParams } from '../../lib/router.ts';
import { m } from '../../paraglide/messages.js';
import { listProductionMemos, type ProductionMemo } from '../../protocol/api/production-memos.ts';
import { getRecordingSummary, type RecordingSummary } from '../../protocol/api/recording-summary.ts';
import { NotFoundPage } from '../../ui/ErrorPage.tsx';
import { PageHeader } from '../../ui/PageHeader.tsx';

/** The State's words (the memo carries the State alone, not the fields labels.ts reads for data errors). */
const STATE_LABEL = { Processing: () => m.app_recording_state_processing(), Live: () => m.app_recording_state_live(), Finalized: () => m.app_recording_state_finalized() };
const recordingStateLabel = (s: keyof typeof STATE_LABEL) => STATE_LABEL[s]();

type State = { kind: 'loading' } | { kind: 'missing' } | { kind: 'failed' } | { kind: 'ok'; memo: ProductionMemo; summary: RecordingSummary | null };

export function ProductionMemoScreen() {
  const { organizationId, programId } = useIdParams('organizationId', 'programId');
  const memoDate = (useParams() as { memoDate?: string }).memoDate ?? '';
  const online = useOnline();
  const [state, setState] = useState<State>({ kind: 'loading' });
  useEffect(() => {
    if (!online) return;
    let live = true;
    void (async () => {
      const [memos, summary] = await Promise.all([
        call(listProductionMemos, { params: { programId }, query: { startDate: memoDate, endDate: memoDate } }),
        call(getRecordingSummary, { params: { programId } }),
      ]);
      if (!live) return;
      // A date the server cannot read (400 at startDate) has no memo, as a date without recordings.
      if (memos.kind === 'badRequest' || memos.kind === 'notFound' || (memos.kind === 'ok' && memos.data.length === 0)) return setState({ kind: 'missing' });
      if (memos.kind !== 'ok') return setState({ kind: 'failed' });
      setState({ kind: 'ok', memo: memos.data[0]!, summary: summary.kind === 'ok' ? summary.data : null });
    })();
    return () => {
      live = false;
    };
  }, [programId, memoDate, online]);

  if (state.kind === 'missing') return <NotFoundPage kind="memo" memoDate={memoDate} />;
  const programHref = `/${organizationId}/programs/${programId}`;
  return (
    <>
      <PageHeader title={m.media_memo_title({ date: memoDate })} link={<Link href={`${programHref}?tab=recordings`}>{m.media_memo_back()}</Link>} />
      {!online && <p className="muted" role="status">{m.media_memo_offline()}</p>}
      {online && state.kind === 'loading' && <p className="muted">{m.app_loading()}</p>}
      {state.kind === 'failed' && <p role="alert" className="alert alert-error">{m.media_memo_failed()}</p>}
      {state.kind === 'ok' && (
        <>
          <section className="card" aria-labelledby="memo-recordings">
            <h2 id="memo-recordings">{m.media_memo_recordings()}</h2>
            <ol className="annotation-list">
              {state.memo.Recordings.map((r) => (
                <li key={r.RecordingId}>
                  <div className="grow">
                    <Link href={`${programHref}/recordings/${r.RecordingId}`}>{r.Title ?? r.RecordingId}</Link>
                    <p className="muted">
                      {formatDateTime(r.CaptureStartUtc)} · {r.DurationSeconds === null ? m.media_memo_no_duration() : formatDuration(r.DurationSeconds)} · {recordingStateLabel(r.State)}
                      {r.HasTornAudio ? ` · ${m.media_memo_torn()}` : ''}
                    </p>
                    {r.Annotations.length > 0 ? (
                      <ul aria-label={m.media_memo_annotations({ title: r.Title ?? '' })}>
                        {r.Annotations.map((a) => (
                          <li key={a.AnnotationId}>
                            <span className="mono">{formatTimeEntry(a.OffsetSeconds)}</span> {a.Text}
                          </li>
                        ))}
                      </ul>
                    ) : (
                      <p className="muted">{m.media_memo_no_annotations()}</p>
                    )}
                  </div>
                </li>
              ))}
            </ol>
          </section>
          {state.summary && (
            <section className="card" aria-labelledby="memo-summary">
              <h2 id="memo-summary">{m.media_summary_title()}</h2>
              <dl className="details">
                <dt>{m.media_summary_total()}</dt>
                <dd>{state.summary.Total}</dd>
                {(['Live', 'Processing', 'Finalized'] as const).map((s) => (
                  <div key={s} style={{ display: 'contents' }}>
                    <dt>{recordingStateLabel(s)}</dt>
                    <dd>{state.summary!.Counts[s]}</dd>
                  </div>
                ))}
                <dt>{m.media_summary_duration()}</dt>
                <dd>{formatDuration(state.summary.TotalDurationSeconds)}</dd>
                <dt>{m.media_summary_torn()}</dt>
                <dd>{state.summary.TornCount}</dd>
                <dt>{m.media_summary_unreviewed()}</dt>
                <dd>{state.summary.UnreviewedCount}</dd>
              </dl>
            </section>
          )}
        </>
      )}
    </>
  );
}
