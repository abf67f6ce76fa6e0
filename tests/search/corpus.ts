// The relevance corpus of issue 32: clips in English and German, recordings with annotations,
// and queries whose expected results were written by hand (read the texts below, then the
// expectations), not taken from the engine's output. Used by the server search test
// (tests/search/server-search.test.ts) and the server/offline agreement test.
//
// It lives in four programs of the demo seed (sync-server/seed.ts), whose own clips it hides:
//   morning  (English; the producer demo user reads it)    world    (English; the producer does not)
//   bookclub (German;  the producer demo user reads it)    business (German;  the producer does not)
// Around a few dozen hand-written "target" rows, the filler (hand-written word lists combined) makes
// up the 200+ clips; its words were chosen to be far (by stems and trigrams) from every query word.
import { seedId } from '../../sync-server/seed.ts';
import { bulkInsert, type BulkRow } from '../../sync-server/rows.ts';
import type { Queryable } from '../../sync-server/store/store.ts';
import { clipDefaults } from '../../src/domain/clip-defaults.ts';

export const CORPUS_ORG = seedId('org:demo');
export type CorpusProgramKey = 'morning' | 'world' | 'bookclub' | 'business';
export const CORPUS_PROGRAMS: Record<CorpusProgramKey, { id: string; language: string }> = {
  morning: { id: seedId('program:morning'), language: 'en' },
  world: { id: seedId('program:world'), language: 'en-gb' },
  bookclub: { id: seedId('program:bookclub'), language: 'de' },
  business: { id: seedId('program:business'), language: 'de-de' },
};
/** The programs the producer demo user (producer@example.com) reads. */
export const PRODUCER_PROGRAMS: readonly CorpusProgramKey[] = ['morning', 'bookclub'];

export type CorpusClip = {
  key: string;
  id: string;
  program: CorpusProgramKey;
  Title: string;
  Description: string;
  Tags: string[];
  Season: number | null;
  Episode: number | null;
  Visibility: 'Public' | 'Private' | 'Unlisted';
  createdAt: string;
};
export type CorpusRecording = { key: string; id: string; program: CorpusProgramKey; Title: string; Description: string; BreakType: string | null; Rating: number | null; createdAt: string; annotations: Array<{ id: string; OffsetSeconds: number; Text: string }> };

const clipId = (key: string) => seedId(`search:clip:${key}`);
const recordingId = (key: string) => seedId(`search:recording:${key}`);

type Target = [key: string, program: CorpusProgramKey, title: string, description: string, tags?: string[], season?: number | null, episode?: number | null, visibility?: CorpusClip['Visibility']];

