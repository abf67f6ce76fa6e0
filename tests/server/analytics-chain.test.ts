// From listening to the numbers, end to end: requests for an episode's audio handed to the real
// recorder (as the public audio endpoint hands them), counted by the real counting job, rolled up
// and read through the HTTP API in UTC and in two time zones either side of midnight UTC, as the
// admin and as the analyst demo user. The counts are by hand: three listeners around midnight UTC,
// one of them again 70 minutes later (the same download: a rolling 24 hours, across the salt's
// change at midnight), and a bot.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ORG_DEMO } from '../../sync-server/seed.ts';
import { downloadRecorder } from '../../sync-server/publishing/downloads.ts';
import { countDownloads } from '../../sync-server/analytics/counting.ts';
import type { DownloadsSeries } from '../../src/protocol/api/analytics-api.ts';
import { AppClient, seededApp, type SeededApp } from './app-client.ts';
import { openTestStore, type TestStore } from './test-store.ts';

const SIZE = 28_800_000;
const APPLE = 'AppleCoreMedia/1.0.0.20E252 (iPhone; U; CPU OS 16_4_1 like Mac OS X; en_us)';
const BOT = 'Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)';

let test: TestStore;
let seeded: SeededApp;

beforeAll(async () => {
  test = await openTestStore('pglite');
  seeded = await seededApp(test.store);
}, 120_000);
afterAll(async () => {
  await test?.drop();
});

describe('downloads from the recorder to the API', () => {
  it('counts listeners around midnight UTC once each and gives each local day its downloads', async () => {
    const [clip] = await test.store.query<{ id: string; program_id: string }>(
      `SELECT id, program_id FROM clips WHERE organization_id = $1 AND program_id IS NOT NULL AND NOT deleted ORDER BY id LIMIT 1`,
      [ORG_DEMO],
    );
    await test.store.query(`UPDATE clips SET data = data || '{"PublishedAudioSizeInBytes": ${SIZE}, "PublishedDurationSeconds": 3600}'::jsonb WHERE id = $1`, [clip!.id]);
    const recorder = downloadRecorder(test.store);
    const listen = (at: string, address: string, userAgent: string) =>
      recorder.record({
        at: new Date(at),
        clipId: clip!.id,
        organizationId: ORG_DEMO,
        programId: clip!.program_id,
        method: 'GET',
        status: 200,
        rangeHeader: null,
        rangeStart: null,
        rangeEnd: null,
        bytesSent: SIZE,
        userAgent,
        source: 'feed',
        adFree: false,
        address,
      });
    listen('2025-03-10T23:30:00.000Z', '203.0.113.1', APPLE); // a download
    listen('2025-03-10T23:45:00.000Z', '203.0.113.2', APPLE); // a download
    listen('2025-03-11T00:30:00.000Z', '203.0.113.3', APPLE); // a download
    listen('2025-03-11T00:40:00.000Z', '203.0.113.1', APPLE); // the first listener again within 24 h: none
    listen('2025-03-11T00:50:00.000Z', '66.249.66.1', BOT); // a bot: none
    await recorder.close();
    expect(await countDownloads(test.store)).toEqual({ events: 5, downloads: 3 });

    const days = (s: DownloadsSeries) => s.Points.map((p) => [p.Start, p.Downloads]);
    const series = async (client: AppClient, zone: string) => {
      const reply = await client.get(`/api/v1/analytics/downloads?interval=day&startDate=2025-03-10&endDate=2025-03-11&timeZoneIanaId=${encodeURIComponent(zone)}`);
      expect(reply.status, reply.text).toBe(200);
      return reply.body as DownloadsSeries;
    };
    for (const email of ['demo@example.com', 'analyst@example.com']) {
      const client = new AppClient(seeded.app);
      await client.login(email);
      client.organizationId = ORG_DEMO;
      // UTC: two on the 10th (23:30, 23:45), one on the 11th (00:30).
      expect(days(await series(client, 'UTC')), email).toEqual([
        ['2025-03-10T00:00:00+00:00', 2],
        ['2025-03-11T00:00:00+00:00', 1],
      ]);
      // Los Angeles (PDT, UTC-7 since 9 March): all three in the afternoon of the 10th.
      expect(days(await series(client, 'America/Los_Angeles')), email).toEqual([
        ['2025-03-10T00:00:00-07:00', 3],
        ['2025-03-11T00:00:00-07:00', 0],
      ]);
      // Auckland (NZDT, UTC+13 until 6 April): all three around midday on the 11th.
      const akl = await series(client, 'Pacific/Auckland');
      expect(days(akl), email).toEqual([
        ['2025-03-10T00:00:00+13:00', 0],
        ['2025-03-11T00:00:00+13:00', 3],
      ]);
      expect(akl.Total).toBe(3);
    }
  });
});
