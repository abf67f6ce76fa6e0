import { describe, expect, it } from 'vitest';
import { isCompressible, negotiateEncoding } from './compress.ts';

describe('negotiateEncoding', () => {
  it.each([
    ['gzip, deflate, br, zstd', 'br'], // Chromium
    ['gzip, deflate', 'gzip'], // Node's fetch
    ['br;q=0.5, gzip', 'gzip'],
    ['gzip;q=0.2, br;q=0.8', 'br'],
    ['br;q=0, gzip;q=0', null],
    ['br;q=0, *', 'gzip'],
    ['*', 'br'],
    ['*;q=0', null],
    ['identity', null],
    ['x-gzip', 'gzip'],
    ['BR', 'br'],
    ['br;q=2', null], // a weight above 1 is not a weight: refused, not trusted
    ['', null],
  ])('%j → %s', (header, expected) => {
    expect(negotiateEncoding(header)).toBe(expected);
  });
  it('answers null without the header', () => expect(negotiateEncoding(undefined)).toBeNull());
});

describe('isCompressible', () => {
  it.each([
    ['application/json', true],
    ['application/json; charset=utf-8', true],
    ['text/javascript; charset=utf-8', true],
    ['text/css', true],
    ['image/svg+xml', true],
    ['application/manifest+json', true],
    ['application/problem+json', true],
    ['text/event-stream', false],
    ['audio/mpeg', false],
    ['audio/wav', false],
    ['image/png', false],
    ['application/octet-stream', false],
  ])('%s → %s', (type, expected) => expect(isCompressible(type)).toBe(expected));
});
