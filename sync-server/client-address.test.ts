// Whose address a request is (client-address.ts): the socket's, unless it is a trusted proxy.
import { describe, expect, it } from 'vitest';
import { parseTrustedProxies, resolveClient } from './client-address.ts';

describe('CASTAWAY_TRUSTED_PROXIES', () => {
  it('takes addresses and CIDR ranges of both families, and refuses anything else naming the entry', () => {
    expect(parseTrustedProxies(undefined)).toBeNull();
    expect(parseTrustedProxies(' , ')).toBeNull();
    expect(parseTrustedProxies('10.0.0.0/8, 127.0.0.1 ,fd00::/8')?.describe).toBe('10.0.0.0/8, 127.0.0.1, fd00::/8');
    for (const bad of ['10.0.0.0/33', 'fd00::/129', 'proxy.example', '10.0.0.0/8/1', '10.0.0.0/', '10.0.0.0/08', '256.0.0.1']) {
      expect(() => parseTrustedProxies(`127.0.0.1,${bad}`), bad).toThrow(`CASTAWAY_TRUSTED_PROXIES: "${bad}" is not an IP address or CIDR range`);
    }
  });
});

describe('the client of a request', () => {
  const trusted = parseTrustedProxies('10.0.0.0/8, 127.0.0.1, fd00::/8');

  it('is the socket when no proxy is trusted, or the socket is not one, whatever X-Forwarded-For says', () => {
    expect(resolveClient('198.51.100.7', '203.0.113.9', null)).toBe('198.51.100.7');
    expect(resolveClient('198.51.100.7', '203.0.113.9', trusted)).toBe('198.51.100.7');
    expect(resolveClient('10.1.2.3', undefined, trusted)).toBe('10.1.2.3');
  });

  it('behind trusted proxies is the right-most hop that is not one; what the client wrote to its left is ignored', () => {
    expect(resolveClient('10.1.2.3', '203.0.113.9', trusted)).toBe('203.0.113.9');
    expect(resolveClient('10.1.2.3', '1.2.3.4, 203.0.113.9, 10.9.9.9', trusted)).toBe('203.0.113.9');
    expect(resolveClient('::ffff:10.1.2.3', '2001:db8::5, fd00::1', trusted)).toBe('2001:db8::5');
    expect(resolveClient('127.0.0.1', '::ffff:203.0.113.9', trusted)).toBe('203.0.113.9');
  });

  it('stops at a hop that is not an address, and with only proxies takes the left-most', () => {
    expect(resolveClient('10.1.2.3', 'garbage, 10.9.9.9', trusted)).toBe('10.9.9.9');
    expect(resolveClient('10.1.2.3', 'unknown', trusted)).toBe('10.1.2.3');
    expect(resolveClient('10.1.2.3', '10.8.8.8, 10.9.9.9', trusted)).toBe('10.8.8.8');
  });
});
