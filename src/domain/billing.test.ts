import { describe, expect, it } from 'vitest';
import {
  allowance,
  billedOverage,
  capReached,
  capOf,
  featuresOf,
  invoiceLines,
  invoicePeriods,
  invoiceTotal,
  noticeRecipients,
  percentUsed,
  periodById,
  periodOf,
  refusedByCap,
  readDateUtc,
  thresholdsToTell,
  validateAddOnQuantity,
  validateMaxOverage,
  validateRecipients,
  validateThresholds,
} from './billing.ts';

const usage = { storedAudioHours: 40, downloads: 25_500, seats: 3, transcriptionMinutes: 80 };

describe('allowances and features', () => {
  it('an allowance is the plan’s included quantity plus the add-on’s packs', () => {
    expect(allowance({ plan: 'Starter', addOns: {} }, 'transcriptionMinutes')).toBe(60);
    expect(allowance({ plan: 'Starter', addOns: { TranscriptionMinutes: 2 } }, 'transcriptionMinutes')).toBe(1060);
    expect(allowance({ plan: 'Professional', addOns: { ExtraSeats: 1 } }, 'seats')).toBe(15);
    expect(allowance({ plan: 'Broadcast', addOns: { ExtraSeats: 3 } }, 'downloads')).toBe(1_000_000);
  });

  it('features come from the plan and the feature add-ons, in one order', () => {
    expect(featuresOf({ plan: 'Starter', addOns: {} })).toEqual(['automatic-transcription']);
    expect(featuresOf({ plan: 'Starter', addOns: { ApplePremium: 1, AdvancedAnalytics: 1 } })).toEqual(['playlist-download-analytics', 'apple-premium', 'automatic-transcription']);
    expect(featuresOf({ plan: 'Professional', addOns: { AdvancedAnalytics: 0 } })).toEqual(['playlist-download-analytics', 'automatic-transcription']);
  });
});

describe('invoices', () => {
  it('bill the plan, the add-ons and what is used beyond each allowance', () => {
    const lines = invoiceLines({ plan: 'Starter', addOns: { ExtraStorage: 1, ApplePremium: 1 } }, usage, {});
    expect(lines).toEqual([
      { kind: 'plan', plan: 'Starter', amountCents: 2900 },
      { kind: 'addOn', addOn: 'ExtraStorage', quantity: 1, amountCents: 1500 },
      { kind: 'addOn', addOn: 'ApplePremium', quantity: 1, amountCents: 1900 },
      // 5,500 downloads beyond 20,000: 6 started thousands at 50¢.
      { kind: 'overage', measure: 'downloads', used: 25_500, allowance: 20_000, billedUnits: 5500, unitCents: 50, per: 1000, amountCents: 300 },
      { kind: 'overage', measure: 'transcriptionMinutes', used: 80, allowance: 60, billedUnits: 20, unitCents: 5, per: 1, amountCents: 100 },
    ]);
    expect(invoiceTotal(lines)).toBe(6700);
  });

  it('a restriction caps the units billed beyond the allowance; 0 makes the allowance a hard cap', () => {
    expect(billedOverage(80, 60, { maxOverage: null })).toBe(20);
    expect(billedOverage(80, 60, { maxOverage: 5 })).toBe(5);
    expect(billedOverage(80, 60, { maxOverage: 0 })).toBe(0);
    expect(billedOverage(59.5, 60, { maxOverage: null })).toBe(0);
    // A started minute counts.
    expect(billedOverage(60.2, 60, { maxOverage: null })).toBe(1);
    const capped = invoiceLines({ plan: 'Starter', addOns: {} }, usage, { TranscriptionMinutes: { maxOverage: 0 } });
    expect(capped.some((l) => l.kind === 'overage' && l.measure === 'transcriptionMinutes')).toBe(false);
    expect(capReached(80, 60, { maxOverage: 20 })).toBe(true);
    expect(capReached(79, 60, { maxOverage: 20 })).toBe(false);
    expect(capReached(1e9, 60, { maxOverage: null })).toBe(false);
  });

  it('a request is refused at the cap or when it would go past it; without a MaxOverage never', () => {
    expect(capOf(60, { maxOverage: 0 })).toBe(60);
    expect(capOf(60, { maxOverage: null })).toBeNull();
    // At the cap: even nothing more is refused.
    expect(refusedByCap(60, 0, 60, { maxOverage: 0 })).toBe(true);
    // 50 used of a cap of 60: 10 more fit, 10.5 do not.
    expect(refusedByCap(50, 10, 60, { maxOverage: 0 })).toBe(false);
    expect(refusedByCap(50, 10.5, 60, { maxOverage: 0 })).toBe(true);
    // The cap raised: the same request is taken.
    expect(refusedByCap(50, 10.5, 60, { maxOverage: 20 })).toBe(false);
    expect(refusedByCap(1e9, 1e9, 60, { maxOverage: null })).toBe(false);
  });
});

