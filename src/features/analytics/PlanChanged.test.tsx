// Analytics when the organization's plan lost playlist-download-analytics after the device read its
// session, against the real server (createApp on PGlite answering the page's fetches): online, the
// server's refusal names the feature and the screen says the plan does not include it; the device
// keeps that, so offline afterwards (the session read from the device, every fetch failing) the
// screen says the same from the device's own data instead of "connect to the network".
import 'fake-indexeddb/auto';
// The page's DOM, before React loads (tests/happy-page.ts).
import '../../../tests/happy-page.ts';
import { describe, expect, it } from 'vitest';

// The charts read the screen's pixel ratio when they load (happy-page's window has it, the global not).
Object.defineProperty(globalThis, 'devicePixelRatio', { configurable: true, value: 1 });
const { OrganizationAnalyticsScreen } = await import('./AnalyticsScreens.tsx');
const { ORG_PODCASTS } = await import('../../../sync-server/seed.ts');
const { loadSubscription, saveSubscription } = await import('../../../sync-server/billing/subscriptions.ts');
const { loadSession, currentSession } = await import('../../lib/session.ts');
const { setApiOrganization } = await import('../../lib/api.ts');
const { mountAt, pageOnAppForSuite, settleUntil } = await import('../../../tests/page-on-app.ts');

const page = pageOnAppForSuite({ clips: 2 });

/** Castaway Podcasts (Starter) with or without the AdvancedAnalytics add-on, as an admin sets it. */
async function advancedAnalytics(on: boolean) {
  const s = (await loadSubscription(page().test.store, ORG_PODCASTS))!;
  await saveSubscription(page().test.store, ORG_PODCASTS, { ...s, addOns: { ...s.addOns, AdvancedAnalytics: on ? 1 : 0 } }, null, new Date());
}

async function render(): Promise<HTMLElement> {
  const el = await mountAt(`/${ORG_PODCASTS}/analytics`, '/:organizationId/analytics', <OrganizationAnalyticsScreen />);
  await settleUntil(() => el.textContent!.includes('Not part of') || el.textContent!.includes('Connect to the network'));
  return el;
}

const NOTICE = 'Your plan does not include Download analytics.';

describe('Analytics after the plan lost it', () => {
  it('says so once the server refused it, and offline afterwards from the device', async () => {
    // The session read while the plan included it.
    await advancedAnalytics(true);
    setApiOrganization(ORG_PODCASTS);
    await loadSession();
    expect(currentSession().Organizations.find((o) => o.Id === ORG_PODCASTS)?.Features).toContain('playlist-download-analytics');
    await advancedAnalytics(false);

    const online = await render();
    expect(online.textContent).toContain(NOTICE);
    document.body.innerHTML = '';

    // Offline: the session comes from the device, and so does what the plan includes.
    const serve = globalThis.fetch;
    globalThis.fetch = () => Promise.reject(new TypeError('offline'));
    Object.defineProperty(navigator, 'onLine', { configurable: true, get: () => false });
    try {
      await loadSession();
      expect(currentSession().Organizations.find((o) => o.Id === ORG_PODCASTS)?.Features).not.toContain('playlist-download-analytics');
      const offline = await render();
      expect(offline.textContent).toContain(NOTICE);
      expect(offline.textContent).not.toContain('Connect to the network');
    } finally {
      globalThis.fetch = serve;
      Object.defineProperty(navigator, 'onLine', { configurable: true, get: () => true });
    }
  }, 60_000);
});
