// Clip and recording transcripts (issue 34), on PGlite and on PostgreSQL: set as JSON cues and imported from
// WebVTT, SRT and Podcasting 2.0 JSON files; read back in every format; bad input a 400 naming the
// cue or the file's line; 404 for a clip the caller may not see; reset and delete; TranscriptStatus
// in step; a word only in the transcript found by search (filterBy Transcript); published, the
// clip's feed item carries <podcast:transcript> (read by podcast-partytime and rss-parser, as the
// feed tests read feeds) and its URL serves the transcript to anyone.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseFeed } from 'podcast-partytime';
import Parser from 'rss-parser';
import { publicPaths } from '../../src/domain/public-urls.ts';
import { parseSrt, parseVtt } from '../../src/domain/transcripts.ts';
import type { Transcript } from '../../src/protocol/api/transcripts.ts';
import { createApp } from '../../sync-server/app.ts';
import { createMemoryBus } from '../../sync-server/bus.ts';
import { ORG_DEMO, ORG_PODCASTS, seed, seedId } from '../../sync-server/seed.ts';
import { AppClient } from './app-client.ts';
import { openTestStore, storeKinds, type TestStore } from './test-store.ts';

type App = ReturnType<typeof createApp>;
type ErrorBody = { Errors: Array<{ Field: string; Code: string; Message: string; MessageKey?: string }> };

const MORNING = seedId('program:morning');
const WORLD = seedId('program:world');

const VTT = `WEBVTT

00:00:00.500 --> 00:00:03.000
<v Ana>Good morning and welcome to the briefing.

00:00:03.000 --> 00:00:06.250
<v Ben>Today the harbour pelicans are back.
`;

const CUES = [
  { StartSeconds: 0.5, EndSeconds: 3, Text: 'Good morning and welcome to the briefing.', Speaker: 'Ana' },
  { StartSeconds: 3, EndSeconds: 6.25, Text: 'Today the harbour pelicans are back.', Speaker: 'Ben' },
];

