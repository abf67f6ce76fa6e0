// CSV as spreadsheets write it (RFC 4180, and what Excel and LibreOffice save in practice), read
// and written in the browser (the users screen's import: src/domain/user-import-csv.ts).
//
//   - fields in double quotes may hold the separator, line breaks and "" for a quote
//   - records end in CRLF, LF or CR; a last line break, or none, is the same file
//   - a UTF-8 byte order mark (Excel's "CSV UTF-8") is not part of the first field
//   - the separator is the comma, unless the first record has more semicolons or tabs: a
//     spreadsheet in a locale whose decimal mark is the comma (German, French…) saves with ';'

export type CsvSeparator = ',' | ';' | '\t';

/** The separator of the first record: the most frequent of , ; and tab outside quotes (ties: the comma). */
export function detectSeparator(text: string): CsvSeparator {
  const counts: Record<CsvSeparator, number> = { ',': 0, ';': 0, '\t': 0 };
  let quoted = false;
  for (const ch of text) {
    if (ch === '"') quoted = !quoted;
    else if (!quoted && (ch === '\n' || ch === '\r')) break;
    else if (!quoted && (ch === ',' || ch === ';' || ch === '\t')) counts[ch]++;
  }
  if (counts[';'] > counts[','] && counts[';'] >= counts['\t']) return ';';
  if (counts['\t'] > counts[',']) return '\t';
  return ',';
}

/**
 * The records of a CSV text, each a list of fields as written (not trimmed). A quote inside an
 * unquoted field is kept as a character; text after a closing quote joins the field (what
 * spreadsheets do with `"a"b`), so a sloppy file still reads rather than failing as a whole.
 */
export function parseCsv(input: string, separator: CsvSeparator = detectSeparator(input.replace(/^\uFEFF/, ''))): string[][] {
  const text = input.replace(/^\uFEFF/, '');
  const records: string[][] = [];
  let record: string[] = [];
  let field = '';
  let quoted = false;
  // Whether the record has begun: a file ending in a line break has no empty last record.
  let started = false;
  for (let i = 0; i < text.length; i++) {
    const ch = text[i]!;
    if (quoted) {
      if (ch !== '"') field += ch;
      else if (text[i + 1] === '"') {
        field += '"';
        i++;
      } else quoted = false;
      continue;
    }
    if (ch === '"' && field === '') {
      quoted = true;
      started = true;
    } else if (ch === separator) {
      record.push(field);
      field = '';
      started = true;
    } else if (ch === '\n' || ch === '\r') {
      if (ch === '\r' && text[i + 1] === '\n') i++;
      record.push(field);
      records.push(record);
      record = [];
      field = '';
      started = false;
    } else {
      field += ch;
      started = true;
    }
  }
  if (started || quoted) {
    record.push(field);
    records.push(record);
  }
  return records;
}

/** A field as CSV writes it: quoted when it holds the separator, a quote or a line break, or
 * leading or trailing spaces. */
function csvField(value: string, separator: CsvSeparator): string {
  return value.includes(separator) || /["\r\n]/.test(value) || value !== value.trim() ? `"${value.replaceAll('"', '""')}"` : value;
}

/** Records as CSV text, CRLF after each (RFC 4180), for a file a spreadsheet opens. */
export function toCsv(records: ReadonlyArray<readonly string[]>, separator: CsvSeparator = ','): string {
  return records.map((r) => `${r.map((f) => csvField(f, separator)).join(separator)}\r\n`).join('');
}
