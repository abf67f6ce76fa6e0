// @vitest-environment happy-dom
// A playlist's Directories and Premium feeds sections on a device that is offline (the server
// cannot be reached): the feed address is there to copy; marking Spotify submitted is queued
// through playlist.setDirectories and shown at once; a listing address of another site is refused
// at its field with nothing queued, Spotify's own address is queued and the directory shows as
// Listed; the checklist and the premium feeds say they need the network; without manage-settings
// access nothing can be changed.
import 'fake-indexeddb/auto';
import { beforeEach, describe, expect, it } from 'vitest';
import { db } from '../../db/db.ts';
import { asPlaylist, useRow } from '../../lib/rows.ts';
import { DirectoriesCard } from './DirectoriesCard.tsx';
import { PremiumFeedsCard } from './PremiumFeedsCard.tsx';
import { signInOffline } from '../../../tests/offline-session.ts';
import { clickOn, mount, type } from '../../../tests/dom-actions.ts';

(globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true;

const ORG = '3f2504e0-4f89-41d3-9a0c-0305e82c3401';
const PROGRAM = '3f2504e0-4f89-41d3-9a0c-0305e82c3403';
const PLAYLIST = '3f2504e0-4f89-41d3-9a0c-0305e82c3404';
const AT = '2026-03-01T10:00:00.000Z';
const meta = { CreatedAtUtc: AT, ModifiedAtUtc: AT, CreatedById: null, ModifiedById: null, Deleted: false, Version: 1, OrganizationId: ORG };

function Harness({ mayChange }: { mayChange: boolean }) {
  const row = useRow('playlists', PLAYLIST);
  if (row.state !== 'ok') return null;
  const playlist = asPlaylist(row.row);
  return (
    <>
      <DirectoriesCard playlist={playlist} organizationId={ORG} programId={PROGRAM} mayChange={mayChange} />
      <PremiumFeedsCard playlist={playlist} organizationId={ORG} programId={PROGRAM} mayManage={mayChange} />
    </>
  );
}

const render = (mayChange = true) => mount(<Harness mayChange={mayChange} />, { until: 'section' });

const directory = (el: HTMLElement, name: string) => [...el.querySelectorAll<HTMLElement>('li.directory')].find((li) => li.querySelector('h3')?.textContent === name)!;
const button = (root: HTMLElement, text: string) => [...root.querySelectorAll('button')].find((b) => b.textContent === text);

beforeEach(async () => {
  document.body.innerHTML = '';
  await Promise.all([db.playlists.clear(), db.outbox.clear(), db.shadows.clear()]);
  await db.playlists.put({ ...meta, Id: PLAYLIST, ProgramId: PROGRAM, Title: 'Full feed', Slug: 'full', Description: null, Visibility: 'Public', ClipIds: [], Urls: { ImagePublicUrl: null } });
  await signInOffline(ORG, { programId: PROGRAM }, { HasContentAccess: true, HasManageSettingsAccess: true });
});

describe('DirectoriesCard offline', () => {
  it('queues a submission and a listing address of the directory’s site, refusing another site’s at the field', async () => {
    const el = await render();
    expect((el.querySelector('#directories-feed-url') as HTMLInputElement).value).toBe(`${location.origin}/feeds/${PLAYLIST}.xml`);
    expect(el.textContent).toContain('Connect to the internet to check what each directory needs.');
    expect(el.textContent).toContain('Premium feeds are kept on the server');

    const spotify = directory(el, 'Spotify');
    expect(spotify.textContent).toContain('Not submitted');
    expect(spotify.querySelector<HTMLAnchorElement>('a[href="https://creators.spotify.com/"]')?.target).toBe('_blank');
    await clickOn(button(spotify, 'Mark submitted'));
    const queued = await db.outbox.toArray();
    expect(queued.map((q) => q.name)).toEqual(['playlist.setDirectories']);
    expect((queued[0]!.args as { Directories: Record<string, { SubmittedById: string; ListingUrl: null }> }).Directories['spotify']).toMatchObject({ SubmittedById: 'u1', ListingUrl: null });
    expect(directory(el, 'Spotify').textContent).toContain('Submitted');

    const input = directory(el, 'Spotify').querySelector('input') as HTMLInputElement;
    await type(input, 'https://podcasts.apple.com/us/podcast/x/id1');
    await clickOn(button(directory(el, 'Spotify'), 'Save address'));
    expect(input.getAttribute('aria-invalid')).toBe('true');
    expect(directory(el, 'Spotify').querySelector('[role="alert"]')?.textContent).toBe('Paste the show’s address at open.spotify.com, spotify.com.');
    expect(await db.outbox.count()).toBe(1);

    await type(input, 'https://open.spotify.com/show/4rOoJ6Egrf8K2IrywzwOMk');
    await clickOn(button(directory(el, 'Spotify'), 'Save address'));
    expect(await db.outbox.count()).toBe(2);
    expect(directory(el, 'Spotify').textContent).toContain('Listed');
    const row = await db.playlists.get(PLAYLIST);
    expect((row!['Directories'] as Record<string, { ListingUrl: string }>)['spotify']!.ListingUrl).toBe('https://open.spotify.com/show/4rOoJ6Egrf8K2IrywzwOMk');

    await clickOn(button(directory(el, 'Spotify'), 'Mark removed'));
    expect(directory(el, 'Spotify').textContent).toContain('Removed');
  });

  it('without manage-settings access: read only, and the premium feeds say why', async () => {
    const el = await render(false);
    expect(el.textContent).toContain('recording it needs settings access to the program');
    expect(button(directory(el, 'Apple Podcasts'), 'Mark submitted')?.closest('fieldset')?.disabled).toBe(true);
    expect(el.textContent).toContain('Premium feeds carry members’ secret addresses');
  });
});
