// Import users from a CSV file (section 7 POST /internal/users/import/bulk and GET …/report;
// src/protocol/api/user-import.ts). The file is read here (src/domain/user-import-csv.ts): its
// columns are explained, with a template to download, and every row is shown with what the file or
// the rows' rules (the server's own, userImportRowErrors) say against it before anything is sent.
// The rows with nothing against them go in one request; each comes back invited, already a member
// or failed with the server's message. The report stays on the server: "Show the last import's
// report" reads it again after the dialog was closed or the answer was lost.
//
//   choose ──file──> preview (rows, problems) ──Import──> report
//      │                │  └─offline: says the import needs the network (Import disabled)
//      │                └─Choose another file──> choose
//      └─Show the last import's report──> report (404: "no import yet")
import { useState } from 'react';
import { m } from '../../paraglide/messages.js';
import { formError } from '../../domain/form-errors.ts';
import { fieldErrorText, formatFormError } from '../../domain/messages.ts';
import { USER_IMPORT_MAX_ROWS } from '../../domain/users.ts';
import { FLAG_COLUMNS, importableRows, readUserImportCsv, userImportTemplate, type FileProblem, type ImportFile, type ImportLine } from '../../domain/user-import-csv.ts';
import { getUserImportReport, importUsers, type UserImportReport, type UserImportRowResult } from '../../protocol/api/user-import.ts';
import { call } from '../../lib/api.ts';
import { formatDateTime } from '../../lib/labels.ts';
import { withLoading } from '../../lib/loading.ts';
import { useNetworks, usePrograms } from '../../lib/rows.ts';
import { Dialog, useDialogVeto } from '../../ui/Dialog.tsx';
import { SCOPE_LABEL } from './PermissionFields.tsx';
import { mailUnknownHostText } from '../../lib/mail-refusal.ts';

type Step = { kind: 'choose'; note?: string } | { kind: 'preview'; fileName: string; file: ImportFile } | { kind: 'report'; report: UserImportReport; leftOut: number };

export function ImportDialog({ open, organizationId, online, onClose, onImported }: { open: boolean; organizationId: string; online: boolean; onClose: () => void; onImported: () => void }) {
  return open ? <ImportForm organizationId={organizationId} online={online} onClose={onClose} onImported={onImported} /> : null;
}

/** A field of a row as the file names its column (the words of the file, not translated). */
function columnOf(field: string): string {
  if (field === 'ObjectType') return 'scope';
  if (field === 'ObjectId') return 'objectId';
  if (field.startsWith('Permissions.')) return field.slice('Permissions.'.length);
  return field === 'Email' || field === 'Name' ? field.toLowerCase() : '';
}
const atColumn = (field: string, text: string) => (columnOf(field) ? `${columnOf(field)}: ${text}` : text);

function fileProblemText(p: FileProblem): string {
  switch (p.kind) {
    case 'noRows':
      return m.users_import_no_rows();
    case 'noEmailColumn':
      return m.users_import_no_email_column();
    case 'unknownColumn':
      return m.users_import_unknown_column({ column: p.column });
    case 'repeatedColumn':
      return m.users_import_repeated_column({ column: p.column });
  }
}

/** What is said against a line, each with the column it is about. */
function lineProblems(line: ImportLine): string[] {
  return [
    ...line.cells.map((c) => (c.field === 'ObjectType' ? m.users_import_scope_invalid({ value: c.value }) : m.users_import_flag_invalid({ flag: columnOf(c.field), value: c.value }))),
    ...line.errors.map((e) => atColumn(e.field, formatFormError(e.error))),
  ];
}

const STATUS_LABEL: Record<UserImportRowResult['Status'], () => string> = {
  Invited: () => m.users_import_status_invited(),
  AlreadyMember: () => m.users_import_status_member(),
  Failed: () => m.users_import_status_failed(),
};

