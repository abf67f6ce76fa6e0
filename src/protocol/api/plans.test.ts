import { describe, expect, it } from 'vitest';
import { readPlanRefusal } from './plans.ts';

const body = (Code: string, Params?: Record<string, unknown>) => ({ Errors: [{ Field: 'body', Code, Message: 'words', ...(Params ? { Params } : {}) }] });

describe('a plan’s refusal read from a 403', () => {
  it('names the feature the plan lacks, or the add-on whose cap stops the request', () => {
    expect(readPlanRefusal(body('featureNotInPlan', { feature: 'playlist-download-analytics' }))).toEqual({ kind: 'feature', feature: 'playlist-download-analytics' });
    expect(readPlanRefusal(body('addOnCapReached', { addOn: 'TranscriptionMinutes', cap: 3000, used: 3000 }))).toEqual({ kind: 'cap', addOn: 'TranscriptionMinutes', cap: 3000, used: 3000 });
  });

  it('is none for another 403 (no body, an unactivated account) or a feature or add-on this build does not know', () => {
    expect(readPlanRefusal(undefined)).toBeNull();
    expect(readPlanRefusal(body('accountNotActivated'))).toBeNull();
    expect(readPlanRefusal(body('featureNotInPlan', { feature: 'time-travel' }))).toBeNull();
    expect(readPlanRefusal(body('addOnCapReached', { addOn: 'AdvancedAnalytics', cap: 1, used: 1 }))).toBeNull();
  });
});
