// @vitest-environment happy-dom
// Organization analytics in an organization whose plan lacks playlist-download-analytics, on a
// device that is offline (every fetch fails): the plan is known from the session kept on the
// device, so the screen says that the plan does not include it (not "connect to the network", and
// nothing asked of the network), with the way to Billing & features for an admin. An organization
// whose plan includes it gets the figures' own offline notice instead.
import 'fake-indexeddb/auto';
import { afterEach, describe, expect, it } from 'vitest';
import { OrganizationAnalyticsScreen } from './AnalyticsScreens.tsx';
import { signInOffline } from '../../../tests/offline-session.ts';
import { mountAt, settle } from '../../../tests/dom-actions.ts';

(globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true;

const ORG = '3f2504e0-4f89-41d3-9a0c-0305e82c3301';
const FLAGS = { HasContentAccess: true, HasAnalyticsAccess: true };

/** Signs in offline, counting the fetches the screen tries from then on. */
async function signIn(features?: Parameters<typeof signInOffline>[3]): Promise<{ tried: () => number }> {
  await signInOffline(ORG, 'organization', FLAGS, features);
  let tried = 0;
  globalThis.fetch = () => {
    tried++;
    return Promise.reject(new TypeError('offline'));
  };
  Object.defineProperty(navigator, 'onLine', { configurable: true, get: () => false });
  return { tried: () => tried };
}

async function render(): Promise<HTMLElement> {
  const el = await mountAt(`/${ORG}/analytics`, '/:organizationId/analytics', <OrganizationAnalyticsScreen />);
  await settle(200);
  return el;
}

afterEach(() => {
  document.body.innerHTML = '';
  Object.defineProperty(navigator, 'onLine', { configurable: true, get: () => true });
});

describe('Analytics not in the plan, offline', () => {
  it('says so from the device’s session at once, asking the network nothing', async () => {
    const { tried } = await signIn(['automatic-transcription', 'apple-premium']);
    const el = await render();
    const notice = el.querySelector('[aria-labelledby="not-in-plan-playlist-download-analytics"]');
    expect(notice?.textContent).toBe('Not part of this organization’s planYour plan does not include Download analytics.An admin of the studio can add it under Billing & features.');
    expect(el.textContent).not.toContain('Connect to the network');
    expect(tried()).toBe(0);
  });

  it('with the plan including it, the figures say they need the network instead', async () => {
    await signIn(['playlist-download-analytics']);
    const el = await render();
    expect(el.querySelector('[aria-labelledby="not-in-plan-playlist-download-analytics"]')).toBeNull();
    expect(el.textContent).toContain('These numbers have not been loaded on this device yet. Connect to the network to see them.');
  });
});
