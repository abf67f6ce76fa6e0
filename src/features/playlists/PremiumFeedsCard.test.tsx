// A playlist's premium feeds, Apple Podcasts Subscriptions part, against the real server (createApp
// on PGlite answering the page's fetches), when the organization's plan lost apple-premium after the
// session was read: linking the playlist is refused by the server, and the part says the plan does
// not include it, where the user clicked (not "That did not work"); from then on the device knows
// it, so Link is no longer offered and the notice stays.
import 'fake-indexeddb/auto';
// The page's DOM, before React loads (tests/happy-page.ts).
import '../../../tests/happy-page.ts';
import { describe, expect, it } from 'vitest';
import type { Playlist } from '../../protocol/entities.ts';

const { PremiumFeedsCard } = await import('./PremiumFeedsCard.tsx');
const { Router } = await import('wouter');
const { memoryLocation } = await import('wouter/memory-location');
const { ORG_PODCASTS } = await import('../../../sync-server/seed.ts');
const { loadSubscription, saveSubscription } = await import('../../../sync-server/billing/subscriptions.ts');
const { loadSession } = await import('../../lib/session.ts');
const { setApiOrganization } = await import('../../lib/api.ts');
const { click, mount, pageOnAppForSuite, settleUntil } = await import('../../../tests/page-on-app.ts');

const page = pageOnAppForSuite({ clips: 2 });

const LINK = 'Link to Apple Podcasts Subscriptions';

describe('premium feeds: Apple Podcasts Subscriptions after the plan lost it', () => {
  it('a refused link says the plan does not include it, and Link is offered no more', async () => {
    // The session read while Castaway Podcasts had the ApplePremium add-on; then it is taken away.
    setApiOrganization(ORG_PODCASTS);
    await loadSession();
    const s = (await loadSubscription(page().test.store, ORG_PODCASTS))!;
    await saveSubscription(page().test.store, ORG_PODCASTS, { ...s, addOns: { ...s.addOns, ApplePremium: 0 } }, null, new Date());
    const [row] = await page().test.store.query<{ id: string; program_id: string; title: string; visibility: string }>(
      `SELECT id, program_id, title, visibility FROM playlists WHERE organization_id = $1 AND NOT deleted AND visibility <> 'Private' ORDER BY id LIMIT 1`,
      [ORG_PODCASTS],
    );
    const playlist = { Id: row!.id, ProgramId: row!.program_id, Title: row!.title, Visibility: row!.visibility } as Playlist;

    const { hook } = memoryLocation({ path: `/${ORG_PODCASTS}/playlists/${playlist.Id}` });
    const el = await mount(
      <Router hook={hook}>
        <PremiumFeedsCard playlist={playlist} organizationId={ORG_PODCASTS} programId={row!.program_id} mayManage />
      </Router>,
    );
    await settleUntil(() => [...el.querySelectorAll('button')].some((b) => b.textContent === LINK));
    await click(el, LINK);
    await settleUntil(() => el.querySelector('[role="alert"]') !== null);
    const notice = el.querySelector('[role="alert"]')!;
    expect(notice.getAttribute('aria-label')).toBe('Not part of this organization’s plan');
    expect(notice.textContent).toContain('Your plan does not include Apple Podcasts Subscriptions.');
    expect(notice.textContent).toContain('An admin of the studio can add it under Billing & features.');
    expect(el.textContent).not.toContain('That did not work');
    expect([...el.querySelectorAll('button')].map((b) => b.textContent)).not.toContain(LINK);

    // The session remembers it from the refusal itself (api.ts onExplained403): the same part shown
    // afresh says so at once, as a notice, and offers no Link once it has read the link's state.
    document.body.innerHTML = '';
    const again = await mount(
      <Router hook={hook}>
        <PremiumFeedsCard playlist={playlist} organizationId={ORG_PODCASTS} programId={row!.program_id} mayManage />
      </Router>,
    );
    await settleUntil(() => !again.textContent!.includes('Loading…'));
    expect(again.textContent).not.toContain('Loading…');
    expect(again.querySelector('[role="alert"]')).toBeNull();
    expect(again.querySelector('[role="status"][aria-label="Not part of this organization’s plan"]')?.textContent).toContain('Your plan does not include Apple Podcasts Subscriptions.');
    expect([...again.querySelectorAll('button')].map((b) => b.textContent)).not.toContain(LINK);
  }, 60_000);
});
