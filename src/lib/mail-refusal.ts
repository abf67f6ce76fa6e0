// The refusal every call that mails a link can get when the studio was reached under a name it does
// not know and has no PUBLIC_URL (sync-server/public-origin.ts mailOrigin: 421): nothing was sent,
// and the user is told who can fix it rather than that something failed.
import { m } from '../paraglide/messages.js';
import type { ApiResult } from './api.ts';

/** The text for a 421 from a call that mails a link, else null. */
export function mailUnknownHostText(res: ApiResult<unknown>): string | null {
  return res.kind === 'status' && res.status === 421 ? m.app_mail_unknown_host() : null;
}
