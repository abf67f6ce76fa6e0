// The webhooks screen's calls (src/protocol/api/webhooks.ts) and the words for a refused one.
// A network's webhooks are listed and made under the network; once made, a webhook is read,
// changed, tested and deleted by its own id whatever its level.
import { m } from '../../paraglide/messages.js';
import { fieldErrorText } from '../../domain/messages.ts';
import * as routes from '../../protocol/api/webhooks.ts';
import { listNetworks } from '../../protocol/api/networks.ts';
import type { Webhook, WebhookCreate } from '../../protocol/api/webhooks.ts';
import { call, type ApiResult } from '../../lib/api.ts';
import type { Level } from './access.ts';

export type LevelWebhooks = { level: Level; webhooks: Webhook[] };
type Refused = Exclude<ApiResult<unknown>, { kind: 'ok' }>;

/** A page of webhooks as large as a list is likely to get: more pages are asked for while HasNext. */
const LIST_PAGE_SIZE = 200;

async function listLevel(level: Level): Promise<ApiResult<Webhook[]>> {
  const items: Webhook[] = [];
  for (let page = 1; ; page++) {
    const query = { page: String(page), pageSize: String(LIST_PAGE_SIZE) };
    const res = level.networkId === null ? await call(routes.listWebhooks, { query }) : await call(routes.listNetworkWebhooks, { params: { networkId: level.networkId }, query });
    if (res.kind !== 'ok') return res;
    items.push(...res.data.Items);
    if (!res.data.HasNext) return { ...res, data: items };
  }
}

/** Every level's webhooks; any failing list fails the whole (a partial list would hide webhooks). */
export async function listAll(levels: readonly Level[]): Promise<{ kind: 'ok'; levels: LevelWebhooks[] } | { kind: 'failed'; offline: boolean }> {
  const results = await Promise.all(levels.map(listLevel));
  const out: LevelWebhooks[] = [];
  for (const [i, res] of results.entries()) {
    if (res.kind !== 'ok') return { kind: 'failed', offline: res.kind === 'error' };
    out.push({ level: levels[i]!, webhooks: res.data });
  }
  return { kind: 'ok', levels: out };
}

/** The organization's networks as the server has them (a device that has not downloaded the
 * organization yet has none of its own), or null when they could not be read. */
export async function networksOnServer(): Promise<Array<{ Id: string; Name: string }> | null> {
  const res = await call(listNetworks, { query: { pageSize: '2500' } });
  return res.kind === 'ok' ? res.data.Items.map((n) => ({ Id: n.Id, Name: n.Name })) : null;
}

export function createAt(networkId: string | null, json: WebhookCreate) {
  return networkId === null ? call(routes.createWebhook, { json }) : call(routes.createNetworkWebhook, { params: { networkId }, json });
}

/** What to say of a refused call, where the user acted. */
export function refusalText(res: Refused, fallback: string): string {
  if (res.kind === 'error') return m.webhooks_offline_action();
  if (res.kind === 'notFound') return m.webhooks_gone();
  if (res.status === 403) return m.webhooks_forbidden();
  if (res.kind === 'badRequest') {
    const first = res.body.Errors[0];
    return first ? fieldErrorText(first) : fallback;
  }
  return fallback;
}
