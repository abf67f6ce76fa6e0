// Invitations to an organization (issue 31; specification section 7, "Users, account and
// session"): the rules the server and the accept screen share.
//
//   POST /v1/users/invitation ──> Open ──PUT /internal/invitations/{id} (token)──> Used
//                                   │  └── POST /v1/users/{userId}/invitation: a new token, a new expiry (the old link stops working)
//                                   └── INVITATION_EXPIRY_DAYS pass ──> Expired (a resend opens it again)

/** How long an invitation link works: a week, so an invitation sent on a Friday still works after
 * the weekend and a holiday, and a link left in a mailbox does not work for ever. */
export const INVITATION_EXPIRY_DAYS = 7;
export const INVITATION_EXPIRY_MS = INVITATION_EXPIRY_DAYS * 24 * 60 * 60 * 1000;

export const InvitationState = { Open: 'Open', Used: 'Used', Expired: 'Expired' } as const;
export type InvitationState = (typeof InvitationState)[keyof typeof InvitationState];

/** The state of an invitation at `at`: used wins over expired (a used link says so, however old). */
export function invitationState(invitation: { usedAtUtc: Date | string | null; expiresAtUtc: Date | string }, at: Date): InvitationState {
  if (invitation.usedAtUtc !== null) return InvitationState.Used;
  return new Date(invitation.expiresAtUtc).getTime() <= at.getTime() ? InvitationState.Expired : InvitationState.Open;
}
