import { describe, expect, it } from 'vitest';
import { conflictOrigin, fieldAuthor, isOwnChange } from './conflict-authors.ts';

const serverRow = { Id: 'c1', ModifiedById: 'u-dana', ModifiedAtUtc: '2026-01-01T00:00:02.000Z' };

describe('fieldAuthor', () => {
  it('names the author the server gave the field, not the row’s last writer', () => {
    const field = { field: 'Title', base: 'Pilot', mine: 'Dana', theirs: 'Pat', theirsById: 'u-pat', theirsAtUtc: '2026-01-01T00:00:01.000Z' };
    expect(fieldAuthor({ serverRow }, field)).toEqual({ byId: 'u-pat', atUtc: '2026-01-01T00:00:01.000Z' });
  });

  it('a conflict stored before fields named their author falls back to the row’s last writer', () => {
    const field = { field: 'Title', base: 'Pilot', mine: 'Dana', theirs: 'Pat' };
    expect(fieldAuthor({ serverRow }, field)).toEqual({ byId: 'u-dana', atUtc: '2026-01-01T00:00:02.000Z' });
  });

  it('a field whose change has no recorded author names nobody (the screen says someone)', () => {
    const field = { field: 'Title', base: 'Pilot', mine: 'Dana', theirs: 'Pat', theirsById: null, theirsAtUtc: null };
    expect(fieldAuthor({ serverRow }, field)).toEqual({ byId: null, atUtc: null });
  });
});

describe('isOwnChange and conflictOrigin: a conflict with the user’s own edit on another device', () => {
  const own = { field: 'Title', base: 'Pilot', mine: 'Phone', theirs: 'Laptop', theirsById: 'U-DANA', theirsAtUtc: '2026-01-01T00:00:01.000Z' };
  const pat = { field: 'Description', base: 'd', mine: 'Phone', theirs: 'Pat', theirsById: 'u-pat', theirsAtUtc: '2026-01-01T00:00:01.000Z' };
  const nobody = { field: 'Title', base: 'Pilot', mine: 'Phone', theirs: 'Laptop', theirsById: null, theirsAtUtc: null };

  it('is the user’s own change when the field’s author is the signed-in user, whatever the case of the id', () => {
    expect(isOwnChange({ byId: 'U-DANA', atUtc: null }, 'u-dana')).toBe(true);
    expect(isOwnChange({ byId: 'u-pat', atUtc: null }, 'u-dana')).toBe(false);
  });

  it('an unnamed author or an unknown signed-in user is never the user herself', () => {
    expect(isOwnChange({ byId: null, atUtc: null }, 'u-dana')).toBe(false);
    expect(isOwnChange({ byId: 'u-dana', atUtc: null }, undefined)).toBe(false);
    expect(isOwnChange({ byId: 'u-dana', atUtc: null }, '')).toBe(false);
  });

  it('is own when every field of every conflict is the user’s, others as soon as one is not', () => {
    expect(conflictOrigin([{ serverRow, fields: [own] }], 'u-dana')).toBe('own');
    expect(conflictOrigin([{ serverRow, fields: [own, pat] }], 'u-dana')).toBe('others');
    expect(conflictOrigin([{ serverRow, fields: [own] }, { serverRow, fields: [pat] }], 'u-dana')).toBe('others');
    expect(conflictOrigin([{ serverRow, fields: [nobody] }], 'u-dana')).toBe('others');
    expect(conflictOrigin([{ serverRow, fields: [own] }], 'u-pat')).toBe('others');
  });

  it('falls back to the row’s last writer for conflicts stored before fields named their author', () => {
    const unnamed = { field: 'Title', base: 'Pilot', mine: 'Phone', theirs: 'Laptop' };
    expect(conflictOrigin([{ serverRow, fields: [unnamed] }], 'u-dana')).toBe('own');
  });

  it('says none without conflicts', () => {
    expect(conflictOrigin([], 'u-dana')).toBe('none');
  });
});
