// Members of a program and their private (premium) feeds (issue 29, specification section 7
// "Programs, networks, playlists, members"): the rules the server and the studio share.
//
//   member ──token (secret, in the feed URL)──> /feeds/{playlistId}/members/{token}.xml
//     │           new token: the old URL answers 404 at once; revoked or removed: 404 as well
//     ▼
//   each enclosure: a signed media URL of the program's CURRENT signing key
//     /audio/m/{memberId}/{clipId}.{ext}?k={keyId}&exp={unix s}&af={0|1}&sig={HMAC-SHA256}
//
// Signing keys of a program:
//
//   (first URL signed) ──> Current ──rotate──> Retiring (still verifies) ──RetiresAtUtc──> Retired
//                                       └──> a new key is Current          (refused, material erased)
//
// Expiry is in whole windows so a feed's ETag stays the same within one: a URL signed in window w
// expires at the end of window w + MEMBER_URL_LIFETIME, and a key stays valid after its rotation
// for as long as the longest URL it signed (SIGNING_KEY_GRACE), so nothing in a listener's app
// stops playing because of a rotation alone.
import { validateEmail, validateName } from './validators.ts';
import { formError, type FormError } from './form-errors.ts';
import type { FieldError } from '../protocol/errors.ts';

/** The feed's signed URLs change once per window (the feed's ETag with them). */
export const MEMBER_URL_WINDOW_SECONDS = 24 * 60 * 60;
/** How long a signed media URL stays good after the window it was signed in. */
export const MEMBER_URL_LIFETIME_SECONDS = 7 * 24 * 60 * 60;
/** A rotated key verifies for this long: the longest life of a URL it signed. */
export const SIGNING_KEY_GRACE_SECONDS = MEMBER_URL_WINDOW_SECONDS + MEMBER_URL_LIFETIME_SECONDS;

export const MEMBER_NOTE_MAX_LENGTH = 2000;

/** The window a time is in (whole windows since the epoch). */
export const memberUrlWindow = (now: Date) => Math.floor(now.getTime() / 1000 / MEMBER_URL_WINDOW_SECONDS);

/** The expiry (unix seconds) of a URL signed at `now`. */
export const memberUrlExpiry = (now: Date) => (memberUrlWindow(now) + 1) * MEMBER_URL_WINDOW_SECONDS + MEMBER_URL_LIFETIME_SECONDS;

/** What a signature covers: the member, the clip, the expiry and whether the audio is ad-free. */
export function memberUrlPayload(memberId: string, clipId: string, expires: number, adFree: boolean): string {
  return `castaway-member-audio-v1\n${memberId.toLowerCase()}\n${clipId.toLowerCase()}\n${expires}\n${adFree ? 1 : 0}`;
}

export type SigningKeyState = 'Current' | 'Retiring' | 'Retired';

/** A key's state at `now` (RetiresAtUtc null: the current key). */
export function signingKeyState(retiresAt: Date | string | null, now: Date): SigningKeyState {
  if (retiresAt === null) return 'Current';
  return new Date(retiresAt).getTime() > now.getTime() ? 'Retiring' : 'Retired';
}

/** Whether a member's signed URL may serve a clip: published and not Private (Restricted too:
 * that is what members are for), not deleted. */
export function servesMemberAudio(clip: { PublishState?: string | null | undefined; Visibility?: string | null | undefined; Deleted?: boolean | null | undefined }): boolean {
  return clip.Deleted !== true && clip.PublishState === 'Published' && (clip.Visibility === 'Public' || clip.Visibility === 'Unlisted' || clip.Visibility === 'Restricted');
}

/** Whether a playlist serves member feeds: any that is not Private or deleted. */
export function playlistHasMemberFeed(playlist: { Deleted?: boolean | null | undefined; Visibility: string }): boolean {
  return playlist.Deleted !== true && playlist.Visibility !== 'Private';
}

export type MemberFields = { Name?: string | null | undefined; Email?: string | null | undefined; Note?: string | null | undefined };

export const validateMemberName = (value: string | null | undefined) => validateName(value);
export const validateMemberEmail = (value: string | null | undefined) => validateEmail(value);
export function validateMemberNote(value: string | null | undefined): FormError | null {
  return value !== null && value !== undefined && value.trim().length > MEMBER_NOTE_MAX_LENGTH ? formError('tooLong', 'domain_invalid', { max: MEMBER_NOTE_MAX_LENGTH }) : null;
}

/** The member form's errors by field (only the fields given are checked: a PATCH checks its own). */
export function memberFormErrors(fields: MemberFields, options: { partial?: boolean } = {}): Partial<Record<'Name' | 'Email' | 'Note', FormError>> {
  const out: Partial<Record<'Name' | 'Email' | 'Note', FormError>> = {};
  const check = (key: 'Name' | 'Email', validate: (v: string | null | undefined) => FormError | null) => {
    if (options.partial && fields[key] === undefined) return;
    const error = validate(fields[key]);
    if (error) out[key] = error;
  };
  check('Name', validateMemberName);
  check('Email', validateMemberEmail);
  const note = validateMemberNote(fields.Note);
  if (note) out.Note = note;
  return out;
}

/**
 * The 400's code at Email when another live member of the program has the address. Two live
 * members of one program never share an e-mail address (a studio would mail, and count, one
 * listener twice), compared trimmed and in any case. Live: not revoked (a removed member's row is
 * deleted), so a revoked member's address may go to a new member, and restoring the revoked one is
 * then refused the same way. Only the server can say (the screen holds one page of members): it
 * checks, and a partial unique index (sync-server/members/migrations/0451_member_email_unique.sql)
 * decides when two requests race.
 */
export const MEMBER_EMAIL_EXISTS = 'EmailExists';

/** Its English words, members_email_exists of the members catalogue (locales/members, where the
 * studio says it in its user's language by the code; member-feeds.test.ts keeps the two equal). */
export const MEMBER_EMAIL_EXISTS_MESSAGE = 'Another member of this program already has this email address.';

/** The field error of that 400 (no MessageKey: that names the domain catalogue only). */
export const memberEmailExistsError = (): FieldError => ({ Field: 'Email', Code: MEMBER_EMAIL_EXISTS, Message: MEMBER_EMAIL_EXISTS_MESSAGE });

/** The flags on a program that manage its members and keys: those that edit its settings
 * (src/domain/structure-access.ts mayEditProgram). */
export const MEMBER_MANAGER_FLAGS = ['HasContentAccess', 'HasManageSettingsAccess'] as const;

/** The path of a member's signed media URL (its query: the signature). Four segments, so it is
 * never taken for the public audio's /audio/{clipId}/ad-free.{ext}. */
export const memberAudioPath = (memberId: string, clipId: string, ext: string) => `/audio/m/${memberId}/${clipId}.${ext}`;

/** A feed URL that opens a podcast app's subscribe screen (podcast://…). */
export const podcastSchemeUrl = (url: string) => url.replace(/^https?:\/\//i, 'podcast://');
