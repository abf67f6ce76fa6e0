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

type Line = { start: string; end: string; cc: string; nextStart: string | null };

/** Every `step`-th line of the database's own CSV, with the start of the line after it. */
async function csvLines(file: string, step: number): Promise<Line[]> {
  const lines = (await readFile(join(packageDir, file), 'latin1')).trim().split('\n');
  const out: Line[] = [];
  for (let i = 0; i < lines.length; i += step) {
    const [start = '', end = '', cc = ''] = lines[i]!.split(',');
    out.push({ start, end, cc, nextStart: lines[i + 1]?.split(',')[0] ?? null });
  }
  return out;
}

/** An IPv6 address as a number (written out here with BigInt, not by the code under test). */
function v6Number(address: string): bigint {
  const [head = '', tail] = address.split('::');
  const left = head ? head.split(':') : [];
  const right = tail ? tail.split(':') : [];
  const groups = tail === undefined ? left : [...left, ...Array<string>(8 - left.length - right.length).fill('0'), ...right];
  return groups.reduce((n, g) => (n << 16n) | BigInt(parseInt(g, 16)), 0n);
}
const v4Number = (a: string) => BigInt(a.split('.').reduce((n, p) => n * 256 + Number(p), 0));
const v4Text = (n: number) => [n >>> 24, (n >>> 16) & 255, (n >>> 8) & 255, n & 255].join('.');
const LOW64 = 2n ** 64n - 1n;

describe('country lookup', () => {
  it('places the first and last address of ranges taken from the database file in their country', async () => {
    // Ranges with sub-ranges of another country inside (the line after starts within them) are
    // left out here: their ends may belong to the sub-range (next test).
    const leaf = (l: Line, num: (a: string) => bigint) => l.nextStart === null || num(l.nextStart) > num(l.end);
    const v4 = (await csvLines('geo-whois-asn-country-ipv4.csv', 5_000)).filter((l) => leaf(l, v4Number));
    // The table keeps IPv6 by /64 (the network a listener's address is hashed by): ranges that
    // split a /64 between countries are left out too.
    const v6 = (await csvLines('geo-whois-asn-country-ipv6.csv', 2_000)).filter(
      (l) => leaf(l, v6Number) && (v6Number(l.start) & LOW64) === 0n && (v6Number(l.end) & LOW64) === LOW64,
    );
    let checked = 0;
    for (const { start, end, cc } of [...v4, ...v6]) {
      // Ranges inside special-purpose blocks (the file places 172.16.0.0/12 in AU) are ZZ by design.
      if (/^(10\.|127\.|172\.(1[6-9]|2\d|3[01])\.|192\.168\.|100\.(6[4-9]|[7-9]\d|1[01]\d|12[0-7])\.)/.test(start)) continue;
      expect(geo.country(start), start).toBe(cc);
      expect(geo.country(end), end).toBe(cc);
      checked++;
    }
    expect(checked).toBeGreaterThan(100);
    // An IPv4-mapped IPv6 address is its IPv4 address.
    const { start, cc } = v4[v4.length - 1]!;
    expect(geo.country(`::ffff:${start}`)).toBe(cc);
  });

  it('gives a sub-range its own country inside a range of another', async () => {
    const text = (await readFile(join(packageDir, 'geo-whois-asn-country-ipv4-num.csv'), 'latin1')).trim().split('\n');
    const lines = { length: text.length, at: (i: number) => text[i]!.split(',') };
    let checked = 0;
    for (let i = 0; i + 2 < lines.length && checked < 20; i++) {
      const [ps, pe, pcc] = lines.at(i);
      const [cs, ce, ccc] = lines.at(i + 1);
      const [ns] = lines.at(i + 2);
      const [p0, p1, c0, c1, n0] = [Number(ps), Number(pe), Number(cs), Number(ce), Number(ns)];
      // A parent whose first child starts after the parent's start and ends before its end, with
      // no range of its own inside.
      if (!(c0 > p0 && c1 < p1 && ccc !== pcc && n0 > c1)) continue;
      expect(geo.country(v4Text(c0)), `${cs} in ${ps}-${pe}`).toBe(ccc);
      expect(geo.country(v4Text(c1)), `${ce} in ${ps}-${pe}`).toBe(ccc);
      expect(geo.country(v4Text(c0 - 1)), `before ${cs}`).toBe(pcc);
      checked++;
    }
    expect(checked).toBeGreaterThanOrEqual(20);
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