describe.each(storeKinds)('clip transcripts on %s', (kind) => {
  let test: TestStore;
  let app: App;
  let api: AppClient;
  let clipId = '';

  beforeAll(async () => {
    test = await openTestStore(kind);
    await seed(test.store, { clips: 24 });
    app = createApp({ store: test.store, bus: createMemoryBus() });
    api = new AppClient(app);
    await api.login('demo@example.com');
    api.organizationId = ORG_DEMO;
    clipId = (await test.store.query<{ id: string }>(`SELECT id FROM clips WHERE program_id = $1 AND NOT deleted ORDER BY id LIMIT 1`, [MORNING]))[0]!.id;
  }, 120_000);

  afterAll(async () => {
    await test?.drop();
  });

  const path = (id = clipId) => `/api/v1/clips/${id}/transcript`;
  const importFile = (text: string, contentType: string, query = '', id = clipId) =>
    api.send('PUT', `/api/internal/clips/${id}/transcript/import${query}`, { raw: text, headers: { 'content-type': contentType } });
  const clip = async (id = clipId) => (await api.get(`/api/v1/clips/${id}`)).body as { TranscriptStatus: string | null; Urls: Record<string, string | null> };

  it('imports a WebVTT file, and reads it back in every format', async () => {
    expect((await clip()).TranscriptStatus).toBeNull();
    const imported = await importFile(VTT, 'text/vtt', '?language=en');
    expect(imported.status, imported.text).toBe(200);
    expect(imported.body).toMatchObject({ ClipId: clipId, Language: 'en', Published: false, PublicUrl: null, Cues: CUES, Edited: false });
    expect((await clip()).TranscriptStatus).toBe('Completed');

    const vtt = await api.get(`${path()}?format=vtt`);
    expect(vtt.status).toBe(200);
    expect(vtt.headers.get('content-type')).toBe('text/vtt; charset=utf-8');
    expect(parseVtt(vtt.text)).toEqual(parseVtt(VTT));
    // vtt is the default.
    expect((await api.get(path())).text).toBe(vtt.text);

    const srt = await api.get(`${path()}?format=srt&speakers=false`);
    expect(srt.headers.get('content-type')).toBe('application/x-subrip; charset=utf-8');
    expect(srt.text.startsWith('1\n00:00:00,500 --> 00:00:03,000\nGood morning')).toBe(true);
    expect(parseSrt(srt.text).ok).toBe(true);

    const json = await api.get(`${path()}?format=json&offsetIntro=10`);
    expect(json.headers.get('content-type')).toBe('application/json; charset=utf-8');
    expect(json.body).toEqual({
      version: '1.0.0',
      segments: [
        { speaker: 'Ana', startTime: 10.5, endTime: 13, body: 'Good morning and welcome to the briefing.' },
        { speaker: 'Ben', startTime: 13, endTime: 16.25, body: 'Today the harbour pelicans are back.' },
      ],
    });

    const text = await api.get(`${path()}?format=text`);
    expect(text.headers.get('content-type')).toBe('text/plain; charset=utf-8');
    expect(text.text).toBe('Ana: Good morning and welcome to the briefing.\n\nBen: Today the harbour pelicans are back.\n');
  });

  it('imports SRT and Podcasting 2.0 JSON by Content-Type', async () => {
    const srt = await importFile('1\n00:00:01,000 --> 00:00:02,000\nFirst words.\n', 'application/x-subrip');
    expect(srt.status, srt.text).toBe(200);
    expect((srt.body as Transcript).Cues).toEqual([{ StartSeconds: 1, EndSeconds: 2, Text: 'First words.', Speaker: null }]);
    const json = await importFile(JSON.stringify({ version: '1.0.0', segments: [{ speaker: 'Cy', startTime: 0, endTime: 1.5, body: 'Hello.' }] }), 'application/json');
    expect(json.status, json.text).toBe(200);
    expect((json.body as Transcript).Cues).toEqual([{ StartSeconds: 0, EndSeconds: 1.5, Text: 'Hello.', Speaker: 'Cy' }]);
  });

  it('a file that cannot be read is a 400 at body with its line; a bad cue a 400 at the cue', async () => {
    const badVtt = await importFile('WEBVTT\n\n00:00:01.000 --> 00:00:02.000\nFine.\n\n00:00:03.000 -> 00:00:04.000\nBroken.\n', 'text/vtt');
    expect(badVtt.status).toBe(400);
    expect((badVtt.body as ErrorBody).Errors).toMatchObject([{ Field: 'body', Code: 'invalid', MessageKey: 'domain_transcript_bad_timing' }]);
    expect((badVtt.body as ErrorBody).Errors[0]!.Message).toContain('Line 6');

    const badJson = await importFile('{\n  "segments": [\n    { "startTime": 1,, }\n  ]\n}', 'application/json');
    expect(badJson.status).toBe(400);
    expect((badJson.body as ErrorBody).Errors[0]!.Message).toContain('Line 3');

    const reversed = await api.send('PUT', path(), { json: { Cues: [CUES[0], { ...CUES[1], EndSeconds: 1 }] } });
    expect(reversed.status).toBe(400);
    expect((reversed.body as ErrorBody).Errors).toMatchObject([{ Field: 'Cues.1', MessageKey: 'domain_transcript_reversed' }]);

    const missing = await api.send('PUT', path(), { json: { Cues: [{ StartSeconds: 0, Text: 'No end' }] } });
    expect(missing.status).toBe(400);
    expect((missing.body as ErrorBody).Errors).toMatchObject([{ Field: 'Cues.0.EndSeconds', Code: 'required' }]);

    const empty = await api.send('PUT', path(), { json: { Cues: [] } });
    expect((empty.body as ErrorBody).Errors).toMatchObject([{ Field: 'Cues', Code: 'required' }]);
  });

  it('PUT JSON sets the cues; reset goes back to the cues as imported; delete removes it', async () => {
    expect((await importFile(VTT, 'text/vtt')).status).toBe(200);
    const edited = CUES.map((c, i) => (i === 1 ? { ...c, Text: 'Today the harbor pelicans are back.' } : c));
    const put = await api.send('PUT', path(), { json: { Cues: edited, Language: 'en-US' } });
    expect(put.status, put.text).toBe(200);
    expect(put.body).toMatchObject({ Cues: edited, Language: 'en-US', Edited: true });
    expect(((await api.get(`/api/internal/clips/${clipId}/transcript`)).body as Transcript).Cues[1]!.Text).toBe('Today the harbor pelicans are back.');

    const reset = await api.send('PUT', `/api/internal/clips/${clipId}/transcript/reset`);
    expect(reset.status, reset.text).toBe(200);
    expect(reset.body).toMatchObject({ Cues: CUES, Edited: false, Language: 'en-US' });

    expect((await api.delete(path())).status).toBe(204);
    expect((await clip()).TranscriptStatus).toBeNull();
    expect((await api.get(path())).status).toBe(404);
    expect((await api.get(`/api/internal/clips/${clipId}/transcript`)).status).toBe(404);
    expect((await api.delete(path())).status).toBe(404);
    expect((await api.send('PUT', `/api/internal/clips/${clipId}/transcript/reset`)).status).toBe(404);
  });

  it('a word only in the transcript is found by search with filterBy Transcript, and gone once deleted', async () => {
    const search = async () => {
      const reply = await api.get(`/api/v1/clips/search?filter=pelicans&filterBy=Transcript`);
      expect(reply.status, reply.text).toBe(200);
      return (reply.body as { Items: Array<{ Id: string }> }).Items.map((c) => c.Id);
    };
    expect(await search()).not.toContain(clipId);
    expect((await api.send('PUT', path(), { json: { Cues: CUES } })).status).toBe(200);
    expect(await search()).toEqual([clipId]);
    expect((await api.delete(path())).status).toBe(204);
    expect(await search()).toEqual([]);
  });

  it('a clip the caller may not see is a 404 for every call; another organization’s too', async () => {
    const worldClip = (await test.store.query<{ id: string }>(`SELECT id FROM clips WHERE program_id = $1 AND NOT deleted ORDER BY id LIMIT 1`, [WORLD]))[0]!.id;
    const podcastsClip = (await test.store.query<{ id: string }>(`SELECT id FROM clips WHERE organization_id = $1 AND NOT deleted ORDER BY id LIMIT 1`, [ORG_PODCASTS]))[0]!.id;
    const producer = new AppClient(app);
    await producer.login('producer@example.com');
    producer.organizationId = ORG_DEMO;
    for (const [who, id] of [
      [producer, worldClip],
      [api, podcastsClip],
    ] as const) {
      expect((await who.get(path(id))).status).toBe(404);
      expect((await who.send('PUT', path(id), { json: { Cues: CUES } })).status).toBe(404);
      expect((await who.send('PUT', `/api/internal/clips/${id}/transcript/import`, { raw: VTT, headers: { 'content-type': 'text/vtt' } })).status).toBe(404);
      expect((await who.delete(path(id))).status).toBe(404);
    }
    // The producer has content access on Morning Briefing: its clip is theirs to transcribe.
    expect((await producer.send('PUT', path(), { json: { Cues: CUES } })).status).toBe(200);
    // An account whose address is not confirmed reads but does not write (section 4).
    const newbie = new AppClient(app);
    await newbie.login('newbie@example.com');
    newbie.organizationId = ORG_DEMO;
    const refused = await newbie.send('PUT', path(), { json: { Cues: CUES } });
    expect([403, 404]).toContain(refused.status);
  });

  it('a recording’s transcript: set, imported, read as text, found by recording search, reset and deleted; unseen ones 404', async () => {
    const [recording] = await test.store.query<{ id: string }>(`SELECT id FROM recordings WHERE program_id = $1 AND NOT deleted ORDER BY id LIMIT 1`, [MORNING]);
    const id = recording!.id;
    const base = `/api/internal/recordings/${id}/transcript`;
    const text = `/api/v1/recordings/${id}/transcript`;
    const status = async () => ((await api.get(`/api/v1/recordings/${id}`)).body as { TranscriptStatus: string | null }).TranscriptStatus;
    const search = async () => ((await api.get(`/api/v1/recordings/search?filter=pelicans&filterBy=Transcript`)).body as { Items: Array<{ Id: string }> }).Items.map((r) => r.Id);
    expect(await search()).not.toContain(id);

    const imported = await api.send('PUT', `${base}/import?language=en`, { raw: VTT, headers: { 'content-type': 'text/vtt' } });
    expect(imported.status, imported.text).toBe(200);
    expect(imported.body).toMatchObject({ RecordingId: id, Cues: CUES, PublicUrl: null, Language: 'en' });
    expect(await status()).toBe('Completed');
    expect(await search()).toContain(id);

    const srt = await api.get(`${text}?format=srt`);
    expect(srt.headers.get('content-type')).toBe('application/x-subrip; charset=utf-8');
    expect(parseSrt(srt.text)).toMatchObject({ ok: true, cues: [{ start: 0.5 }, { start: 3 }] });

    const put = await api.send('PUT', base, { json: { Cues: [{ ...CUES[0], Text: 'Edited.' }] } });
    expect(put.status, put.text).toBe(200);
    expect(((await api.get(base)).body as Transcript).Cues).toHaveLength(1);
    expect(await search()).not.toContain(id);
    expect(((await api.send('PUT', `${base}/reset`)).body as Transcript).Cues).toEqual(CUES);

    const bad = await api.send('PUT', `${base}/import`, { raw: '1\n00:00:05,000 --> 00:00:01,000\nBackwards\n', headers: { 'content-type': 'application/x-subrip' } });
    expect(bad.status).toBe(400);
    expect((bad.body as ErrorBody).Errors).toMatchObject([{ Field: 'body', MessageKey: 'domain_transcript_reversed' }]);
    expect((bad.body as ErrorBody).Errors[0]!.Message).toContain('Line 2');

    expect((await api.delete(text)).status).toBe(204);
    expect(await status()).toBeNull();
    expect((await api.get(base)).status).toBe(404);

    const [world] = await test.store.query<{ id: string }>(`SELECT id FROM recordings WHERE program_id = $1 AND NOT deleted ORDER BY id LIMIT 1`, [WORLD]);
    const producer = new AppClient(app);
    await producer.login('producer@example.com');
    producer.organizationId = ORG_DEMO;
    expect((await producer.send('PUT', `/api/internal/recordings/${world!.id}/transcript`, { json: { Cues: CUES } })).status).toBe(404);
    expect((await producer.get(`/api/v1/recordings/${world!.id}/transcript`)).status).toBe(404);
  });

  it('published, the feed item carries podcast:transcript and its URL serves the transcript to anyone', async () => {
    const program = await api.post('/api/v1/programs', { Name: `Transcribed ${kind}`, Description: 'A show with words', Language: 'en' });
    expect(program.status, program.text).toBe(201);
    const programId = (program.body as { Id: string }).Id;
    const playlist = await api.post(`/api/v1/programs/${programId}/playlists`, { Title: 'Main feed', Visibility: 'Public', Description: 'Every episode' });
    const playlistId = (playlist.body as { Id: string }).Id;
    const created = await api.post(`/api/v1/programs/${programId}/clips`, { Title: 'Pelicans', Description: 'Birds' });
    const id = (created.body as { Id: string }).Id;
    // What the publishing job leaves on a clip (as the feed tests write it).
    await test.store.query(
      `UPDATE clips SET state = 'Ready', publish_state = 'Published', visibility = 'Public', slug = 'pelicans',
         data = data || jsonb_build_object('PublishedUtc', '2025-05-20T00:00:00.000Z', 'PublishedAudioSizeInBytes', 1000, 'PublishedDurationSeconds', 7)
           || jsonb_build_object('Urls', (data->'Urls') || jsonb_build_object('AudioPublicUrl', $2::text)),
         version = next_row_version() WHERE id = $1`,
      [id, publicPaths.audio(id, 'mp3')],
    );
    expect((await api.patch(`/api/v1/playlists/${playlistId}/clips`, { ClipIds: [id] })).status).toBe(204);

    const unpublished = await importFile(VTT, 'text/vtt', '', id);
    expect(unpublished.status).toBe(200);
    expect((await app.request(publicPaths.transcript(id, 'vtt'))).status).toBe(404);
    expect((await app.request(publicPaths.feed(playlistId))).headers.get('content-type')).toContain('rss');
    expect(await (await app.request(publicPaths.feed(playlistId))).text()).not.toContain('podcast:transcript');

    const published = await api.send('PUT', path(id), { json: { Cues: CUES, Published: true } });
    expect(published.status, published.text).toBe(200);
    expect((published.body as Transcript).PublicUrl).toBe(publicPaths.transcript(id, 'vtt'));
    expect((await clip(id)).Urls['TranscriptPublicUrl']).toBe(publicPaths.transcript(id, 'vtt'));

    const xml = await (await app.request(`http://localhost${publicPaths.feed(playlistId)}`)).text();
    const party = parseFeed(xml)!;
    expect(party.items[0]!.podcastTranscripts).toMatchObject([{ url: `http://localhost${publicPaths.transcript(id, 'vtt')}`, type: 'text/vtt' }]);
    const rss = await new Parser({ customFields: { item: [['podcast:transcript', 'transcript', { keepArray: false }]] } }).parseString(xml);
    const url = (rss.items[0] as { transcript?: { $: { url: string; type: string } } }).transcript!.$;
    expect(url).toEqual({ url: `http://localhost${publicPaths.transcript(id, 'vtt')}`, type: 'text/vtt' });

    // No session: the public URL, in each of its formats.
    const vtt = await app.request(url.url);
    expect(vtt.status).toBe(200);
    expect(vtt.headers.get('content-type')).toBe('text/vtt; charset=utf-8');
    expect(parseVtt(await vtt.text())).toMatchObject({ ok: true, cues: [{ start: 0.5, end: 3, speaker: 'Ana' }, { text: 'Today the harbour pelicans are back.' }] });
    const srt = await app.request(publicPaths.transcript(id, 'srt'));
    expect(srt.headers.get('content-type')).toBe('application/x-subrip; charset=utf-8');
    const json = await app.request(publicPaths.transcript(id, 'json'));
    expect(((await json.json()) as { segments: unknown[] }).segments).toHaveLength(2);
    const again = await app.request(url.url, { headers: { 'if-none-match': vtt.headers.get('etag')! } });
    expect(again.status).toBe(304);

    // Unpublished again: gone from the feed and the URL.
    expect((await api.send('PUT', path(id), { json: { Cues: CUES, Published: false } })).status).toBe(200);
    expect(await (await app.request(publicPaths.feed(playlistId))).text()).not.toContain('podcast:transcript');
    expect((await app.request(url.url)).status).toBe(404);
  });
});
