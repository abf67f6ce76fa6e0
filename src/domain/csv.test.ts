import { describe, expect, it } from 'vitest';
import { detectSeparator, parseCsv, toCsv } from './csv.ts';

describe('parseCsv', () => {
  it('reads plain records, with or without a last line break, in LF, CRLF or CR', () => {
    expect(parseCsv('a,b,c\n1,2,3')).toEqual([['a', 'b', 'c'], ['1', '2', '3']]);
    expect(parseCsv('a,b\r\n1,2\r\n')).toEqual([['a', 'b'], ['1', '2']]);
    expect(parseCsv('a,b\r1,2\r')).toEqual([['a', 'b'], ['1', '2']]);
    expect(parseCsv('')).toEqual([]);
  });

  it('keeps empty fields and blank records where they are', () => {
    expect(parseCsv('a,,c\n\n,,\n')).toEqual([['a', '', 'c'], [''], ['', '', '']]);
  });

  it('reads quoted fields holding the separator, line breaks and doubled quotes', () => {
    expect(parseCsv('name,note\r\n"Ortiz, Ana","said ""hi""\r\nthen left"\r\nx,""\r\n')).toEqual([
      ['name', 'note'],
      ['Ortiz, Ana', 'said "hi"\r\nthen left'],
      ['x', ''],
    ]);
    // An unterminated quote runs to the end of the file rather than losing it.
    expect(parseCsv('a,"b\nc')).toEqual([['a', 'b\nc']]);
  });

  it('drops a UTF-8 byte order mark, so the first column keeps its name', () => {
    expect(parseCsv('\uFEFFemail,name\nx@example.com,Ana')).toEqual([['email', 'name'], ['x@example.com', 'Ana']]);
  });

  it('keeps a quote inside an unquoted field, and text after a closing quote', () => {
    expect(parseCsv('5" disk,"a"b')).toEqual([['5" disk', 'ab']]);
  });

  it('takes the semicolon or tab when the header uses it (spreadsheets in comma-decimal locales)', () => {
    expect(detectSeparator('email;name;scope\n')).toBe(';');
    expect(detectSeparator('email\tname\n')).toBe('\t');
    expect(detectSeparator('"a;b",c\n')).toBe(',');
    expect(parseCsv('email;name\nx@example.com;"Ortiz; Ana"')).toEqual([['email', 'name'], ['x@example.com', 'Ortiz; Ana']]);
  });
});

describe('toCsv', () => {
  it('quotes what needs it and reads back to the same records', () => {
    const records = [['email', 'name'], ['x@example.com', 'Ortiz, "Ana"'], ['y@example.com', 'two\nlines'], ['', ' padded ']];
    const text = toCsv(records);
    expect(text).toBe('email,name\r\nx@example.com,"Ortiz, ""Ana"""\r\ny@example.com,"two\nlines"\r\n," padded "\r\n');
    expect(parseCsv(text)).toEqual(records);
  });
});
