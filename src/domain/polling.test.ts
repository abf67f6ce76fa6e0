import { describe, expect, it } from 'vitest';
import { pollOperation, type Clock, type Operation, type OperationStatus } from './polling.ts';

/** Virtual time: sleep advances the clock at once. */
function virtualClock(): Clock & { t: number } {
  const clock = { t: 0, now: () => clock.t, sleep: (ms: number) => ((clock.t += ms), Promise.resolve()) };
  return clock;
}

type Step = OperationStatus | Error;
function script(steps: Step[], clock: { t: number }) {
  const at: number[] = [];
  const fetch = async (id: string): Promise<Operation & { Payload?: string }> => {
    at.push(clock.t);
    const step = steps.shift() ?? 'Busy';
    if (step instanceof Error) throw step;
    return { Id: id, Status: step, ...(step === 'Success' ? { Payload: 'report.csv' } : {}) };
  };
  return { fetch, at };
}
const transient = (e: unknown) => e instanceof Error && e.message === 'transient';

describe('Long-operation polling', () => {
  it('initial Failed: stop as failed, without polling', async () => {
    const clock = virtualClock();
    const { fetch, at } = script([], clock);
    const outcome = await pollOperation({ Id: 'op', Status: 'Failed' }, { fetch, isTransient: transient, clock });
    expect(outcome).toEqual({ status: 'failed', operation: { Id: 'op', Status: 'Failed' } });
    expect(at).toEqual([]);
  });

  it('initial Success: first poll immediately, and Success returns the payload', async () => {
    const clock = virtualClock();
    const { fetch, at } = script(['Success'], clock);
    const outcome = await pollOperation({ Id: 'op', Status: 'Success' }, { fetch, isTransient: transient, clock });
    expect(at).toEqual([0]);
    expect(outcome).toEqual({ status: 'success', operation: { Id: 'op', Status: 'Success', Payload: 'report.csv' } });
  });

  it('poll every 1500 ms; Busy continues, transient errors continue, Failed stops', async () => {
    const clock = virtualClock();
    const { fetch, at } = script(['Busy', new Error('transient'), 'Busy', 'Failed'], clock);
    const outcome = await pollOperation({ Id: 'op', Status: 'Busy' }, { fetch, isTransient: transient, clock });
    expect(at).toEqual([1500, 3000, 4500, 6000]);
    expect(outcome.status).toBe('failed');
  });

  it('any other exception aborts', async () => {
    const clock = virtualClock();
    const fatal = new Error('401');
    const { fetch } = script(['Busy', fatal], clock);
    expect(await pollOperation({ Id: 'op', Status: 'Busy' }, { fetch, isTransient: transient, clock })).toEqual({ status: 'aborted', error: fatal });
  });

  it('times out after 90 seconds', async () => {
    const clock = virtualClock();
    const { fetch, at } = script([], clock);
    const outcome = await pollOperation({ Id: 'op', Status: 'Busy' }, { fetch, isTransient: transient, clock });
    expect(outcome).toEqual({ status: 'timedOut' });
    // Polls at 1.5 s … 88.5 s: 59 polls, none at or after 90 s.
    expect(at).toHaveLength(59);
    expect(at.at(-1)).toBe(88_500);
    expect(clock.t).toBe(90_000);
  });
});
