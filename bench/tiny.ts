// BENCH_TINY=1: a benchmark at its smallest sizes, each part once, as a check that it still runs
// (`npm run bench:smoke`, which CI runs). A bench that stops working then fails CI instead of
// rotting until someone next wants its figures; the figures of a tiny run mean nothing.

export const TINY = process.env.BENCH_TINY === '1';

/** The full size, or the tiny one in a tiny run. */
export const sized = <T>(full: T, tiny: T): T => (TINY ? tiny : full);

/**
 * A part of a bench that could not run: a full run says so on a `bench:` line and goes on (the
 * figures of the other parts are still worth having); a tiny run fails, since that is what it is
 * there to find.
 */
export function unavailable(metric: string, error: unknown): void {
  if (TINY) throw error;
  console.log(`bench: ${metric} = unavailable (${(error instanceof Error ? error.message : String(error)).split('\n')[0]})`);
}
