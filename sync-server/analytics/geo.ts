// Country of a listener's address, for the analytics' country dimension (section 7). The raw
// download events keep no address (only the day's salted hash), so the recorder looks the country
// up at its flush, where it hashes the addresses (sync-server/publishing/downloads.ts), never in
// the request.
//
// The database: @ip-location-db/geo-whois-asn-country, from the npm registry. CC0 (the package),
// made from the RIRs' whois and ASN data and the NRO's delegation statistics (CC BY 4.0:
// attribution to nro.net, given in the README). Chosen over @ip-location-db/dbip-country (CC BY
// 4.0, attribution on every use) and geoip-country / geoip-lite (MaxMind's GeoLite2 licence, which
// binds whoever redistributes it). Country by registration, not by GPS: good for a country
// breakdown, which is all the analytics ask of it.
//
//   csv (IPv4 as numbers, IPv6 as text) ──parse once, in slices──> sorted ranges, neighbours of one
//   country merged ──> typed arrays (7 MB; cached on disk) ──lookup: binary search, ~1 µs──>
//   ISO 3166-1 alpha-2 | 'ZZ'
//
// IPv4: start and end as uint32. IPv6: the first 64 bits only (a network, as the recorder hashes
// an IPv6 address by its /64); the few ranges that split a /64 between countries answer with the
// last of them. Private, loopback,
// link-local and other special-purpose addresses are 'ZZ' before any lookup: the file itself
// places 172.16.0.0/12 in AU, for instance.
import { mkdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { isIP } from 'node:net';

export const UNKNOWN_COUNTRY = 'ZZ';

export type GeoTable = {
  /** ISO 3166-1 alpha-2, or 'ZZ' for an address that is private, special or not in the database. */
  country(address: string): string;
  /** Ranges kept (after merging neighbours of one country). */
  readonly ranges: { v4: number; v6: number };
  /** Bytes of the typed arrays that hold the ranges. */
  readonly bytes: number;
  /**
   * Real public IPv4 addresses the table places in `country` (the demo's listeners and tests, so
   * that their countries come out right): `count` of them, from ranges `pick(n)` chooses among the
   * country's n ranges. Empty for a country the table does not know.
   */
  addressesIn(country: string, count: number, pick: (n: number) => number): string[];
};

type V4 = { start: Uint32Array; end: Uint32Array; cc: Uint16Array };
/** IPv6 first 64 bits as two uint32 halves (BigInt parsing and comparing cost ten times more). */
type V6 = { startHi: Uint32Array; startLo: Uint32Array; endHi: Uint32Array; endLo: Uint32Array; cc: Uint16Array };

const PACKAGE = '@ip-location-db/geo-whois-asn-country';
/** Lines parsed between two yields to the event loop (a slice takes a few milliseconds). */
const SLICE = 20_000;

const packCc = (a: number, b: number) => (a << 8) | b;
const unpackCc = (n: number) => String.fromCharCode(n >> 8, n & 0xff);

/** The package's folder (its CSV files are not modules: found next to its package.json). */
function packageDir(): string {
  return dirname(createRequire(import.meta.url).resolve(`${PACKAGE}/package.json`));
}

const yieldToRequests = () => new Promise<void>((resolve) => setImmediate(resolve));

function lineCount(text: string): number {
  let n = 0;
  for (let i = text.indexOf('\n'); i !== -1; i = text.indexOf('\n', i + 1)) n++;
  return text.endsWith('\n') ? n : n + 1;
}

/** "16777216,16777471,AU" lines (the file's ranges are sorted and disjoint). */
async function parseV4(text: string): Promise<V4> {
  const lines = lineCount(text);
  const start = new Uint32Array(lines);
  const end = new Uint32Array(lines);
  const cc = new Uint16Array(lines);
  let n = 0;
  let i = 0;
  while (i < text.length) {
    let s = 0;
    for (let c = text.charCodeAt(i); c !== 44; c = text.charCodeAt(++i)) s = s * 10 + (c - 48);
    i++;
    let e = 0;
    for (let c = text.charCodeAt(i); c !== 44; c = text.charCodeAt(++i)) e = e * 10 + (c - 48);
    i++;
    const code = packCc(text.charCodeAt(i), text.charCodeAt(i + 1));
    i += 3; // "AU\n"
    start[n] = s;
    end[n] = e;
    cc[n] = code;
    n++;
    if (n % SLICE === 0) await yieldToRequests();
  }
  const flat = flatten({ startHi: new Uint32Array(n), startLo: start, endHi: new Uint32Array(n), endLo: end, cc }, n);
  return { start: flat.startLo, end: flat.endLo, cc: flat.cc };
}

/**
 * Disjoint ranges from the file's, which nest: a block, then the sub-blocks of it registered to
 * another country (154.14.96.0-154.14.99.255 DE, then 154.14.96.88-154.14.96.95 PL, …; 6,825
 * IPv4 and 703 IPv6 lines start inside an earlier range). The innermost range wins; the parent's
 * country resumes after it; neighbours of one country become one range. Keys are (hi, lo) uint32
 * pairs (IPv4: hi 0). Input sorted by start, as the file is.
 */
function flatten(raw: V6, n: number): V6 {
  const out = { startHi: new Uint32Array(n * 2), startLo: new Uint32Array(n * 2), endHi: new Uint32Array(n * 2), endLo: new Uint32Array(n * 2), cc: new Uint16Array(n * 2) };
  let m = 0;
  const le = (aH: number, aL: number, bH: number, bL: number) => aH < bH || (aH === bH && aL <= bL);
  /** Appends [a, b] of one country (b >= a), joined to the previous range when they touch. */
  const emit = (aH: number, aL: number, bH: number, bL: number, code: number) => {
    if (!le(aH, aL, bH, bL)) return;
    const p = m - 1;
    if (p >= 0 && out.cc[p] === code) {
      const [nH, nL] = out.endLo[p] === 0xffffffff ? [out.endHi[p]! + 1, 0] : [out.endHi[p]!, out.endLo[p]! + 1];
      if (nH === aH && nL === aL) {
        out.endHi[p] = bH;
        out.endLo[p] = bL;
        return;
      }
    }
    out.startHi[m] = aH;
    out.startLo[m] = aL;
    out.endHi[m] = bH;
    out.endLo[m] = bL;
    out.cc[m] = code;
    m++;
  };
  // Open ranges, outermost first; cursor: the first key not yet emitted.
  const stack: Array<{ hi: number; lo: number; cc: number }> = [];
  let cH = 0;
  let cL = 0;
  const closeTop = () => {
    const top = stack.pop()!;
    if (le(cH, cL, top.hi, top.lo)) {
      emit(cH, cL, top.hi, top.lo, top.cc);
      [cH, cL] = top.lo === 0xffffffff ? [top.hi + 1, 0] : [top.hi, top.lo + 1];
    }
  };
  for (let i = 0; i < n; i++) {
    const sH = raw.startHi[i]!;
    const sL = raw.startLo[i]!;
    while (stack.length > 0 && !le(sH, sL, stack[stack.length - 1]!.hi, stack[stack.length - 1]!.lo)) closeTop();
    const top = stack[stack.length - 1];
    if (top && le(cH, cL, sH, sL) && !(cH === sH && cL === sL)) {
      const [bH, bL] = sL === 0 ? [sH - 1, 0xffffffff] : [sH, sL - 1];
      emit(cH, cL, bH, bL, top.cc);
    }
    [cH, cL] = [sH, sL];
    stack.push({ hi: raw.endHi[i]!, lo: raw.endLo[i]!, cc: raw.cc[i]! });
  }
  while (stack.length > 0) closeTop();
  return { startHi: out.startHi.slice(0, m), startLo: out.startLo.slice(0, m), endHi: out.endHi.slice(0, m), endLo: out.endLo.slice(0, m), cc: out.cc.slice(0, m) };
}

/** Groups of an IPv6 address, written by parseGroups: the first 64 bits as two halves. */
const halves = { hi: 0, lo: 0 };
const groupBuf = new Uint16Array(8);

/**
 * The first 64 bits of the IPv6 address text[from, to) into `halves`; false when it is not one.
 * By character codes, without making strings (the file has 432,000 addresses).
 */
function parseGroups(text: string, from: number, to: number): boolean {
  let count = 0;
  let gap = -1; // index in groupBuf where '::' stands
  let value = 0;
  let digits = 0;
  for (let i = from; i < to; i++) {
    const c = text.charCodeAt(i);
    if (c === 58) {
      // ':' ends a group; '::' stands for the zero groups between
      const double = i + 1 < to && text.charCodeAt(i + 1) === 58;
      if (digits > 0) {
        if (count === 8) return false;
        groupBuf[count++] = value;
      } else if (!double) return false;
      if (double) {
        if (gap !== -1) return false;
        gap = count;
        i++;
      }
      value = 0;
      digits = 0;
      continue;
    }
    if (c === 46) {
      // An embedded IPv4 tail: two groups of the low 64 bits, whose value does not matter here.
      if (count > 6) return false;
      groupBuf[count++] = 0;
      groupBuf[count++] = 0;
      digits = 0;
      break;
    }
    const d = c >= 48 && c <= 57 ? c - 48 : c >= 97 && c <= 102 ? c - 87 : c >= 65 && c <= 70 ? c - 55 : -1;
    if (d < 0 || ++digits > 4) return false;
    value = value * 16 + d;
  }
  if (digits > 0) {
    if (count === 8) return false;
    groupBuf[count++] = value;
  }
  if (gap === -1 ? count !== 8 : count > 7) return false;
  const missing = 8 - count;
  const group = (k: number) => (gap === -1 || k < gap ? groupBuf[k]! : k < gap + missing ? 0 : groupBuf[k - missing]!);
  halves.hi = (group(0) * 65536 + group(1)) >>> 0;
  halves.lo = (group(2) * 65536 + group(3)) >>> 0;
  return true;
}

/** "2001:200::,2001:218:2000:51:ffff:ffff:ffff:ffff,AU" lines. */
async function parseV6(text: string): Promise<V6> {
  const lines = lineCount(text);
  const startHi = new Uint32Array(lines);
  const startLo = new Uint32Array(lines);
  const endHi = new Uint32Array(lines);
  const endLo = new Uint32Array(lines);
  const cc = new Uint16Array(lines);
  let n = 0;
  let i = 0;
  let read = 0;
  while (i < text.length) {
    let nl = text.indexOf('\n', i);
    if (nl === -1) nl = text.length;
    const c1 = text.indexOf(',', i);
    const c2 = text.indexOf(',', c1 + 1);
    if (parseGroups(text, i, c1)) {
      const sHi = halves.hi;
      const sLo = halves.lo;
      if (parseGroups(text, c1 + 1, c2)) {
        const code = packCc(text.charCodeAt(c2 + 1), text.charCodeAt(c2 + 2));
        startHi[n] = sHi;
        startLo[n] = sLo;
        endHi[n] = halves.hi;
        endLo[n] = halves.lo;
        cc[n] = code;
        n++;
      }
    }
    i = nl + 1;
    if (++read % SLICE === 0) await yieldToRequests();
  }
  return flatten({ startHi, startLo, endHi, endLo, cc }, n);
}

/** Index of the last range starting at or before `x` (-1 when none). */
function lastAtOrBefore(starts: Uint32Array, x: number): number {
  let lo = 0;
  let hi = starts.length - 1;
  let found = -1;
  while (lo <= hi) {
    const mid = (lo + hi) >>> 1;
    if (starts[mid]! <= x) {
      found = mid;
      lo = mid + 1;
    } else hi = mid - 1;
  }
  return found;
}

/** The same over IPv6 halves: the last range whose (hi, lo) start is at or before (xHi, xLo). */
function lastAtOrBefore64(hiStarts: Uint32Array, loStarts: Uint32Array, xHi: number, xLo: number): number {
  let lo = 0;
  let hi = hiStarts.length - 1;
  let found = -1;
  while (lo <= hi) {
    const mid = (lo + hi) >>> 1;
    const h = hiStarts[mid]!;
    if (h < xHi || (h === xHi && loStarts[mid]! <= xLo)) {
      found = mid;
      lo = mid + 1;
    } else hi = mid - 1;
  }
  return found;
}

function ipv4Number(address: string): number | null {
  const parts = address.split('.');
  if (parts.length !== 4) return null;
  let n = 0;
  for (const p of parts) {
    const v = Number(p);
    if (!Number.isInteger(v) || v < 0 || v > 255) return null;
    n = n * 256 + v;
  }
  return n;
}

/** IPv4 addresses no registry places in a country (RFC 6890 special-purpose blocks, multicast,
 *  reserved), as [first, last] inclusive. */
const SPECIAL_V4: Array<[number, number]> = (
  [
    ['0.0.0.0', 8],
    ['10.0.0.0', 8],
    ['100.64.0.0', 10],
    ['127.0.0.0', 8],
    ['169.254.0.0', 16],
    ['172.16.0.0', 12],
    ['192.0.0.0', 24],
    ['192.0.2.0', 24],
    ['192.168.0.0', 16],
    ['198.18.0.0', 15],
    ['198.51.100.0', 24],
    ['203.0.113.0', 24],
    ['224.0.0.0', 3],
  ] as const
).map(([base, bits]) => {
  const start = ipv4Number(base)!;
  return [start, start + 2 ** (32 - bits) - 1];
});

/** IPv6 (by its first 32 bits) outside global unicast 2000::/3, or in its documentation block. */
function specialV6(hi: number): boolean {
  const top = hi >>> 16;
  if (top < 0x2000 || top > 0x3fff) return true; // ::, ::1, fc00::/7 (unique local), fe80::/10, ff00::/8, …
  return hi === 0x20010db8; // 2001:db8::/32, documentation
}

function makeTable(v4: V4, v6: V6): GeoTable {
  const inV4 = (n: number): string => {
    for (const [s, e] of SPECIAL_V4) if (n >= s && n <= e) return UNKNOWN_COUNTRY;
    const i = lastAtOrBefore(v4.start, n);
    return i >= 0 && n <= v4.end[i]! ? unpackCc(v4.cc[i]!) : UNKNOWN_COUNTRY;
  };
  return {
    country(address) {
      const a = address.trim().replace(/^\[|\]$/g, '').replace(/%.*$/, '');
      const kind = isIP(a);
      if (kind === 4) return inV4(ipv4Number(a)!);
      if (kind !== 6) return UNKNOWN_COUNTRY;
      const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(a);
      if (mapped) return inV4(ipv4Number(mapped[1]!)!);
      if (!parseGroups(a, 0, a.length) || specialV6(halves.hi)) return UNKNOWN_COUNTRY;
      const { hi, lo } = halves;
      const i = lastAtOrBefore64(v6.startHi, v6.startLo, hi, lo);
      if (i < 0) return UNKNOWN_COUNTRY;
      const endHi = v6.endHi[i]!;
      return hi < endHi || (hi === endHi && lo <= v6.endLo[i]!) ? unpackCc(v6.cc[i]!) : UNKNOWN_COUNTRY;
    },
    addressesIn(country, count, pick) {
      const code = packCc(country.charCodeAt(0), country.charCodeAt(1));
      // Blocks of a /24 or more, as access networks are (the file has many single addresses).
      const mine: number[] = [];
      for (let i = 0; i < v4.cc.length; i++) if (v4.cc[i] === code && v4.end[i]! - v4.start[i]! >= 255) mine.push(i);
      if (mine.length === 0) return [];
      return Array.from({ length: count }, () => {
        const i = mine[pick(mine.length)]!;
        const first = v4.start[i]!;
        const last = v4.end[i]!;
        // Inside the range, away from its ends (a network's and a broadcast address).
        const n = first + 1 + Math.floor(((last - first - 2) * pick(1000)) / 999);
        return [n >>> 24, (n >>> 16) & 255, (n >>> 8) & 255, n & 255].join('.');
      });
    },
    ranges: { v4: v4.start.length, v6: v6.startHi.length },
    bytes: [v4.start, v4.end, v4.cc, v6.startHi, v6.startLo, v6.endHi, v6.endLo, v6.cc].reduce((n, a) => n + a.byteLength, 0),
  };
}

/**
 * Reads the database: from its compact cache when one was made for this version of the package
 * (a few milliseconds), else parsed from the CSV (~1-2 s of CPU cold, in slices that let requests
 * run between them) and the cache written for next time (node_modules/.cache, as other tools do;
 * a cache that cannot be written or read only costs the parse again).
 */
export async function loadGeoTable(options: { dir?: string; cacheDir?: string | null } = {}): Promise<GeoTable> {
  const dir = options.dir ?? packageDir();
  const version = (JSON.parse(await readFile(join(dir, 'package.json'), 'utf8')) as { version?: string }).version ?? 'unknown';
  const cacheDir = options.cacheDir === undefined ? join(dir, '..', '..', '.cache', 'castaway') : options.cacheDir;
  const cacheFile = cacheDir === null ? null : join(cacheDir, `geo-whois-asn-country-${version}-${CACHE_MAGIC.toString(16)}.bin`);
  if (cacheFile) {
    const cached = await readFile(cacheFile).then(fromCache, () => null);
    if (cached) return makeTable(cached.v4, cached.v6);
  }
  const [v4Text, v6Text] = await Promise.all([
    readFile(join(dir, 'geo-whois-asn-country-ipv4-num.csv'), 'latin1'),
    readFile(join(dir, 'geo-whois-asn-country-ipv6.csv'), 'latin1'),
  ]);
  const v4 = await parseV4(v4Text);
  const v6 = await parseV6(v6Text);
  if (cacheFile) {
    const tmp = `${cacheFile}.${process.pid}.tmp`;
    await mkdir(dirname(cacheFile), { recursive: true })
      .then(() => writeFile(tmp, toCache(v4, v6)))
      .then(() => rename(tmp, cacheFile))
      .catch(() => rm(tmp, { force: true }));
  }
  return makeTable(v4, v6);
}

/** Changes whenever the cached layout or what is cached changes (2: nested ranges flattened). */
const CACHE_MAGIC = 0x6f656702;

/** [magic, v4 count, v6 count] then the uint32 columns, then the uint16 ones (aligned as they are). */
function toCache(v4: V4, v6: V6): Uint8Array {
  const parts = [new Uint32Array([CACHE_MAGIC, v4.start.length, v6.startHi.length]), v4.start, v4.end, v6.startHi, v6.startLo, v6.endHi, v6.endLo, v4.cc, v6.cc];
  return Buffer.concat(parts.map((p) => new Uint8Array(p.buffer, p.byteOffset, p.byteLength)));
}

function fromCache(file: Buffer): { v4: V4; v6: V6 } | null {
  // A fresh ArrayBuffer: typed views need an aligned offset.
  const buf = new Uint8Array(file).buffer;
  if (buf.byteLength < 12) return null;
  const [magic, n4 = 0, n6 = 0] = new Uint32Array(buf, 0, 3);
  if (magic !== CACHE_MAGIC || buf.byteLength !== 12 + (n4 * 2 + n6 * 4) * 4 + (n4 + n6) * 2) return null;
  let at = 12;
  const u32 = (n: number) => {
    const a = new Uint32Array(buf, at, n);
    at += n * 4;
    return a;
  };
  const u16 = (n: number) => {
    const a = new Uint16Array(buf, at, n);
    at += n * 2;
    return a;
  };
  const v4 = { start: u32(n4), end: u32(n4) };
  const v6 = { startHi: u32(n6), startLo: u32(n6), endHi: u32(n6), endLo: u32(n6) };
  return { v4: { ...v4, cc: u16(n4) }, v6: { ...v6, cc: u16(n6) } };
}

/** A table that knows no country (the database could not be read). */
const NO_TABLE: GeoTable = { country: () => UNKNOWN_COUNTRY, addressesIn: () => [], ranges: { v4: 0, v6: 0 }, bytes: 0 };

let shared: Promise<GeoTable> | null = null;

/**
 * The process's table, loaded at the first call (a server that records no download never reads
 * it). When the database cannot be read, every address is 'ZZ' (said once): downloads are still
 * counted, without a country.
 */
export function geoTable(): Promise<GeoTable> {
  shared ??= loadGeoTable().catch((err: unknown) => {
    console.error(`country lookup: ${PACKAGE} could not be read; countries will be ZZ:`, err);
    return NO_TABLE;
  });
  return shared;
}
