import { describe, expect, it } from 'vitest';
import { mergeSet, threeWayMerge, type Revision } from './merge.ts';
import { deepEqual } from '../../src/protocol/json-equal.ts';

const T0 = '2026-01-01T00:00:00.000Z';
const T1 = '2026-01-01T00:00:01.000Z';
const T2 = '2026-01-01T00:00:02.000Z';
const base = { Id: 'c1', Title: 'Pilot', Description: 'd0', Season: 1, Tags: ['a', 'b'], ModifiedAtUtc: T0 };

function revs(...rows: Array<[Record<string, unknown>, boolean?]>): Revision[] {
  return rows.map(([row, own]) => ({ modifiedAtUtc: row['ModifiedAtUtc'] as string, row, own: own ?? false }));
}

describe('threeWayMerge', () => {
  it('a stale ModifiedAtUtc with disjoint fields merges', () => {
    const current = { ...base, Description: 'theirs', ModifiedAtUtc: T1 };
    const r = threeWayMerge({ Title: 'Mine' }, T0, current, revs([base], [current]));
    expect(r).toEqual({ patch: { Title: 'Mine' }, conflicts: [] });
  });

  it('a field both sides changed to different values is a conflict with base, mine and theirs', () => {
    const current = { ...base, Title: 'Theirs', ModifiedAtUtc: T1 };
    const r = threeWayMerge({ Title: 'Mine', Season: 2 }, T0, current, revs([base], [current]));
    expect(r.patch).toEqual({ Season: 2 });
    expect(r.conflicts).toEqual([{ field: 'Title', base: 'Pilot', mine: 'Mine', theirs: 'Theirs', theirsBy: { byId: null, atUtc: T1 } }]);
  });

  it('both sides changing a field to the same value is not a conflict', () => {
    const current = { ...base, Title: 'Same', ModifiedAtUtc: T1 };
    const r = threeWayMerge({ Title: 'Same' }, T0, current, revs([base], [current]));
    expect(r).toEqual({ patch: {}, conflicts: [] });
  });

  it('Tags merge as a set: additions of both kept, removals of either applied', () => {
    const current = { ...base, Tags: ['a', 'b', 'theirs'], ModifiedAtUtc: T1 };
    const r = threeWayMerge({ Tags: ['b', 'mine'] }, T0, current, revs([base], [current]));
    expect(r.conflicts).toEqual([]);
    expect(r.patch).toEqual({ Tags: ['b', 'theirs', 'mine'] });
  });

  it('a base older than the kept revisions makes every differing field a conflict', () => {
    const current = { ...base, Description: 'x', ModifiedAtUtc: T2 };
    const r = threeWayMerge({ Title: 'Mine', Description: 'x', Tags: ['z'] }, T0, current, revs([current]));
    expect(r.patch).toEqual({});
    expect(r.conflicts.map((c) => c.field)).toEqual(['Title', 'Tags']);
    expect(r.conflicts[0]).toEqual({ field: 'Title', base: undefined, mine: 'Mine', theirs: 'Pilot', theirsBy: { byId: null, atUtc: T2 } });
  });

  it("the client's own earlier write since the base is not someone else's change", () => {
    const own = { ...base, Title: 'First', ModifiedAtUtc: T1 };
    const r = threeWayMerge({ Title: 'Second' }, T0, own, revs([base], [own, true]));
    expect(r).toEqual({ patch: { Title: 'Second' }, conflicts: [] });
  });

  it('their change after our own write still conflicts', () => {
    const own = { ...base, Title: 'First', ModifiedAtUtc: T1 };
    const theirs = { ...own, Title: 'Theirs', ModifiedAtUtc: T2 };
    const r = threeWayMerge({ Title: 'Second' }, T0, theirs, revs([base], [own, true], [theirs]));
    expect(r.conflicts).toEqual([{ field: 'Title', base: 'Pilot', mine: 'Second', theirs: 'Theirs', theirsBy: { byId: null, atUtc: T2 } }]);
  });

  it("a conflict names the other user's change even when this client wrote other fields after it", () => {
    // Pat changed the Title; Dana's own earlier mutation then wrote the Description (she is the
    // row's last writer); Dana's stale Title conflicts with Pat's change, not her own.
    const pat = { ...base, Title: 'Pat', ModifiedById: 'u-pat', ModifiedAtUtc: T1 };
    const own = { ...pat, Description: 'Dana', ModifiedById: 'u-dana', ModifiedAtUtc: T2 };
    const r = threeWayMerge({ Title: 'Dana', Description: 'Dana' }, T0, own, revs([base], [pat], [own, true]));
    expect(r.patch).toEqual({});
    expect(r.conflicts).toEqual([{ field: 'Title', base: 'Pilot', mine: 'Dana', theirs: 'Pat', theirsBy: { byId: 'u-pat', atUtc: T1 } }]);
  });

  it('each conflicting field names the newest other change of that field', () => {
    const T3 = '2026-01-01T00:00:03.000Z';
    const pat = { ...base, Title: 'Pat', Description: 'Pat', ModifiedById: 'u-pat', ModifiedAtUtc: T1 };
    const lee = { ...pat, Description: 'Lee', ModifiedById: 'u-lee', ModifiedAtUtc: T2 };
    const sam = { ...lee, Season: 3, ModifiedById: 'u-sam', ModifiedAtUtc: T3 };
    const r = threeWayMerge({ Title: 'Dana', Description: 'Dana' }, T0, sam, revs([base], [pat], [lee], [sam]));
    expect(r.conflicts.map((c) => [c.field, c.theirsBy])).toEqual([
      ['Title', { byId: 'u-pat', atUtc: T1 }],
      ['Description', { byId: 'u-lee', atUtc: T2 }],
    ]);
  });

  it('without the base revision a conflict names the current row\'s author', () => {
    const current = { ...base, Title: 'Theirs', ModifiedById: 'u-pat', ModifiedAtUtc: T2 };
    const r = threeWayMerge({ Title: 'Mine' }, T0, current, revs([current]));
    expect(r.conflicts[0]?.theirsBy).toEqual({ byId: 'u-pat', atUtc: T2 });
  });

  it('a write missing from the revisions counts as theirs', () => {
    const current = { ...base, Title: 'Theirs', ModifiedAtUtc: T2 };
    const r = threeWayMerge({ Title: 'Mine' }, T0, current, revs([base]));
    expect(r.conflicts.map((c) => c.field)).toEqual(['Title']);
  });
});

describe('helpers', () => {
  it('deepEqual treats undefined and null alike and compares arrays in order', () => {
    expect(deepEqual(undefined, null)).toBe(true);
    expect(deepEqual({ a: [1, { b: 2 }] }, { a: [1, { b: 2 }], c: undefined })).toBe(true);
    expect(deepEqual(['a', 'b'], ['b', 'a'])).toBe(false);
    // Objects with different keys differ, whichever side holds the null.
    expect(deepEqual({ a: null }, { b: 'x' })).toBe(false);
    expect(deepEqual({ b: 'x' }, { a: null })).toBe(false);
    expect(deepEqual({ a: 1 }, [1])).toBe(false);
  });
  it('mergeSet ignores non-strings and keeps order theirs then mine', () => {
    expect(mergeSet(['a'], ['a', 'm', 3], 'nope')).toEqual(['m']);
    expect(mergeSet(null, ['x'], ['y'])).toEqual(['y', 'x']);
  });
});
