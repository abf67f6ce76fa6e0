// For the Playwright specs of the clip screen: gives a clip a fixture's audio through the API
// (PUT /api/v1/clips/{clipId}/audio, as an upload would) and waits until the server has it Ready.
import { readFileSync } from 'node:fs';
import { expect, type Page } from '@playwright/test';
import { apiGet } from '../e2e/support.ts';
import { fixturePath } from './fixtures.ts';

export async function putClipAudio(page: Page, organizationId: string, clipId: string, fixture = 'speech-12s.mp3'): Promise<void> {
  const { XsrfToken } = (await (await page.request.get('/api/internal/session/xsrf')).json()) as { XsrfToken: string };
  const put = await page.request.put(`/api/v1/clips/${clipId}/audio?fileName=${encodeURIComponent(fixture)}`, {
    headers: { 'x-organization-id': organizationId, 'x-xsrf-token': XsrfToken, 'content-type': 'application/octet-stream' },
    data: readFileSync(fixturePath(fixture)),
  });
  expect(put.status()).toBe(202);
  await expect.poll(async () => (await apiGet<{ State: string }>(page, `/v1/clips/${clipId}`, organizationId)).State, { timeout: 30_000 }).toBe('Ready');
}