// The hand-written targets, newest last (created an hour apart from 2025-03-01T08:00Z).
const TARGETS: Target[] = [
  ['mayor-tram', 'morning', 'Mayor announces a new tram line', 'The route runs from the station to the harbour; construction starts in spring.', ['transport']],
  ['mayor-desc', 'morning', 'Monday headlines', 'We ask the mayor about rents, and the weather for the week ahead.'],
  ['city-hall', 'morning', 'Protest outside City Hall', 'Hundreds gathered on the square before the council vote.'],
  ['hall-of-city', 'morning', 'Concert review', 'The hall was full: the city orchestra played Mahler.', ['music']],
  ['budget-council', 'morning', 'Council passes the budget', 'Libraries and swimming pools keep their funding, the councillors decided.'],
  ['budget-mayor', 'world', 'The mayor defends the budget', 'A long interview about debt, taxes and the new stadium.'],
  ['harbour-storm', 'world', 'Storm closes the harbour', 'Ferries stay in port as the wind reaches ninety kilometres an hour.', ['weather']],
  ['government-shutdown', 'world', 'Government shutdown explained', 'What closes, what stays open, and who still gets paid.'],
  ['elections-preview', 'world', 'Elections preview', 'Five parties, three debates and one question: who will lead the country?', ['politics']],
  ['election-night', 'morning', 'Election night special', 'Results from every district as they come in.', ['politics'], 10, 3],
  ['season-ten-two', 'morning', 'Listener mailbag', 'Your letters about rents, bikes and noisy neighbours.', [], 10, 2],
  ['vaccination', 'world', 'Vaccination centres open on Sundays', 'Queues were short on the first weekend.', ['health']],
  ['wildfire', 'world', 'Wildfires in the hills', 'Firefighters worked through the night to save the villages.'],
  ['bakery', 'morning', 'The oldest bakery in town', 'Four generations of bakers and a sourdough starter from 1921.', ['food']],
  ['marathon', 'world', 'Marathon day', 'Road closures, the route, and the runners to watch.', ['sport']],
  ['private-mayor', 'morning', 'Mayor interview, raw cut', 'Unedited: not for publication yet.', [], null, null, 'Private'],
  ['unlisted-tram', 'world', 'Tram strike update', 'Drivers walk out for a second day.', [], null, null, 'Unlisted'],
  ['de-buergermeisterin', 'bookclub', 'Die Bürgermeisterin im Gespräch', 'Über Mieten, Radwege und das neue Schwimmbad.', ['politik']],
  ['de-wahlen', 'business', 'Wahlen in Bayern', 'Die Parteien, die Umfragen und die Kandidaten.', ['politik']],
  ['de-wahl-buch', 'bookclub', 'Buch der Woche', 'Ein Roman über die Wahl eines Dorfpfarrers.'],
  ['de-hochwasser', 'business', 'Hochwasser an der Elbe', 'Die Pegel steigen, die Deiche halten noch.'],
  ['de-ueberschwemmungen', 'bookclub', 'Überschwemmungen im Süden', 'Keller laufen voll, die Feuerwehr pumpt seit Stunden.'],
  ['de-baeckerei', 'bookclub', 'Die älteste Bäckerei der Stadt', 'Vier Generationen und ein Sauerteig von 1921.'],
  ['de-strassenbahn', 'business', 'Neue Straßenbahn für Leipzig', 'Die Linie fährt vom Hauptbahnhof zum Hafen.'],
  ['de-haushalt', 'bookclub', 'Der Stadtrat beschließt den Haushalt', 'Bibliotheken und Bäder behalten ihr Geld.', [], 2, 7],
  ['de-rathaus', 'business', 'Protest vor dem Rathaus', 'Hunderte auf dem Marktplatz vor der Abstimmung.'],
];

// Filler: hand-written subjects and phrasings, combined. None of these words is near a query word.
const EN_SUBJECTS = ['gardening', 'astronomy', 'chess', 'coffee', 'cycling', 'photography', 'knitting', 'pottery', 'birdwatching', 'sailing', 'jazz', 'poetry', 'origami', 'beekeeping', 'climbing', 'surfing', 'woodwork', 'calligraphy', 'fishing', 'skating'];
const EN_FORMS: Array<[title: (s: string, n: number) => string, description: (s: string) => string]> = [
  [(s, n) => `Notes on ${s}, part ${n}`, (s) => `A relaxed conversation about ${s} with two guests.`],
  [(s) => `Getting started with ${s}`, (s) => `Tips for beginners who want to try ${s} this year.`],
  [(s) => `${s[0]!.toUpperCase()}${s.slice(1)} stories from our listeners`, (s) => `You sent us your ${s} moments; here are the best.`],
  [(s) => `The history of ${s}`, (s) => `From its beginnings to today: ${s} through the ages.`],
  [(s) => `Ask an expert: ${s}`, (s) => `An expert answers your questions about ${s}.`],
];
const DE_SUBJECTS = ['Gartenarbeit', 'Sternenkunde', 'Schach', 'Kaffee', 'Radsport', 'Fotografie', 'Stricken', 'Töpfern', 'Vogelkunde', 'Segeln', 'Jazzmusik', 'Lyrik', 'Imkerei', 'Klettern', 'Schreinerei', 'Angeln', 'Eislaufen', 'Kalligrafie', 'Wandern', 'Origami'];
const DE_FORMS: Array<[title: (s: string, n: number) => string, description: (s: string) => string]> = [
  [(s, n) => `Notizen zu ${s}, Teil ${n}`, (s) => `Ein entspanntes Gespräch über ${s} mit zwei Gästen.`],
  [(s) => `Einstieg in ${s}`, (s) => `Tipps für Anfänger, die ${s} ausprobieren möchten.`],
  [(s) => `Geschichten rund um ${s}`, (s) => `Unsere Hörer erzählen von ${s}.`],
  [(s) => `Die Geschichte von ${s}`, (s) => `Von den Anfängen bis heute: ${s} im Wandel.`],
];

