// The derived fields of a clip after a change (section 4): its embed and show-page URLs follow its
// visibility, slug and program whatever the change was, and its other URLs are kept.
import { describe, expect, it } from 'vitest';
import { clipDefaults, emptyClipUrls } from '../../src/domain/clip-defaults.ts';
import type { Queryable } from '../store/store.ts';
import { applyClipChange, PUBLIC_BASE_URL } from './content-rules.ts';

// A title edit reads nothing from the store (no slug to check).
const noStore: Queryable = {
  query: () => {
    throw new Error('no query expected');
  },
};
const clipId = '5f0c9c1e-8e8a-4c55-a1a4-2f0f5b6f2a01';
const programId = '0b8f6a34-9c1d-4e0f-8b7a-2d7f3c9e1b10';
const ctx = (programSlug: string | null) => ({ organizationId: 'o', clipId, programSlug, now: new Date('2026-11-26T10:00:00.000Z'), isNew: false });
const publicClip = (urls: Record<string, unknown>) => ({ ...clipDefaults(), ProgramId: programId, Slug: 'monday', Visibility: 'Public', PublishedUtc: '2026-11-01T10:00:00.000Z', Urls: urls });

describe('applyClipChange: the clip URLs', () => {
  it('a title edit keeps URLs that are still right as they are', async () => {
    const urls = { ...emptyClipUrls(), AudioPublicUrl: 'https://cdn.example/a.mp3', EmbedUrl: `${PUBLIC_BASE_URL}/embed/${clipId}`, ShowPageUrl: `${PUBLIC_BASE_URL}/news/monday` };
    const next = await applyClipChange(noStore, publicClip(urls), { Title: 'Monday news' }, ctx('news'));
    expect(next['Urls']).toEqual(urls);
    expect(next['Title']).toBe('Monday news');
  });

  it('a title edit refreshes a show-page URL whose program slug changed since', async () => {
    const urls = { ...emptyClipUrls(), AudioPublicUrl: 'https://cdn.example/a.mp3', EmbedUrl: `${PUBLIC_BASE_URL}/embed/${clipId}`, ShowPageUrl: `${PUBLIC_BASE_URL}/news/monday` };
    const next = await applyClipChange(noStore, publicClip(urls), { Title: 'Monday news' }, ctx('world-news'));
    expect(next['Urls']).toEqual({ ...urls, ShowPageUrl: `${PUBLIC_BASE_URL}/world-news/monday` });
  });

  it('the embed link override is set when sent and kept when not', async () => {
    const urls = { ...emptyClipUrls(), EmbedUrl: `${PUBLIC_BASE_URL}/embed/${clipId}`, ShowPageUrl: `${PUBLIC_BASE_URL}/news/monday` };
    const set = await applyClipChange(noStore, publicClip(urls), { EmbedShareLinkOverrideUrl: 'https://example.com/ep' }, ctx('news'));
    expect(set['Urls']).toEqual({ ...urls, EmbedShareLinkOverrideUrl: 'https://example.com/ep' });
    const kept = await applyClipChange(noStore, set, { Title: 'Again' }, ctx('news'));
    expect((kept['Urls'] as Record<string, unknown>)['EmbedShareLinkOverrideUrl']).toBe('https://example.com/ep');
  });

  it('a clip stored without some URLs gets every one after any edit', async () => {
    const next = await applyClipChange(noStore, publicClip({ AudioPublicUrl: 'https://cdn.example/a.mp3' }), { Title: 'Complete' }, ctx('news'));
    expect(next['Urls']).toEqual({
      ...emptyClipUrls(),
      AudioPublicUrl: 'https://cdn.example/a.mp3',
      EmbedUrl: `${PUBLIC_BASE_URL}/embed/${clipId}`,
      ShowPageUrl: `${PUBLIC_BASE_URL}/news/monday`,
    });
  });
});
