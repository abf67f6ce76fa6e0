// Response → result mapping (section 8), the one place that decides what a status means.
//
//   2xx ─► ok (parsed body)      400 ─► badRequest (parsed body)     404 ─► notFound (no body)
//   415 / 451 ─► typed, only for the calls that name them (image upload, account creation)
//   any other status ─► statusError        thrown / network failure ─► error
import type { BadRequestBody } from '../protocol/errors.ts';

export type CallResult<T> =
  | { kind: 'ok'; status: number; value: T }
  | { kind: 'badRequest'; status: 400; body: BadRequestBody }
  | { kind: 'notFound'; status: 404 }
  | { kind: 'unsupportedMediaType'; status: 415; body: unknown }
  | { kind: 'unavailableForLegalReasons'; status: 451; body: unknown }
  | { kind: 'statusError'; status: number }
  | { kind: 'error'; error: unknown };

export type Failure = Exclude<CallResult<never>, { kind: 'ok' }>;

/** What the mapping needs of a fetch Response (the caller does the IO). */
export type ResponseLike = { status: number; text(): Promise<string> };

export type MapOptions<T> = {
  /** Extra statuses this call handles with a body: 415 for image upload, 451 for account creation. */
  handles?: ReadonlyArray<415 | 451>;
  /** Turns the parsed JSON of a success into T (validate here); identity when absent. */
  parse?: (json: unknown) => T;
};

async function readJson(response: ResponseLike): Promise<unknown> {
  const text = await response.text();
  return text === '' ? undefined : (JSON.parse(text) as unknown);
}

function isBadRequestBody(json: unknown): json is BadRequestBody {
  return typeof json === 'object' && json !== null && Array.isArray((json as { Errors?: unknown }).Errors);
}

export async function mapResponse<T>(response: ResponseLike, options: MapOptions<T> = {}): Promise<CallResult<T>> {
  const { status } = response;
  try {
    if (status >= 200 && status < 300) {
      const json = await readJson(response);
      return { kind: 'ok', status, value: options.parse ? options.parse(json) : (json as T) };
    }
    if (status === 400) {
      const json = await readJson(response);
      // A 400 without our error body is still a client error, but not a typed one.
      return isBadRequestBody(json) ? { kind: 'badRequest', status, body: json } : { kind: 'statusError', status };
    }
    if (status === 404) return { kind: 'notFound', status };
    if (status === 415 && options.handles?.includes(415)) return { kind: 'unsupportedMediaType', status, body: await readJson(response) };
    if (status === 451 && options.handles?.includes(451)) return { kind: 'unavailableForLegalReasons', status, body: await readJson(response) };
    return { kind: 'statusError', status };
  } catch (error) {
    return { kind: 'error', error };
  }
}

/** Runs a call (fetch) and maps it; a thrown or network error becomes a generic error. */
export async function call<T>(send: () => Promise<ResponseLike>, options: MapOptions<T> = {}): Promise<CallResult<T>> {
  let response: ResponseLike;
  try {
    response = await send();
  } catch (error) {
    return { kind: 'error', error };
  }
  return mapResponse(response, options);
}

/** Thrown for a non-success list result; carries the result so callers can still branch on it. */
export class CallFailedError extends Error {
  readonly result: Failure;
  constructor(result: Failure) {
    super(result.kind === 'error' ? 'error' : `${result.kind} ${result.status}`);
    this.name = 'CallFailedError';
    this.result = result;
  }
}

/** A non-success list result throws an error. */
export function unwrap<T>(result: CallResult<T>): T {
  if (result.kind === 'ok') return result.value;
  throw new CallFailedError(result);
}
