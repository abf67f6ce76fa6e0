import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { call, CallFailedError, mapResponse, unwrap, type CallResult, type ResponseLike } from './results.ts';
import { chunk, distinct, fetchAllPages, fetchByIds, nextPage, type Paged } from './paging.ts';

const response = (status: number, body?: unknown): ResponseLike => ({
  status,
  text: () => Promise.resolve(body === undefined ? '' : typeof body === 'string' ? body : JSON.stringify(body)),
});
const badBody = { Errors: [{ Field: 'Title', Code: 'required', Message: 'You must enter a title' }] };

describe('Result mapping per call', () => {
  it.each([
    [response(200, { Id: 'x' }), {}, { kind: 'ok', status: 200, value: { Id: 'x' } }],
    [response(204), {}, { kind: 'ok', status: 204, value: undefined }],
    [response(400, badBody), {}, { kind: 'badRequest', status: 400, body: badBody }],
    [response(400, 'oops'), {}, { kind: 'error', error: expect.any(SyntaxError) }],
    [response(400, { message: 'x' }), {}, { kind: 'statusError', status: 400 }],
    [response(404, { ignored: true }), {}, { kind: 'notFound', status: 404 }],
    [response(415, { Reason: 'type' }), { handles: [415] }, { kind: 'unsupportedMediaType', status: 415, body: { Reason: 'type' } }],
    [response(415), {}, { kind: 'statusError', status: 415 }],
    [response(451, { Country: 'XX' }), { handles: [451] }, { kind: 'unavailableForLegalReasons', status: 451, body: { Country: 'XX' } }],
    [response(451), { handles: [415] }, { kind: 'statusError', status: 451 }],
    [response(500), {}, { kind: 'statusError', status: 500 }],
    [response(403), {}, { kind: 'statusError', status: 403 }],
  ] as const)('status %# maps as section 8 says', async (res, options, expected) => {
    expect(await mapResponse(res, options as never)).toEqual(expected);
  });

  it('parses a success with the call’s parser', async () => {
    expect(await mapResponse(response(200, { n: 2 }), { parse: (j) => (j as { n: number }).n * 2 })).toEqual({ kind: 'ok', status: 200, value: 4 });
  });

  it('network or thrown errors become a generic error', async () => {
    const boom = new TypeError('Failed to fetch');
    expect(await call(() => Promise.reject(boom))).toEqual({ kind: 'error', error: boom });
    expect(await call(() => Promise.resolve(response(200, [1])))).toEqual({ kind: 'ok', status: 200, value: [1] });
  });

  it('a non-success list result throws an error', () => {
    expect(unwrap({ kind: 'ok', status: 200, value: [1] })).toEqual([1]);
    expect(() => unwrap({ kind: 'notFound', status: 404 })).toThrow(CallFailedError);
    try {
      unwrap({ kind: 'error', error: 1 });
    } catch (e) {
      expect((e as CallFailedError).result).toEqual({ kind: 'error', error: 1 });
    }
  });
});

const ok = <T>(value: T): CallResult<T> => ({ kind: 'ok', status: 200, value });

describe('Paged lists continue with Page+1 while HasNext is true; paging starts at page 1', () => {
  it('nextPage', () => {
    expect(nextPage({ HasNext: true, Page: 1 })).toBe(2);
    expect(nextPage({ HasNext: false, Page: 7 })).toBeNull();
  });

  it('full lists fetch pages of 2500 until HasNext is false', async () => {
    const calls: Array<[number, number]> = [];
    const all = Array.from({ length: 6001 }, (_, i) => i);
    const result = await fetchAllPages(async (page, size) => {
      calls.push([page, size]);
      const Items = all.slice((page - 1) * size, page * size);
      return ok<Paged<number>>({ Items, HasNext: page * size < all.length, Page: page });
    });
    expect(calls).toEqual([[1, 2500], [2, 2500], [3, 2500]]);
    expect(result).toEqual({ kind: 'ok', status: 200, value: all });
  });

  it('any failing page returns a failure result', async () => {
    const result = await fetchAllPages<number>(async (page) =>
      page === 2 ? { kind: 'statusError', status: 503 } : ok({ Items: [page], HasNext: true, Page: page }),
    );
    expect(result).toEqual({ kind: 'statusError', status: 503 });
  });

  it('property: paging covers every item exactly once', async () => {
    await fc.assert(
      fc.asyncProperty(fc.integer({ min: 0, max: 60 }), fc.integer({ min: 1, max: 9 }), async (n, size) => {
        const all = Array.from({ length: n }, (_, i) => i);
        const result = await fetchAllPages(
          async (page, pageSize) => ok({ Items: all.slice((page - 1) * pageSize, page * pageSize), HasNext: page * pageSize < n, Page: page }),
          size,
        );
        expect(result).toEqual({ kind: 'ok', status: 200, value: all });
      }),
    );
  });
});

describe('Ids are de-duplicated and sent in chunks of 500', () => {
  it('1201 ids with duplicates go as 500, 500, 200 distinct ids', async () => {
    const ids = [...Array.from({ length: 1200 }, (_, i) => `id-${i}`), 'id-0', 'id-5'];
    const sizes: number[] = [];
    const result = await fetchByIds(ids, async (part) => {
      sizes.push(part.length);
      return ok(part.map((id) => ({ id })));
    });
    expect(sizes).toEqual([500, 500, 200]);
    expect(result.kind === 'ok' && result.value.length).toBe(1200);
  });

  it('any failing chunk returns a failure result', async () => {
    let n = 0;
    const result = await fetchByIds(Array.from({ length: 1001 }, (_, i) => String(i)), async (part) =>
      ++n === 2 ? { kind: 'error', error: 'offline' } : ok(part),
    );
    expect(result).toEqual({ kind: 'error', error: 'offline' });
  });

  it('no ids, no calls', async () => {
    let calls = 0;
    expect(await fetchByIds([], async () => (calls++, ok([])))).toEqual({ kind: 'ok', status: 200, value: [] });
    expect(calls).toBe(0);
  });

  it('property: chunking covers every distinct id exactly once, in chunks of at most 500', () => {
    fc.assert(
      fc.property(fc.array(fc.integer({ min: 0, max: 3000 }), { maxLength: 3000 }), (ids) => {
        const chunks = chunk(distinct(ids));
        expect(chunks.every((c) => c.length > 0 && c.length <= 500)).toBe(true);
        const flat = chunks.flat();
        expect(flat).toEqual([...new Set(ids)]);
        expect(new Set(flat).size).toBe(flat.length);
      }),
      { numRuns: 200 },
    );
  });
});
