// Long-operation polling (section 4), against an injected clock and fetcher so tests run it in
// virtual time.
//
//   initial ─ Failed ─────────────────────────────────────────► failed
//      │ Success: poll at once      Busy: wait 1500 ms
//      ▼                                   │
//    poll ◄────── Busy / transient error ──┘ (wait 1500 ms)
//      ├─ Success ─► success (payload)      ├─ Failed ─► failed
//      ├─ other error ─► aborted            └─ 90 s since start ─► timedOut
import { POLL_INTERVAL_MS, POLL_TIMEOUT_MS } from './constants.ts';

export type OperationStatus = 'Busy' | 'Failed' | 'Success';
export type Operation = { Id: string; Status: OperationStatus };

export type Clock = { now(): number; sleep(ms: number): Promise<void> };

export type PollDeps<O extends Operation> = {
  fetch(operationId: string): Promise<O>;
  /** Errors worth another try (network hiccup, 5xx); anything else aborts. */
  isTransient(error: unknown): boolean;
  clock: Clock;
  intervalMs?: number;
  timeoutMs?: number;
};

export type PollOutcome<O extends Operation> =
  | { status: 'success'; operation: O }
  | { status: 'failed'; operation: O }
  | { status: 'timedOut' }
  | { status: 'aborted'; error: unknown };

export async function pollOperation<O extends Operation>(initial: O, deps: PollDeps<O>): Promise<PollOutcome<O>> {
  const interval = deps.intervalMs ?? POLL_INTERVAL_MS;
  const timeout = deps.timeoutMs ?? POLL_TIMEOUT_MS;
  if (initial.Status === 'Failed') return { status: 'failed', operation: initial };
  const startedAt = deps.clock.now();
  let wait = initial.Status === 'Success' ? 0 : interval;
  for (;;) {
    if (wait > 0) await deps.clock.sleep(wait);
    if (deps.clock.now() - startedAt >= timeout) return { status: 'timedOut' };
    wait = interval;
    let operation: O;
    try {
      operation = await deps.fetch(initial.Id);
    } catch (error) {
      if (deps.isTransient(error)) continue;
      return { status: 'aborted', error };
    }
    if (operation.Status === 'Success') return { status: 'success', operation };
    if (operation.Status === 'Failed') return { status: 'failed', operation };
  }
}
