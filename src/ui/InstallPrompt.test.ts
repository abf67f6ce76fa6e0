// @vitest-environment happy-dom
// When the studio offers to be installed (issue 36): not on the first visit, on the second or after
// a first change saved on the device, and not for 30 days after "Not now".
import 'fake-indexeddb/auto';
import { expect, it } from 'vitest';
import { installOfferDue } from './InstallPrompt.tsx';

const NOW = new Date('2026-12-03T08:00:00Z');
const daysAgo = (days: number) => new Date(NOW.getTime() - days * 24 * 60 * 60 * 1000);

it('is not offered on the first visit with nothing saved yet', () => {
  expect(installOfferDue({ visits: 1, savedChange: false, dismissedAt: null, now: NOW })).toBe(false);
});

it('is offered on the second visit, or on the first once a change was saved', () => {
  expect(installOfferDue({ visits: 2, savedChange: false, dismissedAt: null, now: NOW })).toBe(true);
  expect(installOfferDue({ visits: 1, savedChange: true, dismissedAt: null, now: NOW })).toBe(true);
});

it('waits 30 days after a dismissal', () => {
  expect(installOfferDue({ visits: 5, savedChange: true, dismissedAt: daysAgo(29.9), now: NOW })).toBe(false);
  expect(installOfferDue({ visits: 5, savedChange: true, dismissedAt: daysAgo(30), now: NOW })).toBe(true);
});
