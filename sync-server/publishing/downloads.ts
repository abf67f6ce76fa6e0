// Raw download events of public audio, written off the request path. A request hands its event to
// `record` (no await, no database) and is answered; the buffer is written in one INSERT when it
// holds BATCH_MAX events or FLUSH_MS after its first one, and on close (server shutdown).
//
//   request ──record(event)──> buffer ──200 ms or 500 events──> country, hash addresses ──one INSERT──> download_events
//                                       (geo table; the day's salt, download_salts)
//
// What a crash can lose: the events in the buffer (at most ~200 ms of downloads, or 500 events) and
// those of a flush that was running; a flush that fails is logged and its events dropped, so a
// database outage never grows the buffer without bound. Counting downloads tolerates that: the IAB
// rules count a listener's requests over a day, and one lost request of many changes nothing.
//
// Addresses are held in memory until their flush (so the request does not wait for the day's salt)
// and never written: listener_hash = SHA-256(salt ‖ address ‖ user agent), IPv6 cut to its /64.
// listener_hash_previous is the same under the previous day's salt, so that the counting job
// (sync-server/analytics/counting.ts) finds a listener's window across midnight UTC. The country
// is looked up here too (sync-server/analytics/geo.ts, ~1 µs an address), from the address about
// to be hashed: the request never waits for it, and the table is loaded at the first flush that
// has an address (requests without a socket, in tests, have none and never load it).
import { createHash, randomBytes } from 'node:crypto';
import { isIP } from 'node:net';
import type { Queryable, Store } from '../store/store.ts';
import { geoTable, UNKNOWN_COUNTRY, type GeoTable } from '../analytics/geo.ts';

export type DownloadEvent = {
  at: Date;
  clipId: string | null;
  organizationId: string | null;
  programId: string | null;
  method: string;
  status: number;
  rangeHeader: string | null;
  rangeStart: number | null;
  rangeEnd: number | null;
  bytesSent: number;
  userAgent: string | null;
  source: string | null;
  adFree: boolean;
  /** Never stored: hashed at flush. */
  address: string;
};

export type DownloadRecorder = {
  record(event: DownloadEvent): void;
  /** Writes what the buffer holds now (tests, and close). */
  flush(): Promise<void>;
  /** Flushes and takes no timer any more (server shutdown). */
  close(): Promise<void>;
};

const FLUSH_MS = 200;
const BATCH_MAX = 500;
/** Salts older than this many days are deleted: a day's salt lives through the next day (that day's
 *  events are hashed with it too, as listener_hash_previous), then goes. */
const SALT_DAYS_KEPT = 1;

/** The part of an address that is hashed: an IPv6 address's /64 (its network, not its host), an
 * IPv4 address (or an IPv4-mapped IPv6 one) as it is. */
export function addressForHash(address: string): string {
  const a = address.trim().replace(/^\[|\]$/g, '').replace(/%.*$/, '');
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(a);
  if (mapped) return mapped[1]!;
  if (isIP(a) !== 6) return a;
  const [head = '', tail = ''] = a.split('::');
  const left = head === '' ? [] : head.split(':');
  const right = a.includes('::') ? (tail === '' ? [] : tail.split(':')) : [];
  // An embedded IPv4 tail counts as two groups.
  const groups = (parts: string[]) => parts.flatMap((p) => (p.includes('.') ? ['0', '0'] : [p]));
  const l = groups(left);
  const r = groups(right);
  const full = a.includes('::') ? [...l, ...Array<string>(8 - l.length - r.length).fill('0'), ...r] : l;
  return `${full.slice(0, 4).map((g) => parseInt(g, 16).toString(16)).join(':')}::/64`;
}

export function listenerHash(salt: string, address: string, userAgent: string | null): string {
  return createHash('sha256').update(`${salt}\n${addressForHash(address)}\n${userAgent ?? ''}`).digest('hex');
}

const dayOf = (at: Date) => at.toISOString().slice(0, 10);
const dayBefore = (day: string) => new Date(Date.parse(`${day}T00:00:00Z`) - 86_400_000).toISOString().slice(0, 10);

