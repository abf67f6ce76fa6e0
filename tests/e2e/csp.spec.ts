// Issue 35, the Content-Security-Policy in a real browser: the studio (with its inline theme
// snippet), the sync worker, the audio decode worker (WebAssembly FLAC and MP3 decoders), the
// service worker serving the app offline, and a published clip's embed player all run with no
// violation. Violations are heard three ways: the page's securitypolicyviolation events, Chromium's
// DevTools issues, and the console messages of the page and of each worker.
import { expect, test, type ConsoleMessage, type Page } from '@playwright/test';
import { logIn, organizationIdOf } from './support.ts';
import { openRecording, recordingLoaded, reloadOffline } from './recordings.ts';
import { publicPaths } from '../../src/domain/public-urls.ts';

// This spec goes offline and reloads, or looks at the service worker itself: it runs with it (playwright.config.ts).
test.use({ serviceWorkers: 'allow' });

type Clip = { Id: string; State: string; Deleted: boolean; PublishState: string; Urls: { AudioPublicUrl: string | null } };

async function listenForViolations(page: Page): Promise<string[]> {
  const violations: string[] = [];
  await page.addInitScript(() => {
    document.addEventListener('securitypolicyviolation', (e) => console.error(`CSP violation: ${e.violatedDirective} blocked ${e.blockedURI} in ${e.sourceFile}:${e.lineNumber}`));
  });
  const heard = (where: string) => (m: ConsoleMessage) => {
    if (/CSP violation|Content Security Policy/i.test(m.text())) violations.push(`${where}: ${m.text()}`);
  };
  page.on('console', heard('page'));
  // A worker's policy is its own script's; Chromium logs what it refuses to the worker's console.
  page.on('worker', (worker) => worker.on('console', heard(`worker ${worker.url()}`)));
  const cdp = await page.context().newCDPSession(page);
  cdp.on('Audits.issueAdded', ({ issue }) => {
    if (issue.code === 'ContentSecurityPolicyIssue') violations.push(JSON.stringify(issue.details.contentSecurityPolicyIssueDetails));
  });
  await cdp.send('Audits.enable');
  return violations;
}

test('the studio, its workers, the service worker offline and the embed player run under the policy with no violation', async ({ page, context }) => {
  const violations = await listenForViolations(page);
  await logIn(page);
  // The theme snippet ran (allowed by its hash): the page has a theme before React.
  await expect(page.locator('html')).toHaveAttribute('data-theme', /^(light|dark)$/);

  // The decode worker compiles the WebAssembly decoders and draws the recording's waveform.
  await openRecording(page, 'Business Hour', /finalized recording/);
  const organizationId = organizationIdOf(page);
  // The sync worker talks to the server.
  await expect(page.getByRole('navigation', { name: 'Main' }).getByRole('status')).toHaveText('All changes saved', { timeout: 30_000 });
  await recordingLoaded(page);
  await expect(page.getByRole('region', { name: 'Audio' }).locator('canvas').first()).toBeVisible();

  // Offline, the service worker serves the studio (its own policy comes with its script).
  await reloadOffline(page, context);
  await context.setOffline(false);

  // A published clip's embed player: a page of its own, made to be framed by any site.
  const list = (await (await page.request.get('/api/v1/clips?pageSize=2500', { headers: { 'x-organization-id': organizationId } })).json()) as { Items: Clip[] };
  const published = list.Items.find((c) => !c.Deleted && c.State === 'Ready' && c.PublishState === 'Published' && c.Urls.AudioPublicUrl !== null);
  expect(published, 'a published clip with public audio').toBeDefined();
  await page.goto(publicPaths.embed(published!.Id));
  await expect(page.getByRole('button', { name: 'Play', exact: true })).toBeVisible();
  await expect(page.getByRole('slider', { name: 'Seek' })).toBeVisible();

  expect(violations).toEqual([]);
});
