// The Brand safety section of the clip screen against the real server (createApp on PGlite with
// its jobs, answering the component's fetches): offline it says the analysis comes from the server
// and asks nothing; read first it is being made; made, it names each category with its risk and the
// words found, marked, with where they are; a changed title makes it say it is being made again.
import 'fake-indexeddb/auto';
import '../../../tests/happy-page.ts';
import { afterEach, describe, expect, it } from 'vitest';
import type { PageOnApp } from '../../../tests/page-on-app.ts';

const { ClipBrandSafety } = await import('./ClipBrandSafety.tsx');
const { ORG_DEMO, seedId } = await import('../../../sync-server/seed.ts');
const { BRAND_SAFETY_JOB, brandSafetyJobs } = await import('../../../sync-server/brand-safety/job.ts');
const { createMemoryBus } = await import('../../../sync-server/bus.ts');
const { jobContext } = await import('../../../sync-server/jobs/runner.ts');
const { mount, offlineView, pageOnAppForSuite, settle } = await import('../../../tests/page-on-app.ts');

const MORNING = seedId('program:morning');
let test: PageOnApp['test'];
let app: PageOnApp['app'];
let sent: string[] = [];
let clipId = '';

const page = pageOnAppForSuite({
  clips: 4,
  async ready(opened) {
    ({ test, app, sent } = opened);
    clipId = (await test.store.query<{ id: string }>(`SELECT id FROM clips WHERE program_id = $1 AND NOT deleted ORDER BY id LIMIT 1`, [MORNING]))[0]!.id;
    expect((await api(`/api/v1/clips/${clipId}`, { method: 'PATCH', body: JSON.stringify({ Title: 'After the robberies', Description: 'Calm morning news.' }) })).status).toBe(200);
    const cues = [{ StartSeconds: 125, EndSeconds: 130, Text: 'A man with a machine gun was seen near the station.', Speaker: null }];
    expect((await api(`/api/v1/clips/${clipId}/transcript`, { method: 'PUT', body: JSON.stringify({ Cues: cues }) })).status).toBe(200);
  },
});
const api = (path: string, init?: RequestInit) => page().api(path, init);
afterEach(() => {
  document.body.innerHTML = '';
});

const render = () => mount(<ClipBrandSafety clipId={clipId} />, 'Reading the analysis');

describe('the Brand safety section', () => {
  it('offline, says the analysis comes from the server and asks it nothing', async () => {
    expect(await offlineView(() => render(), sent)).toEqual({ status: 'The analysis is made by the server: it shows when the connection returns.', requests: 0 });
  });

  it('read first, says it is being analyzed; made, lists each category with its risk and the words found where they are', async () => {
    const first = await render();
    expect(first.querySelector('[role="status"]')?.textContent).toBe('Being analyzed…');
    document.body.innerHTML = '';
    await app.jobs.drain();

    const el = await render();
    expect(el.querySelector('.brand-safety-risk')?.textContent).toBe('Risk: High');
    const categories = [...el.querySelectorAll('.brand-safety-categories > li')].map((li) => [li.querySelector('.brand-safety-category')?.textContent, li.querySelector('.brand-safety-badge')?.textContent]);
    expect(categories).toEqual([
      ['Arms and ammunition', 'High'],
      ['Crime and harmful acts', 'Medium'],
    ]);
    const arms = el.querySelectorAll('.brand-safety-categories > li')[0]!;
    expect(arms.querySelector('summary')?.textContent).toBe('Where it was found (1)');
    expect(arms.querySelector('.brand-safety-matches li')?.textContent).toBe('Transcript at 2:05: A man with a machine gun was seen near the station.');
    expect(arms.querySelector('mark')?.textContent).toBe('machine gun');
    const crime = el.querySelectorAll('.brand-safety-categories > li')[1]!;
    expect(crime.querySelector('mark')?.textContent).toBe('robberies');
    expect(crime.querySelector('.brand-safety-matches li')?.textContent).toContain('Title: ');
    expect(el.textContent).toContain('Read 17 words of the title, description and transcript on');
    expect(el.textContent).not.toContain('has no transcript');
  });

  it('after the title changes, keeps the earlier analysis and says it is being made again, then shows the new one', async () => {
    expect((await api(`/api/v1/clips/${clipId}`, { method: 'PATCH', body: JSON.stringify({ Title: 'Morning news' }) })).status).toBe(200);
    const el = await render();
    expect(el.querySelector('[role="status"]')?.textContent).toBe('The title, description or transcript changed since this analysis: it is being made again.');
    expect(el.querySelectorAll('.brand-safety-categories > li')).toHaveLength(2);
    await app.jobs.drain();
    // The section asks again while the analysis is being made (every 3 s).
    await settle(3500);
    expect(el.querySelector('[role="status"]')?.textContent).toBe('');
    expect([...el.querySelectorAll('.brand-safety-category')].map((c) => c.textContent)).toEqual(['Arms and ammunition']);
  });

  it('for a clip without a transcript, says in one sentence that only its title and description were read', async () => {
    const [other] = await test.store.query<{ id: string }>(`SELECT id FROM clips WHERE organization_id = $1 AND id <> $2 AND NOT deleted AND id NOT IN (SELECT clip_id FROM clip_transcripts) ORDER BY id LIMIT 1`, [ORG_DEMO, clipId]);
    const first = await mount(<ClipBrandSafety clipId={other!.id} />, 'Reading the analysis');
    expect(first.querySelector('[role="status"]')?.textContent).toBe('Being analyzed…');
    document.body.innerHTML = '';
    await app.jobs.drain();
    const el = await mount(<ClipBrandSafety clipId={other!.id} />, 'Reading the analysis');
    const read = [...el.querySelectorAll('p.muted')].map((p) => p.textContent).filter((t) => t?.startsWith('Read '));
    expect(read).toEqual([expect.stringMatching(/^Read \d+ words of the title and description on .+: this episode has no transcript\.$/)]);
  });

  it('after its last attempt failed, says so in the reader\'s words, without the server\'s error, and keeps the analysis it had', async () => {
    const handler = brandSafetyJobs({ store: test.store, bus: createMemoryBus() })[BRAND_SAFETY_JOB]!;
    const ctx = jobContext(test.store, { id: 0, kind: BRAND_SAFETY_JOB, attempt: 3, maxAttempts: 3 });
    await handler.giveUp!(handler.payload.parse({ organizationId: ORG_DEMO, clipId }), new Error('connect ECONNREFUSED 10.0.0.7:5432'), ctx);
    const el = await render();
    expect(el.querySelector('[role="alert"]')?.textContent).toBe('The analysis could not be completed. Support can run it again.');
    expect(el.textContent).not.toContain('ECONNREFUSED');
    expect([...el.querySelectorAll('.brand-safety-category')].map((c) => c.textContent)).toEqual(['Arms and ammunition']);
  });
});