const HOUR = 3_600_000;
const TARGET_START = Date.UTC(2025, 2, 1, 8);
const FILLER_START = Date.UTC(2024, 0, 1, 8);

function buildClips(): CorpusClip[] {
  const clips: CorpusClip[] = TARGETS.map(([key, program, Title, Description, Tags = [], Season = null, Episode = null, Visibility = 'Public'], i) => ({
    key,
    id: clipId(key),
    program,
    Title,
    Description,
    Tags,
    Season,
    Episode,
    Visibility,
    createdAt: new Date(TARGET_START + i * HOUR).toISOString(),
  }));
  let n = 0;
  const filler = (program: CorpusProgramKey, subjects: string[], forms: typeof EN_FORMS) => {
    subjects.forEach((s, si) =>
      forms.forEach(([title, description], fi) => {
        const key = `filler-${program}-${si}-${fi}`;
        clips.push({ key, id: clipId(key), program, Title: title(s, fi + 1), Description: description(s), Tags: [], Season: 1, Episode: fi + 1, Visibility: 'Public', createdAt: new Date(FILLER_START + n++ * HOUR).toISOString() });
      }),
    );
  };
  filler('morning', EN_SUBJECTS.slice(0, 10), EN_FORMS);
  filler('world', EN_SUBJECTS.slice(10), EN_FORMS);
  filler('bookclub', DE_SUBJECTS.slice(0, 10), DE_FORMS);
  filler('business', DE_SUBJECTS.slice(10), DE_FORMS);
  return clips;
}

export const CORPUS_CLIPS: readonly CorpusClip[] = buildClips();

const note = (key: string, i: number, OffsetSeconds: number, Text: string) => ({ id: seedId(`search:annotation:${key}:${i}`), OffsetSeconds, Text });
export const CORPUS_RECORDINGS: readonly CorpusRecording[] = [
  { key: 'rec-traffic', id: recordingId('rec-traffic'), program: 'morning', Title: 'Breakfast show, Tuesday', Description: 'Live from the studio.', BreakType: 'News', Rating: 4, createdAt: '2025-03-03T06:00:00.000Z', annotations: [note('rec-traffic', 0, 600, 'Traffic jam on the ring road'), note('rec-traffic', 1, 30, 'Cold open')] },
  { key: 'rec-mayor-call', id: recordingId('rec-mayor-call'), program: 'morning', Title: 'Breakfast show, Wednesday', Description: 'Live from the studio.', BreakType: 'Ad', Rating: 5, createdAt: '2025-03-04T06:00:00.000Z', annotations: [note('rec-mayor-call', 0, 120, 'The mayor calls in'), note('rec-mayor-call', 1, 900, 'Listener phone-in')] },
  { key: 'rec-harbour', id: recordingId('rec-harbour'), program: 'world', Title: 'Evening bulletin', Description: 'Recorded at the harbour.', BreakType: 'News', Rating: 3, createdAt: '2025-03-05T18:00:00.000Z', annotations: [note('rec-harbour', 0, 10, 'Ferry horn'), note('rec-harbour', 1, 400, 'Traffic report')] },
  { key: 'rec-de-stau', id: recordingId('rec-de-stau'), program: 'bookclub', Title: 'Frühsendung', Description: 'Aus dem Studio.', BreakType: 'News', Rating: 4, createdAt: '2025-03-06T06:00:00.000Z', annotations: [note('rec-de-stau', 0, 60, 'Stau auf der Autobahn'), note('rec-de-stau', 1, 300, 'Die Bürgermeisterin ruft an')] },
  { key: 'rec-plain', id: recordingId('rec-plain'), program: 'bookclub', Title: 'Nachtprogramm', Description: 'Musik bis zum Morgen.', BreakType: null, Rating: null, createdAt: '2025-03-07T22:00:00.000Z', annotations: [] },
];

