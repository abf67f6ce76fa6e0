// Paged lists and full-list helpers (sections 3, 4 and 9). Paging starts at page 1 and continues
// with Page+1 while HasNext is true. A full list fetches pages of 2500; lists by id send the
// distinct ids in chunks of 500. Any failing page or chunk makes the whole call fail: a partial
// list shown as complete would silently hide content.
import { FIRST_PAGE, FULL_LIST_PAGE_SIZE, ID_CHUNK_SIZE } from './constants.ts';
import type { CallResult } from './results.ts';

export type Paged<T> = { Items: T[]; HasNext: boolean; Page: number };

export function nextPage(response: Pick<Paged<unknown>, 'HasNext' | 'Page'>): number | null {
  return response.HasNext ? response.Page + 1 : null;
}

export async function fetchAllPages<T>(
  fetchPage: (page: number, pageSize: number) => Promise<CallResult<Paged<T>>>,
  pageSize: number = FULL_LIST_PAGE_SIZE,
): Promise<CallResult<T[]>> {
  const items: T[] = [];
  let page: number | null = FIRST_PAGE;
  let status = 200;
  while (page !== null) {
    const result: CallResult<Paged<T>> = await fetchPage(page, pageSize);
    if (result.kind !== 'ok') return result;
    items.push(...result.value.Items);
    status = result.status;
    page = nextPage({ HasNext: result.value.HasNext, Page: page });
  }
  return { kind: 'ok', status, value: items };
}

/** Distinct ids in first-seen order. */
export function distinct<T>(ids: readonly T[]): T[] {
  return [...new Set(ids)];
}

export function chunk<T>(items: readonly T[], size: number = ID_CHUNK_SIZE): T[][] {
  const chunks: T[][] = [];
  for (let i = 0; i < items.length; i += size) chunks.push(items.slice(i, i + size));
  return chunks;
}

export async function fetchByIds<T>(
  ids: readonly string[],
  fetchChunk: (ids: string[]) => Promise<CallResult<T[]>>,
  chunkSize: number = ID_CHUNK_SIZE,
): Promise<CallResult<T[]>> {
  const items: T[] = [];
  for (const part of chunk(distinct(ids), chunkSize)) {
    const result = await fetchChunk(part);
    if (result.kind !== 'ok') return result;
    items.push(...result.value);
  }
  return { kind: 'ok', status: 200, value: items };
}
