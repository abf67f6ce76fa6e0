// The support inbox (issue 33: "Contact support reaches someone"; the routes: api/support.ts).
//
//   contact form ──POST /internal/custom-support──> support_enquiries (Open) ──┬─ the inbox lists it
//                                                  └─ CASTAWAY_SUPPORT_EMAIL set: a mail queued in
//                                                     the same transaction (kept unsent without SMTP)
//   inbox ──PATCH { Handled }──> Handled (by whom, when) ⇄ Open
import { randomUUID } from 'node:crypto';
import type { ContactEnquiry } from '../../src/protocol/entities.ts';
import type { SupportEnquiry, SupportEnquiryState } from '../../src/protocol/api/support.ts';
import { now, type AppDeps } from '../app.ts';
import { paged, type Page } from '../api/lists.ts';
import { mailSettings, sendMail } from '../mail/outbox.ts';
import { supportEnquiryMail } from '../mail/templates.ts';
import type { Queryable } from '../store/store.ts';

/** Where the inbox is in the studio (the mail's button). */
export const SUPPORT_INBOX_PATH = '/admin/support';

/** Keeps an enquiry, and mails it to the support address when one is configured. */
export async function recordEnquiry(deps: AppDeps, input: { userId: string; organizationId: string | null; enquiry: ContactEnquiry; origin: string }): Promise<void> {
  const at = now(deps);
  const supportTo = mailSettings(deps.mail).supportTo;
  await deps.store.tx(async (q) => {
    await q.query(`INSERT INTO support_enquiries (id, user_id, organization_id, enquiry, created_at_utc) VALUES ($1, $2, $3, $4, $5)`, [
      randomUUID(),
      input.userId,
      input.organizationId,
      JSON.stringify(input.enquiry),
      at,
    ]);
    if (supportTo === null) return;
    const [org] = input.organizationId ? await q.query<{ name: string }>(`SELECT name FROM organizations WHERE id = $1`, [input.organizationId]) : [];
    await sendMail(q, supportEnquiryMail({ to: supportTo, enquiry: input.enquiry, organizationName: org?.name ?? null, inboxLink: `${input.origin}${SUPPORT_INBOX_PATH}` }), at);
  });
}

type EnquiryRow = {
  id: string;
  created_at_utc: Date;
  handled_at_utc: Date | null;
  handled_by_name: string | null;
  user_id: string | null;
  user_email: string | null;
  organization_id: string | null;
  organization_name: string | null;
  enquiry: Partial<ContactEnquiry>;
};

const SELECT = `SELECT e.id, e.created_at_utc, e.handled_at_utc, h.name AS handled_by_name, e.user_id, u.email AS user_email,
    e.organization_id, o.name AS organization_name, e.enquiry
  FROM support_enquiries e LEFT JOIN users u ON u.id = e.user_id LEFT JOIN users h ON h.id = e.handled_by_id LEFT JOIN organizations o ON o.id = e.organization_id`;

function toWire(r: EnquiryRow): SupportEnquiry {
  return {
    Id: r.id,
    CreatedAtUtc: new Date(r.created_at_utc).toISOString(),
    State: r.handled_at_utc ? 'Handled' : 'Open',
    HandledAtUtc: r.handled_at_utc ? new Date(r.handled_at_utc).toISOString() : null,
    HandledByName: r.handled_by_name,
    UserId: r.user_id,
    UserEmail: r.user_email,
    OrganizationId: r.organization_id,
    OrganizationName: r.organization_name,
    Enquiry: r.enquiry,
  };
}

/** A page of the inbox, newest first; `states` empty or both: every enquiry. */
export async function listEnquiries(q: Queryable, states: readonly SupportEnquiryState[], page: Page) {
  const only = states.length === 1 ? (states[0] === 'Open' ? 'WHERE e.handled_at_utc IS NULL' : 'WHERE e.handled_at_utc IS NOT NULL') : '';
  const rows = await q.query<EnquiryRow>(`${SELECT} ${only} ORDER BY e.created_at_utc DESC, e.id LIMIT $1 OFFSET $2`, [page.pageSize + 1, page.offset]);
  return paged(rows.map(toWire), page);
}

/** Marks an enquiry handled by `userId` now, or open again; null when there is no such enquiry. */
export async function setHandled(deps: AppDeps, id: string, handled: boolean, userId: string): Promise<SupportEnquiry | null> {
  // Marking a handled enquiry handled again keeps who handled it first, and when.
  const updated = handled
    ? await deps.store.query(`UPDATE support_enquiries SET handled_at_utc = coalesce(handled_at_utc, $2), handled_by_id = coalesce(handled_by_id, $3) WHERE id = $1 RETURNING id`, [id, now(deps), userId])
    : await deps.store.query(`UPDATE support_enquiries SET handled_at_utc = NULL, handled_by_id = NULL WHERE id = $1 RETURNING id`, [id]);
  if (updated.length === 0) return null;
  const [row] = await deps.store.query<EnquiryRow>(`${SELECT} WHERE e.id = $1`, [id]);
  return row ? toWire(row) : null;
}