/** The day's salt (made by whichever instance asks first), and the salts of old days deleted. */
async function saltOf(q: Queryable, day: string): Promise<string> {
  await q.query(`INSERT INTO download_salts (day, salt) VALUES ($1::date, $2) ON CONFLICT (day) DO NOTHING`, [day, randomBytes(32).toString('hex')]);
  await q.query(`DELETE FROM download_salts WHERE day < $1::date - $2::int`, [day, SALT_DAYS_KEPT]);
  const [row] = await q.query<{ salt: string }>(`SELECT salt FROM download_salts WHERE day = $1::date`, [day]);
  if (!row) throw new Error(`no download salt for ${day}`);
  return row.salt;
}

export function downloadRecorder(store: Store, options: { onError?: (err: unknown) => void; geo?: () => Promise<GeoTable> } = {}): DownloadRecorder {
  const geo = options.geo ?? geoTable;
  const onError = options.onError ?? ((err: unknown) => console.error('download events: a batch was not written:', err));
  let buffer: DownloadEvent[] = [];
  let timer: NodeJS.Timeout | null = null;
  let closed = false;
  let writing: Promise<void> = Promise.resolve();
  /** Salts by day, as read (a day's salt never changes once made). */
  const salts = new Map<string, string>();

  async function write(events: DownloadEvent[]): Promise<void> {
    const days = [...new Set(events.flatMap((e) => [dayOf(e.at), dayBefore(dayOf(e.at))]))];
    for (const day of days) if (!salts.has(day)) salts.set(day, await saltOf(store, day));
    for (const cached of salts.keys()) if (!days.includes(cached) && salts.size > 4) salts.delete(cached);
    const countries = events.some((e) => e.address !== '') ? await geo() : null;
    const rows = events.map((e) => ({
      at_utc: e.at.toISOString(),
      clip_id: e.clipId,
      organization_id: e.organizationId,
      program_id: e.programId,
      method: e.method,
      status: e.status,
      range_header: e.rangeHeader,
      range_start: e.rangeStart,
      range_end: e.rangeEnd,
      bytes_sent: e.bytesSent,
      user_agent: e.userAgent,
      source: e.source,
      ad_free: e.adFree,
      country: countries && e.address !== '' ? countries.country(e.address) : UNKNOWN_COUNTRY,
      listener_hash: listenerHash(salts.get(dayOf(e.at))!, e.address, e.userAgent),
      listener_hash_previous: listenerHash(salts.get(dayBefore(dayOf(e.at)))!, e.address, e.userAgent),
    }));
    await store.query(
      `INSERT INTO download_events (at_utc, clip_id, organization_id, program_id, method, status, range_header, range_start, range_end, bytes_sent, user_agent, source, ad_free, country, listener_hash, listener_hash_previous)
       SELECT at_utc, clip_id, organization_id, program_id, method, status, range_header, range_start, range_end, bytes_sent, user_agent, source, ad_free, country, listener_hash, listener_hash_previous
         FROM jsonb_to_recordset($1::jsonb) AS x(at_utc timestamptz, clip_id uuid, organization_id uuid, program_id uuid, method text, status smallint,
              range_header text, range_start bigint, range_end bigint, bytes_sent bigint, user_agent text, source text, ad_free boolean, country text, listener_hash text, listener_hash_previous text)`,
      [JSON.stringify(rows)],
    );
  }

  function flush(): Promise<void> {
    if (timer) clearTimeout(timer);
    timer = null;
    const events = buffer;
    buffer = [];
    if (events.length > 0) writing = writing.then(() => write(events)).catch(onError);
    return writing;
  }

  return {
    record(event) {
      buffer.push(event);
      if (buffer.length >= BATCH_MAX) void flush();
      else if (!timer && !closed) {
        timer = setTimeout(() => void flush(), FLUSH_MS);
        timer.unref();
      }
    },
    flush,
    async close() {
      closed = true;
      await flush();
    },
  };
}
