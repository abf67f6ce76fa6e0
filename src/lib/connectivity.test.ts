import { describe, expect, it } from 'vitest';
import { isCurrentStatus, reachable } from './connectivity.ts';

describe('connectivity', () => {
  const pageStart = 5_000;
  it('a worker status written before the browser last showed a network (before a restart) does not make the app offline', () => {
    expect(reachable(true, { online: false, updatedAt: pageStart - 1 }, pageStart)).toBe(true);
    expect(isCurrentStatus({ updatedAt: pageStart - 1 }, pageStart)).toBe(false);
    expect(isCurrentStatus({ updatedAt: null }, pageStart)).toBe(false);
  });
  it('a worker that failed since (a captive portal) is believed over the browser’s flag', () => {
    expect(reachable(true, { online: false, updatedAt: pageStart + 10 }, pageStart)).toBe(false);
    expect(reachable(true, { online: true, updatedAt: pageStart + 10 }, pageStart)).toBe(true);
  });
  it('the browser’s own offline flag is offline, whatever the worker said', () => {
    expect(reachable(false, { online: true, updatedAt: pageStart + 10 }, pageStart)).toBe(false);
    expect(reachable(false, null, pageStart)).toBe(false);
  });
  it('the page’s own failed look at the network is offline until the worker writes something newer', () => {
    expect(reachable(true, null, pageStart, pageStart + 5)).toBe(false);
    // The stale status from before a restart said online: the look is newer.
    expect(reachable(true, { online: true, updatedAt: pageStart - 1 }, pageStart, pageStart + 5)).toBe(false);
    // The worker reached the server since: online.
    expect(reachable(true, { online: true, updatedAt: pageStart + 50 }, pageStart, pageStart + 5)).toBe(true);
    // A look from before the browser last showed a network (an 'online' event since) says nothing.
    expect(reachable(true, null, pageStart + 100, pageStart + 5)).toBe(true);
  });
});
