// The CSV files of the analytics screens, written by the one CSV writer of the studio (the reports'
// reportCsv, src/domain/reports.ts: RFC 4180, formulas kept as text), and saved by the browser.
import { reportCsv, type ReportCell, type ReportColumn } from '../../domain/reports.ts';

export type CsvTable = { columns: readonly ReportColumn[]; rows: ReportCell[][] };

export function tableCsv(table: CsvTable): string {
  return reportCsv({ Columns: [...table.columns], Rows: table.rows, Totals: null });
}

/** Saves text as a file the browser downloads (no network: the numbers are already on the page). */
export function downloadCsv(fileName: string, text: string): void {
  const url = URL.createObjectURL(new Blob([text], { type: 'text/csv;charset=utf-8' }));
  const a = document.createElement('a');
  a.href = url;
  a.download = fileName;
  document.body.append(a);
  a.click();
  a.remove();
  // After the click has handed the file to the browser.
  setTimeout(() => URL.revokeObjectURL(url), 0);
}

/** analytics-{what}_{start}_{end}.csv, as the reports name theirs. */
export function csvFileName(what: string, startDate: string, endDate: string): string {
  const safe = (s: string) => s.replace(/[^0-9A-Za-z-]/g, '');
  const parts = [`analytics-${safe(what)}`, safe(startDate), safe(endDate)].filter((p) => p !== '');
  return `${parts.join('_')}.csv`;
}
