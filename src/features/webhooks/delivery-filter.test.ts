import { describe, expect, it } from 'vitest';
import { deliveryQuery, deliveryViewSearch, readDeliveryView, withFilter } from './delivery-filter.ts';

const STATUSES = ['Pending', 'Retrying', 'Succeeded', 'Failed'] as const;
const HOOK = '0a1b2c3d-4e5f-4a6b-8c7d-9e0f1a2b3c4d';

describe('the delivery log view in the URL', () => {
  it('no webhook named means the list of webhooks', () => {
    expect(readDeliveryView(new URLSearchParams('section=webhooks'), STATUSES)).toBeNull();
    expect(readDeliveryView(new URLSearchParams('webhook=not-a-guid'), STATUSES)).toBeNull();
  });

  it('reads the webhook and the filters', () => {
    const view = readDeliveryView(new URLSearchParams(`section=webhooks&webhook=${HOOK.toUpperCase()}&eventType=ClipUpdated&status=Failed&page=3`), STATUSES);
    expect(view).toEqual({ webhookId: HOOK, eventType: 'ClipUpdated', status: 'Failed', page: 3 });
  });

  it('a status that does not exist, or page 0 read as no filter and page 1', () => {
    const view = readDeliveryView(new URLSearchParams(`webhook=${HOOK}&status=Lost&page=0`), STATUSES);
    expect(view).toEqual({ webhookId: HOOK, eventType: null, status: null, page: 1 });
    expect(readDeliveryView(new URLSearchParams(`webhook=${HOOK}&page=2.5`), STATUSES)?.page).toBe(1);
  });

  it('writes the view beside the section, defaults left out, and back to the list', () => {
    const current = new URLSearchParams('section=webhooks&status=Failed');
    expect(deliveryViewSearch(current, { webhookId: HOOK, eventType: null, status: null, page: 1 })).toBe(`?section=webhooks&webhook=${HOOK}`);
    expect(deliveryViewSearch(current, { webhookId: HOOK, eventType: 'ClipUpdated', status: 'Succeeded', page: 2 })).toBe(
      `?section=webhooks&webhook=${HOOK}&eventType=ClipUpdated&status=Succeeded&page=2`,
    );
    expect(deliveryViewSearch(new URLSearchParams(`section=webhooks&webhook=${HOOK}&page=4`), null)).toBe('?section=webhooks');
    expect(deliveryViewSearch(new URLSearchParams(`webhook=${HOOK}`), null)).toBe('');
  });

  it('round-trips', () => {
    const view = { webhookId: HOOK, eventType: 'PlaylistUpdated', status: 'Retrying' as const, page: 5 };
    expect(readDeliveryView(new URLSearchParams(deliveryViewSearch(new URLSearchParams(), view)), STATUSES)).toEqual(view);
  });
});

describe('the log query', () => {
  it('sends only the filters that are set, with the page', () => {
    expect(deliveryQuery({ webhookId: HOOK, eventType: null, status: null, page: 1 }, 20)).toEqual({ page: '1', pageSize: '20' });
    expect(deliveryQuery({ webhookId: HOOK, eventType: 'ClipUpdated', status: 'Failed', page: 2 }, 20)).toEqual({ eventType: 'ClipUpdated', status: 'Failed', page: '2', pageSize: '20' });
  });

  it('changing a filter goes back to the first page', () => {
    const view = { webhookId: HOOK, eventType: null, status: null, page: 4 };
    expect(withFilter(view, { status: 'Failed' })).toEqual({ ...view, status: 'Failed', page: 1 });
    expect(withFilter({ ...view, eventType: 'ClipUpdated' }, { eventType: null }).eventType).toBeNull();
  });
});