export const corpusClip = (key: string): string => {
  const c = CORPUS_CLIPS.find((x) => x.key === key);
  if (!c) throw new Error(`no corpus clip ${key}`);
  return c.id;
};
export const corpusRecording = (key: string): string => {
  const r = CORPUS_RECORDINGS.find((x) => x.key === key);
  if (!r) throw new Error(`no corpus recording ${key}`);
  return r.id;
};

/** A query and what it must find, in the corpus programs, as the demo user: `all`, the complete
 *  set of matches; `top`, the first results in this order (a date sort); `tiers`, the first
 *  results tier by tier, any order within a tier (Relevance: equal ranks fall back to dates). */
export type CorpusQuery = {
  name: string;
  kind: 'clip' | 'recording';
  params: Record<string, string>;
  all?: string[];
  top?: string[];
  tiers?: string[][];
};

const c = corpusClip;
const r = corpusRecording;

export const CORPUS_QUERIES: readonly CorpusQuery[] = [
  // The title outranks the description (weights A and B); the private and the German clips are found too.
  { name: 'a word in titles and descriptions', kind: 'clip', params: { filter: 'mayor' }, tiers: [[c('mayor-tram'), c('budget-mayor'), c('private-mayor')], [c('mayor-desc')]], all: [c('mayor-tram'), c('mayor-desc'), c('budget-mayor'), c('private-mayor')] },
  { name: 'restricted to titles', kind: 'clip', params: { filter: 'mayor', filterBy: 'Title' }, all: [c('mayor-tram'), c('budget-mayor'), c('private-mayor')] },
  { name: 'restricted to descriptions', kind: 'clip', params: { filter: 'mayor', filterBy: 'Description' }, all: [c('mayor-desc')] },
  { name: 'a phrase', kind: 'clip', params: { filter: '"city hall"' }, all: [c('city-hall')] },
  { name: 'words without a phrase', kind: 'clip', params: { filter: 'city hall' }, all: [c('city-hall'), c('hall-of-city')] },
  { name: 'an exclusion', kind: 'clip', params: { filter: 'budget -mayor' }, all: [c('budget-council')] },
  { name: 'OR', kind: 'clip', params: { filter: 'tram or harbour' }, all: [c('mayor-tram'), c('harbour-storm'), c('unlisted-tram')] },
  { name: 'English stemming', kind: 'clip', params: { filter: 'election' }, all: [c('elections-preview'), c('election-night')] },
  { name: 'a typo, found by trigrams', kind: 'clip', params: { filter: 'goverment' }, all: [c('government-shutdown')] },
  { name: 'a typo of a word in a German title', kind: 'clip', params: { filter: 'Bürgermeisterinn' }, all: [c('de-buergermeisterin')] },
  { name: 'a tag', kind: 'clip', params: { filter: 'transport' }, all: [c('mayor-tram')] },
  { name: 'a season label', kind: 'clip', params: { filter: 'S10' }, all: [c('election-night'), c('season-ten-two')] },
  { name: 'a season and episode label', kind: 'clip', params: { filter: 'S10E3' }, all: [c('election-night')] },
  { name: 'German stemming (Wahlen, Wahl)', kind: 'clip', params: { filter: 'Wahl' }, all: [c('de-wahlen'), c('de-wahl-buch')] },
  { name: 'German umlauts and plurals', kind: 'clip', params: { filter: 'Überschwemmung' }, all: [c('de-ueberschwemmungen')] },
  { name: 'a German phrase', kind: 'clip', params: { filter: '"vor dem Rathaus"' }, all: [c('de-rathaus')] },
  { name: 'only public clips', kind: 'clip', params: { filter: 'tram', visibilityFilter: 'Public' }, all: [c('mayor-tram')] },
  { name: 'newest first', kind: 'clip', params: { filter: 'mayor', sortBy: 'DateNewest' }, top: [c('private-mayor'), c('budget-mayor'), c('mayor-desc'), c('mayor-tram')] },
  { name: 'oldest first', kind: 'clip', params: { filter: 'mayor', sortBy: 'DateOldest' }, top: [c('mayor-tram'), c('mayor-desc'), c('budget-mayor'), c('private-mayor')] },
  { name: 'a recording description', kind: 'recording', params: { filter: 'harbour' }, all: [r('rec-harbour')] },
  { name: 'annotations', kind: 'recording', params: { filter: 'traffic' }, all: [r('rec-traffic'), r('rec-harbour')] },
  { name: 'annotations only', kind: 'recording', params: { filter: 'harbour', filterBy: 'Annotations' }, all: [] },
  { name: 'a German annotation', kind: 'recording', params: { filter: 'Bürgermeisterin' }, all: [r('rec-de-stau')] },
  { name: 'breakType and rating', kind: 'recording', params: { filter: 'traffic', breakType: 'News', rating: '4' }, all: [r('rec-traffic')] },
];

