// A published, public clip of the size bench:sync measures (~2 KB as stored: a 200-character
// description, tags, season and episode, its public URLs), for the benches and the tests that must
// hold at that size.
import { clipDefaults, emptyClipUrls } from '../../src/domain/clip-defaults.ts';
import { clipPublicUrls } from '../../sync-server/routes/content-rules.ts';

export function sizedClipFields(id: string, programId: string, index: number, now: Date) {
  const slug = `clip-${index + 1}`;
  return {
    ...clipDefaults(),
    ProgramId: programId, Title: `Clip ${index}`, Description: 'x'.repeat(200), Tags: ['news', 'talk'], Season: 1, Episode: index, EpisodeType: 'Full',
    State: 'Ready', PublishState: 'Published', Visibility: 'Public', Slug: slug, PublishedUtc: now.toISOString(), DurationSeconds: 1800, PublishedDurationSeconds: 1800,
    Urls: { ...emptyClipUrls(), ...clipPublicUrls(id, programId, slug, 'Public') },
  };
}
