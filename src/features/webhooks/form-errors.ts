// A refused webhook save in words, each at the form's field it is about (the server's 400 names
// fields as sent: Url, Description, EventTypes or one of its items, the path's networkId).
import { fieldErrorText } from '../../domain/messages.ts';
import type { FieldError } from '../../protocol/errors.ts';
import type { ApiResult } from '../../lib/api.ts';
import { refusalText } from './calls.ts';

export type FieldName = 'Level' | 'Url' | 'Description' | 'EventTypes';
export type WebhookErrors = Partial<Record<FieldName | 'form', string>>;

/** The form's field a server's FieldError belongs to (EventTypes[3] is the event types'; the
 * network of the path is the level's); anything else is the form's. */
export function formFieldOf(field: string): FieldName | 'form' {
  if (field === 'Url' || field === 'Description') return field;
  if (field === 'EventTypes' || field.startsWith('EventTypes[') || field.startsWith('EventTypes.')) return 'EventTypes';
  if (field === 'networkId') return 'Level';
  return 'form';
}

/** A refused save in words, each at its field; the first word of a field wins. */
export function errorsOfRefusal(res: Exclude<ApiResult<unknown>, { kind: 'ok' }>, fallback: string): WebhookErrors {
  if (res.kind !== 'badRequest') return { form: refusalText(res, fallback) };
  const out: WebhookErrors = {};
  for (const fe of res.body.Errors as FieldError[]) out[formFieldOf(fe.Field)] ??= fieldErrorText(fe);
  return out;
}
