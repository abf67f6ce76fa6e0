// The country of a listener's address (sync-server/analytics/geo.ts), checked against the
// database's own CSV: ranges read from the file must come out as the file says, special-purpose
// addresses as ZZ, and the compact cache must give the same answers as the parse.
import { readFile, mkdtemp, rm } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadGeoTable, type GeoTable } from '../../sync-server/analytics/geo.ts';

const packageDir = dirname(createRequire(import.meta.url).resolve('@ip-location-db/geo-whois-asn-country/package.json'));

let geo: GeoTable;
let cacheDir: string;

beforeAll(async () => {
  // A cache of its own: the parse itself is what is tested first.
  cacheDir = await mkdtemp(join(tmpdir(), 'castaway-geo-'));
  geo = await loadGeoTable({ cacheDir });
}, 30_000);
afterAll(async () => {
  if (cacheDir) await rm(cacheDir, { recursive: true, force: true });
});

/** Lines of the database's own CSV, every `step`-th. */
async function csvLines(file: string, step: number): Promise<Array<[string, string, string]>> {
  const lines = (await readFile(join(packageDir, file), 'latin1')).trim().split('\n');
  return lines.filter((_, i) => i % step === 0).map((l) => l.split(',') as [string, string, string]);
}

/** The low 64 bits of an IPv6 address (written out here with BigInt, not by the code under test). */
function low64(address: string): bigint {
  const [head = '', tail] = address.split('::');
  const left = head ? head.split(':') : [];
  const right = tail ? tail.split(':') : [];
  const groups = tail === undefined ? left : [...left, ...Array<string>(8 - left.length - right.length).fill('0'), ...right];
  return groups.slice(4).reduce((n, g) => (n << 16n) | BigInt(parseInt(g, 16)), 0n);
}

describe('country lookup', () => {
  it('places the first and last address of ranges taken from the database file in their country', async () => {
    const v4 = await csvLines('geo-whois-asn-country-ipv4.csv', 5_000);
    // The table keeps IPv6 by /64 (the network a listener's address is hashed by): ranges that
    // split a /64 between countries are left out here.
    const v6 = (await csvLines('geo-whois-asn-country-ipv6.csv', 2_000)).filter(([s, e]) => low64(s) === 0n && low64(e) === 2n ** 64n - 1n);
    let checked = 0;
    for (const [start, end, cc] of [...v4, ...v6]) {
      // Ranges inside special-purpose blocks (the file places 172.16.0.0/12 in AU) are ZZ by design.
      if (/^(10\.|127\.|172\.(1[6-9]|2\d|3[01])\.|192\.168\.|100\.(6[4-9]|[7-9]\d|1[01]\d|12[0-7])\.)/.test(start)) continue;
      expect(geo.country(start), start).toBe(cc);
      expect(geo.country(end), end).toBe(cc);
      checked++;
    }
    expect(checked).toBeGreaterThan(100);
    // An IPv4-mapped IPv6 address is its IPv4 address.
    const [start, , cc] = v4[v4.length - 1]!;
    expect(geo.country(`::ffff:${start}`)).toBe(cc);
  });

  it('gives private, loopback, link-local and documentation addresses ZZ, even where the file names a country', () => {
    expect(geo.country('172.16.5.4')).toBe('ZZ'); // in the file: 172.16.0.0-172.31.255.255 AU
    for (const a of ['10.1.2.3', '192.168.1.20', '127.0.0.1', '169.254.1.1', '100.64.0.1', '203.0.113.9', '::1', 'fe80::1%eth0', 'fd12:3456::1', '2001:db8::1', '', 'not an address']) {
      expect(geo.country(a), a).toBe('ZZ');
    }
  });

  it('reads the same table back from its cache', async () => {
    const cached = await loadGeoTable({ cacheDir });
    expect(cached.ranges).toEqual(geo.ranges);
    for (const a of ['8.8.8.8', '81.2.69.142', '1.0.0.1', '2a00:1450:4001:82a::200e', '2001:200::1']) expect(cached.country(a), a).toBe(geo.country(a));
    // Addresses it hands out for a country are in that country.
    const de = cached.addressesIn('DE', 20, (n) => Math.floor(n / 2));
    expect(de.map((a) => geo.country(a))).toEqual(Array(20).fill('DE'));
  });
});

