// The delivery log's view, kept in the page's URL beside the settings section
// (?section=webhooks&webhook=<id>&eventType=&status=&page=) so a reload, a shared
// link or the back button shows the same deliveries. Values the log cannot ask for (a status that does
// not exist, page 0) read as no filter; an event type is the server's to check (a 400 says so).

export type DeliveryView<S extends string = string> = {
  webhookId: string;
  eventType: string | null;
  status: S | null;
  page: number;
};

const GUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const VIEW_KEYS = ['webhook', 'eventType', 'status', 'page'] as const;

/** The open webhook's log, or null for the list of webhooks. */
export function readDeliveryView<S extends string>(search: URLSearchParams, statuses: readonly S[]): DeliveryView<S> | null {
  const webhookId = search.get('webhook');
  if (!webhookId || !GUID.test(webhookId)) return null;
  const status = search.get('status');
  const page = Number(search.get('page') ?? '1');
  return {
    webhookId: webhookId.toLowerCase(),
    eventType: search.get('eventType') || null,
    status: (statuses as readonly string[]).includes(status ?? '') ? (status as S) : null,
    page: Number.isInteger(page) && page >= 1 ? page : 1,
  };
}

/** The URL search of a view (null: the list), keeping the parameters that are not the log's
 * (the settings page's section) and leaving defaults out. */
export function deliveryViewSearch(current: URLSearchParams, view: DeliveryView | null): string {
  const next = new URLSearchParams(current);
  for (const key of VIEW_KEYS) next.delete(key);
  if (view) {
    next.set('webhook', view.webhookId);
    if (view.eventType) next.set('eventType', view.eventType);
    if (view.status) next.set('status', view.status);
    if (view.page > 1) next.set('page', String(view.page));
  }
  const text = next.toString();
  return text ? `?${text}` : '';
}

/** The query of the log's GET: only the filters that are set; a page of `pageSize`. */
export function deliveryQuery(view: DeliveryView, pageSize: number): { eventType?: string; status?: string; page: string; pageSize: string } {
  return {
    ...(view.eventType ? { eventType: view.eventType } : {}),
    ...(view.status ? { status: view.status } : {}),
    page: String(view.page),
    pageSize: String(pageSize),
  };
}

/** A filter changed: back to the first page (the page number of another filter means nothing). */
export function withFilter<S extends string>(view: DeliveryView<S>, change: { eventType?: string | null; status?: S | null }): DeliveryView<S> {
  return { ...view, ...change, page: 1 };
}