function ImportForm({ organizationId, online, onClose, onImported }: { organizationId: string; online: boolean; onClose: () => void; onImported: () => void }) {
  const [step, setStep] = useState<Step>({ kind: 'choose' });
  const [busy, setBusy] = useState(false);
  const [failure, setFailure] = useState<string | null>(null);
  const networks = useNetworks(organizationId) ?? [];
  const programs = usePrograms(organizationId) ?? [];
  useDialogVeto(step.kind === 'preview' && !busy);
  const template = `data:text/csv;charset=utf-8,${encodeURIComponent(`\uFEFF${userImportTemplate({ networkId: networks[0]?.Id, programId: programs[0]?.Id })}`)}`;

  const choose = async (input: HTMLInputElement) => {
    const chosen = input.files?.[0];
    input.value = '';
    if (!chosen) return;
    setFailure(null);
    try {
      setStep({ kind: 'preview', fileName: chosen.name, file: readUserImportCsv(await chosen.text(), organizationId) });
    } catch {
      setStep({ kind: 'choose', note: m.users_import_read_failed() });
    }
  };

  const rows = step.kind === 'preview' ? importableRows(step.file) : [];
  const tooMany = step.kind === 'preview' && step.file.lines.length > USER_IMPORT_MAX_ROWS;

  const send = async () => {
    if (step.kind !== 'preview' || rows.length === 0 || tooMany || !online) return;
    setBusy(true);
    setFailure(null);
    const res = await withLoading(call(importUsers, { json: { Rows: rows } }));
    setBusy(false);
    if (res.kind === 'ok') {
      setStep({ kind: 'report', report: res.data, leftOut: step.file.lines.length - rows.length });
      onImported();
    } else if (res.kind === 'badRequest') setFailure(res.body.Errors.map((e) => fieldErrorText(e)).join(' '));
    else setFailure(mailUnknownHostText(res) ?? (res.kind === 'error' && !navigator.onLine ? m.users_import_offline() : m.users_import_failed()));
  };

  const lastReport = async () => {
    setBusy(true);
    setFailure(null);
    const res = await withLoading(call(getUserImportReport));
    setBusy(false);
    if (res.kind === 'ok') setStep({ kind: 'report', report: res.data, leftOut: 0 });
    else setFailure(res.kind === 'notFound' ? m.users_import_no_report() : res.kind === 'error' && !navigator.onLine ? m.users_import_offline() : m.users_import_report_failed());
  };

  const objectName = (id: string | undefined) => (id ? (networks.find((n) => n.Id === id.toLowerCase())?.Name ?? programs.find((p) => p.Id === id.toLowerCase())?.Name ?? id) : '');

  const footer =
    step.kind === 'preview' ? (
      <>
        <button type="button" className="button" disabled={busy} onClick={() => setStep({ kind: 'choose' })}>
          {m.users_import_choose_again()}
        </button>
        <button type="button" className="button primary" disabled={busy || !online || rows.length === 0 || tooMany} aria-busy={busy} onClick={() => void send()}>
          {m.users_import_send()}
        </button>
      </>
    ) : step.kind === 'report' ? (
      <button type="button" className="button primary" onClick={onClose}>
        {m.users_done()}
      </button>
    ) : (
      <button type="button" className="button" onClick={onClose}>
        {m.users_cancel()}
      </button>
    );

  return (
    <Dialog open width="wide" onClose={onClose} title={m.users_import_title()} description={m.users_import_intro()} footer={footer}>
      {failure && (
        <p role="alert" className="alert alert-danger">
          {failure}
        </p>
      )}
      {step.kind === 'choose' && (
        <div className="user-import">
          {step.note && (
            <p role="alert" className="alert alert-danger">
              {step.note}
            </p>
          )}
          <div className="field">
            <label htmlFor="user-import-file">{m.users_import_file()}</label>
            <input id="user-import-file" type="file" accept=".csv,text/csv" disabled={busy} onChange={(e) => void choose(e.currentTarget)} />
          </div>
          <h3 className="user-import-heading">{m.users_import_columns()}</h3>
          <dl className="user-import-columns">
            <dt>email</dt>
            <dd>{m.users_import_column_email()}</dd>
            <dt>name</dt>
            <dd>{m.users_import_column_name()}</dd>
            <dt>scope</dt>
            <dd>{m.users_import_column_scope()}</dd>
            <dt>objectId</dt>
            <dd>{m.users_import_column_object()}</dd>
            <dt>{m.users_import_column_flags_term()}</dt>
            <dd>
              {m.users_import_column_flags()} <code>{FLAG_COLUMNS.join(', ')}</code>
            </dd>
          </dl>
          <p className="muted">{m.users_import_columns_note({ max: USER_IMPORT_MAX_ROWS })}</p>
          <div className="user-import-links">
            <a className="button" href={template} download="users-template.csv">
              {m.users_import_template()}
            </a>
            <button type="button" className="button" disabled={busy || !online} onClick={() => void lastReport()}>
              {m.users_import_last_report()}
            </button>
          </div>
        </div>
      )}
      {step.kind === 'preview' && (
        <div className="user-import">
          <p className="muted">{step.fileName}</p>
          {step.file.problems.map((p) => (
            <p key={JSON.stringify(p)} role="alert" className="alert alert-danger">
              {fileProblemText(p)}
            </p>
          ))}
          {tooMany && (
            <p role="alert" className="alert alert-danger">
              {formatFormError(formError('tooLong', 'domain_user_import_too_many_rows', { max: USER_IMPORT_MAX_ROWS }))}
            </p>
          )}
          <p role="status">{m.users_import_preview({ count: step.file.lines.length, ready: rows.length, problems: step.file.lines.length - rows.length })}</p>
          {!online && (
            <p className="alert alert-warning" role="status">
              {m.users_import_offline()}
            </p>
          )}
          {step.file.problems.length === 0 && rows.length === 0 && step.file.lines.length > 0 && <p className="alert alert-warning">{m.users_import_nothing()}</p>}
          <div className="user-import-table-wrap">
            <table className="user-import-table" aria-label={m.users_import_preview_label()}>
              <thead>
                <tr>
                  <th scope="col">{m.users_import_row()}</th>
                  <th scope="col">{m.users_import_email()}</th>
                  <th scope="col">{m.users_import_scope()}</th>
                  <th scope="col">{m.users_import_problems()}</th>
                </tr>
              </thead>
              <tbody>
                {step.file.lines.map((line) => {
                  const problems = lineProblems(line);
                  return (
                    <tr key={line.rowNumber} className={problems.length > 0 ? 'user-import-bad' : undefined}>
                      <td>{line.rowNumber}</td>
                      <td className="user-email">
                        {line.row?.Email}
                        {line.row?.Name ? <span className="muted"> ({line.row.Name})</span> : null}
                      </td>
                      <td>
                        {line.row ? SCOPE_LABEL[line.row.ObjectType]() : ''}
                        {line.row && line.row.ObjectType !== 'Organization' && line.row.ObjectId ? ` · ${objectName(line.row.ObjectId)}` : ''}
                      </td>
                      <td>{problems.length > 0 ? problems.map((p) => <div key={p}>{p}</div>) : m.users_import_ok()}</td>
                    </tr>
                  );
                })}
              </tbody>
            </table>
          </div>
        </div>
      )}
      {step.kind === 'report' && (
        <div className="user-import">
          <p className="muted">{m.users_import_report_of({ time: formatDateTime(new Date(step.report.CreatedAtUtc).getTime()), name: step.report.CreatedByName })}</p>
          <p role="status">{m.users_import_summary({ invited: step.report.Counts.Invited, members: step.report.Counts.AlreadyMember, failed: step.report.Counts.Failed })}</p>
          {step.leftOut > 0 && <p className="muted">{m.users_import_left_out({ count: step.leftOut })}</p>}
          <div className="user-import-table-wrap">
            <table className="user-import-table" aria-label={m.users_import_report_label()}>
              <thead>
                <tr>
                  <th scope="col">{m.users_import_row()}</th>
                  <th scope="col">{m.users_import_email()}</th>
                  <th scope="col">{m.users_import_result()}</th>
                </tr>
              </thead>
              <tbody>
                {step.report.Rows.map((r) => (
                  <tr key={r.RowNumber} className={r.Status === 'Failed' ? 'user-import-bad' : undefined}>
                    <td>{r.RowNumber}</td>
                    <td className="user-email">{r.Email}</td>
                    <td>
                      <strong>{STATUS_LABEL[r.Status]()}</strong>
                      {r.Errors.map((e) => (
                        <div key={`${e.Field}:${e.Message}`}>{atColumn(e.Field, fieldErrorText(e))}</div>
                      ))}
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        </div>
      )}
    </Dialog>
  );
}
