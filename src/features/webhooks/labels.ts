// The words of webhooks' states, kinds and changes, in the interface language.
import { m } from '../../paraglide/messages.js';
import { WEBHOOK_EVENT_STATUSES, WEBHOOK_TEST_EVENT, type WebhookEntity, type WebhookEventStatus } from '../../domain/webhooks.ts';

export const EVENT_STATUSES = WEBHOOK_EVENT_STATUSES;

const STATUS: Record<WebhookEventStatus, () => string> = {
  Pending: () => m.webhooks_status_pending(),
  Retrying: () => m.webhooks_status_retrying(),
  Succeeded: () => m.webhooks_status_succeeded(),
  Failed: () => m.webhooks_status_failed(),
};
export const statusLabel = (status: WebhookEventStatus): string => STATUS[status]();
export const STATUS_PILL: Record<WebhookEventStatus, string> = { Pending: 'pill-pending', Retrying: 'pill-warning', Succeeded: 'pill-ready', Failed: 'pill-error' };

const ENTITY: Record<WebhookEntity, () => string> = {
  clip: () => m.webhooks_entity_clip(),
  program: () => m.webhooks_entity_program(),
  playlist: () => m.webhooks_entity_playlist(),
  network: () => m.webhooks_entity_network(),
  recording: () => m.webhooks_entity_recording(),
};
/** A group's name in the form ("Clips"); null: types this build has no kind for. */
export const entityLabel = (entity: WebhookEntity | null): string => (entity ? ENTITY[entity]() : m.webhooks_entity_other());

/** What happened, within its kind's group ("Updated" under Clips). */
export function changeLabel(eventType: string): string {
  if (eventType === 'ClipVisibilityChanged') return m.webhooks_change_visibility();
  if (eventType === 'PublishStateChanged') return m.webhooks_change_publish_state();
  if (eventType === WEBHOOK_TEST_EVENT) return m.webhooks_event_test();
  if (eventType.endsWith('Created')) return m.webhooks_change_created();
  if (eventType.endsWith('Updated')) return m.webhooks_change_updated();
  if (eventType.endsWith('Deleted')) return m.webhooks_change_deleted();
  return eventType;
}

/** A receiver's answer: its HTTP status, or that none came. */
export const answerLabel = (status: number | null): string => (status === null ? m.webhooks_no_answer() : m.webhooks_http_status({ status: String(status) }));