/** Writes the corpus into a seeded store: the four programs' languages, their seed clips and
 *  recordings hidden (deleted), then the corpus rows (the database keeps their search vectors). */
export async function insertCorpus(q: Queryable): Promise<void> {
  for (const p of Object.values(CORPUS_PROGRAMS)) {
    await q.query(`UPDATE programs SET data = data || jsonb_build_object('Language', $2::text) WHERE id = $1`, [p.id, p.language]);
    await q.query(`UPDATE clips SET deleted = true WHERE program_id = $1`, [p.id]);
    await q.query(`UPDATE recordings SET deleted = true WHERE program_id = $1`, [p.id]);
  }
  const demoUser = seedId('user:demo@example.com');
  const clipRows: BulkRow[] = CORPUS_CLIPS.map((x) => ({
    id: x.id,
    createdAt: new Date(x.createdAt),
    modifiedAt: new Date(x.createdAt),
    createdById: demoUser,
    fields: {
      ...clipDefaults(),
      ProgramId: CORPUS_PROGRAMS[x.program].id,
      Title: x.Title,
      Description: x.Description,
      Tags: x.Tags,
      Season: x.Season,
      Episode: x.Episode,
      Visibility: x.Visibility,
      State: 'Ready',
      PublishState: x.Visibility === 'Private' ? 'Unpublished' : 'Published',
    },
  }));
  await bulkInsert(q, 'clip', CORPUS_ORG, clipRows);
  const recordingRows: BulkRow[] = CORPUS_RECORDINGS.map((x) => ({
    id: x.id,
    createdAt: new Date(x.createdAt),
    modifiedAt: new Date(x.createdAt),
    createdById: demoUser,
    fields: {
      ProgramId: CORPUS_PROGRAMS[x.program].id,
      Title: x.Title,
      Description: x.Description,
      BreakType: x.BreakType,
      Rating: x.Rating,
      State: 'Finalized',
      CaptureStartUtc: x.createdAt,
      CaptureEndUtc: x.createdAt,
      HasTornAudio: false,
      Reviewed: true,
      TranscriptStatus: null,
      V1CorrelationId: null,
      V2CorrelationId: null,
      DurationSeconds: 3600,
      Urls: { AudioUrl: null, WaveformHighResUrl: null, WaveformLowResUrl: null },
    },
  }));
  await bulkInsert(q, 'recording', CORPUS_ORG, recordingRows);
  const noteRows: BulkRow[] = CORPUS_RECORDINGS.flatMap((x) =>
    x.annotations.map((a) => ({
      id: a.id,
      createdAt: new Date(x.createdAt),
      modifiedAt: new Date(x.createdAt),
      createdById: demoUser,
      fields: { RecordingId: x.id, OffsetSeconds: a.OffsetSeconds, DurationSeconds: null, Text: a.Text },
    })),
  );
  await bulkInsert(q, 'annotation', CORPUS_ORG, noteRows);
}
