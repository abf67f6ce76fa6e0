// A program's podcast fields (what a feed's channel is made of) through the named mutations
// program.create / program.update, as REST and as a queued push run them: stored in the row's data,
// defaults for a row made before them, and a 400 naming every refused field.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seedId } from '../../sync-server/seed.ts';
import { ProgramSchema } from '../../src/protocol/entities.ts';
import { AppClient, fields, seededApp } from './app-client.ts';
import { openTestStore, type TestStore } from './test-store.ts';

const MORNING = seedId('program:morning');
const NEWS = seedId('network:news');

const SETTINGS = {
  Author: 'Castaway Radio',
  OwnerName: 'Ada Host',
  OwnerEmail: 'ada@example.com',
  Language: 'DE',
  Category: 'news',
  Subcategory: 'news.daily-news',
  Explicit: true,
  Copyright: '© 2025 Castaway',
  ItunesType: 'serial',
  Locked: true,
  FundingUrl: 'https://example.com/support',
  FundingText: 'Support the show',
  Persons: [{ Name: ' Ada ', Role: 'host', Href: '' }],
  Link: 'https://example.com',
} as const;

describe('program podcast fields (PGlite)', () => {
  let t: TestStore;
  let demo: AppClient;

  beforeAll(async () => {
    t = await openTestStore('pglite');
    const { app } = await seededApp(t.store);
    demo = new AppClient(app);
    await demo.login('demo@example.com');
  });
  afterAll(async () => {
    await t?.drop();
  });

  it('reads a row made before the fields as absent, and fills the defaults on its first change', async () => {
    const before = (await demo.get(`/api/v1/programs/${MORNING}`)).body as Record<string, unknown>;
    expect(before['Explicit']).toBeUndefined();
    const after = ProgramSchema.parse((await demo.patch(`/api/v1/programs/${MORNING}`, { Author: 'Morning team' })).body);
    expect(after).toMatchObject({ Author: 'Morning team', Explicit: false, Locked: false, Persons: [], Language: null, ItunesType: null });
  });

  it('creates a program with every podcast field, normalised, and changes them', async () => {
    const created = await demo.post('/api/v1/programs', { Name: 'Night Desk Podcast', NetworkId: NEWS, ...SETTINGS });
    expect(created.status).toBe(201);
    const program = ProgramSchema.parse(created.body);
    expect(program).toMatchObject({ ...SETTINGS, Language: 'de', Persons: [{ Name: 'Ada', Role: 'host', Href: null }] });
    const changed = ProgramSchema.parse((await demo.patch(`/api/v1/programs/${program.Id}`, { Subcategory: null, Category: 'technology', Copyright: '  ' })).body);
    expect(changed).toMatchObject({ Category: 'technology', Subcategory: null, Copyright: null, Author: 'Castaway Radio' });
  });

  it('answers 400 naming every refused field', async () => {
    const bad = await demo.post('/api/v1/programs', {
      Name: ' ',
      OwnerEmail: 'not-an-address',
      Language: 'xx',
      Category: 'news',
      Subcategory: 'arts.books',
      FundingText: 'Give',
      Link: 'example',
      Persons: [{ Name: '', Role: 'host', Href: 'ftp://example.com' }],
    });
    expect(bad.status).toBe(400);
    expect(fields(bad).sort()).toEqual(
      [
        ['Name', 'required'],
        ['OwnerEmail', 'emailInvalid'],
        ['Language', 'invalid'],
        ['Subcategory', 'invalid'],
        ['FundingUrl', 'required'],
        ['Link', 'urlInvalid'],
        ['Persons[0].Name', 'required'],
        ['Persons[0].Href', 'urlInvalid'],
      ].sort(),
    );
    // A subcategory is judged against the category the row keeps.
    const orphan = await demo.patch(`/api/v1/programs/${MORNING}`, { Subcategory: 'news.politics' });
    expect(fields(orphan)).toEqual([['Category', 'required']]);
    // Shapes the schema refuses (a wrong type, an unknown itunes type) are 400s too.
    expect((await demo.patch(`/api/v1/programs/${MORNING}`, { ItunesType: 'weekly' })).status).toBe(400);
    expect((await demo.patch(`/api/v1/programs/${MORNING}`, { Explicit: 'yes' })).status).toBe(400);
  });
});