describe('periods', () => {
  it('a billing month is the calendar month in UTC', () => {
    expect(periodOf(new Date('2025-12-31T23:59:59.999Z'))).toEqual({ id: '2025-12', start: new Date('2025-12-01T00:00:00Z'), end: new Date('2026-01-01T00:00:00Z') });
    expect(periodById('2024-02')?.end).toEqual(new Date('2024-03-01T00:00:00Z'));
    for (const bad of ['2024-13', '2024-2', 'june', '2024-00']) expect(periodById(bad)).toBeNull();
  });

  it('invoices run from the month billing started to the current one, newest first', () => {
    expect(invoicePeriods(new Date('2025-11-20T10:00:00Z'), new Date('2026-01-05T00:00:00Z')).map((p) => p.id)).toEqual(['2026-01', '2025-12', '2025-11']);
    expect(invoicePeriods(new Date('2020-01-01T00:00:00Z'), new Date('2026-01-05T00:00:00Z'), 3).map((p) => p.id)).toEqual(['2026-01', '2025-12', '2025-11']);
  });

  it('dateUtc is required, a date or a date-time with its offset, and a day that exists', () => {
    expect(readDateUtc('2025-03-10')).toEqual(new Date('2025-03-10T00:00:00Z'));
    expect(readDateUtc('2025-03-10T23:30:00+02:00')).toEqual(new Date('2025-03-10T21:30:00Z'));
    expect(readDateUtc(undefined)).toEqual({ type: 'required' });
    expect(readDateUtc('  ')).toEqual({ type: 'required' });
    for (const bad of ['2025-02-30', 'yesterday', '2025-03-10T10:00', '10/03/2025']) expect(readDateUtc(bad), bad).toEqual({ type: 'dateInvalid' });
  });
});

describe('notices', () => {
  it('tells each threshold reached once, lowest first', () => {
    expect(thresholdsToTell({ thresholds: [100, 50, 80] }, 85, new Set())).toEqual([50, 80]);
    expect(thresholdsToTell({ thresholds: [100, 50, 80] }, 85, new Set([50]))).toEqual([80]);
    expect(thresholdsToTell({ thresholds: [100] }, percentUsed(3, 0), new Set())).toEqual([100]);
    expect(percentUsed(0, 0)).toBe(0);
  });

  it('tells the listed people and the billing contact when asked, each address once', () => {
    expect(noticeRecipients({ thresholds: [], recipients: ['Ops@station.example', 'b@station.example'], notifyBillingContact: true }, 'ops@station.example')).toEqual(['Ops@station.example', 'b@station.example']);
    expect(noticeRecipients({ thresholds: [], recipients: [], notifyBillingContact: false }, 'ops@station.example')).toEqual([]);
  });

  it('names each bad threshold and address at its place in the list', () => {
    expect(validateThresholds([0, 80, 80, 201, 2.5]).map(([f, e]) => [f, e.type])).toEqual([
      ['Thresholds[0]', 'outOfRange'],
      ['Thresholds[2]', 'invalid'],
      ['Thresholds[3]', 'outOfRange'],
      ['Thresholds[4]', 'outOfRange'],
    ]);
    expect(validateThresholds([1, 2, 3, 4, 5, 6]).map(([f]) => f)).toEqual(['Thresholds']);
    expect(validateRecipients(['a@b.example', 'nope']).map(([f, e]) => [f, e.type])).toEqual([['Recipients[1]', 'emailInvalid']]);
  });

  it('quantities and caps are whole numbers in range', () => {
    expect(validateAddOnQuantity('ExtraSeats', 100)).toBeNull();
    expect(validateAddOnQuantity('ExtraSeats', 101)?.type).toBe('outOfRange');
    expect(validateAddOnQuantity('ApplePremium', 2)?.params).toEqual({ min: 0, max: 1 });
    expect(validateMaxOverage(null)).toBeNull();
    expect(validateMaxOverage(1.5)?.type).toBe('outOfRange');
  });
});
