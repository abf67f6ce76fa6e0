import { describe, expect, it } from 'vitest';
import { fieldAuthor } from './conflict-authors.ts';

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
