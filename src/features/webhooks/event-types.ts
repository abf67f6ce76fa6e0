// Event types as the webhook form shows them: grouped by the kind of row they are about, each group
// with a select-all box, and a short summary for a webhook's card. The names, their order and
// which kind makes which event are the domain's (src/domain/webhooks.ts); nothing here adds one.
import { WEBHOOK_ENTITIES, WEBHOOK_EVENT_TYPES, webhookEventsOf, type WebhookEntity } from '../../domain/webhooks.ts';

export type EventGroup = { entity: WebhookEntity | null; types: string[] };

/** Every event a write of a row of `entity` can make, by the domain's own rule: a create, a
 * delete, and an update that changed every field those events look at. */
function eventsOfEntity(entity: WebhookEntity): string[] {
  const everyField = { Deleted: false, Visibility: null, PublishState: null };
  return [...webhookEventsOf(entity, null, false), ...webhookEventsOf(entity, { Deleted: false }, true), ...webhookEventsOf(entity, everyField, false)];
}
const ENTITY_OF = new Map<string, WebhookEntity>(WEBHOOK_ENTITIES.flatMap((entity) => eventsOfEntity(entity).map((type) => [type, entity] as const)));

/** The kind of row an event type is about (PublishStateChanged → clip), null for one the domain
 * makes of no row (a type this build does not know). */
export function entityOf(eventType: string): WebhookEntity | null {
  return ENTITY_OF.get(eventType) ?? null;
}

/** The event types by kind, in the order of WEBHOOK_ENTITIES, each group's types in the given
 * order; types of no kind last, together. */
export function groupEventTypes(types: readonly string[] = WEBHOOK_EVENT_TYPES): EventGroup[] {
  const order: Array<WebhookEntity | null> = [...WEBHOOK_ENTITIES, null];
  return order.map((entity) => ({ entity, types: types.filter((t) => entityOf(t) === entity) })).filter((g) => g.types.length > 0);
}

export type GroupSelection = 'all' | 'some' | 'none';

/** How much of a group is chosen: its select-all box is checked, mixed or clear. */
export function groupSelection(group: EventGroup, chosen: ReadonlySet<string>): GroupSelection {
  const count = group.types.filter((t) => chosen.has(t)).length;
  return count === 0 ? 'none' : count === group.types.length ? 'all' : 'some';
}

/** The choice after the group's select-all box is clicked: a fully chosen group is cleared, any
 * other is chosen whole. The result keeps the domain's order, so the body sent is stable. */
export function toggleGroup(group: EventGroup, chosen: readonly string[], order: readonly string[] = WEBHOOK_EVENT_TYPES): string[] {
  const set = new Set(chosen);
  const clear = groupSelection(group, set) === 'all';
  for (const t of group.types) {
    if (clear) set.delete(t);
    else set.add(t);
  }
  return sortedLike([...set], order);
}

/** One event type on or off, in the domain's order. */
export function toggleType(type: string, on: boolean, chosen: readonly string[], order: readonly string[] = WEBHOOK_EVENT_TYPES): string[] {
  const set = new Set(chosen);
  if (on) set.add(type);
  else set.delete(type);
  return sortedLike([...set], order);
}

/** `items` in the order of `order`; anything not in it (a type this build does not know) last. */
export function sortedLike(items: readonly string[], order: readonly string[]): string[] {
  const rank = new Map(order.map((t, i) => [t, i]));
  return [...items].sort((a, b) => (rank.get(a) ?? Number.MAX_SAFE_INTEGER) - (rank.get(b) ?? Number.MAX_SAFE_INTEGER));
}

export type EventSummaryPart = { kind: 'all'; entity: WebhookEntity } | { kind: 'types'; types: string[] };

/** A webhook's event types for its card, kind by kind in the form's order: a kind whose every
 * event is chosen reads as one "all events" part, the others' chosen types by name. */
export function summarizeEventTypes(chosen: readonly string[], all: readonly string[] = WEBHOOK_EVENT_TYPES): EventSummaryPart[] {
  const set = new Set(chosen);
  const known = new Set(all);
  const parts: EventSummaryPart[] = [];
  for (const group of groupEventTypes([...all, ...chosen.filter((t) => !known.has(t))])) {
    if (group.entity !== null && group.types.length > 1 && groupSelection(group, set) === 'all') parts.push({ kind: 'all', entity: group.entity });
    else {
      const types = group.types.filter((t) => set.has(t));
      if (types.length > 0) parts.push({ kind: 'types', types });
    }
  }
  return parts;
}
