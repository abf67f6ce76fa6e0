import { describe, expect, it } from 'vitest';
import {
  MEMBER_EMAIL_EXISTS,
  MEMBER_EMAIL_EXISTS_MESSAGE,
  MEMBER_NOTE_MAX_LENGTH,
  MEMBER_URL_LIFETIME_SECONDS,
  MEMBER_URL_WINDOW_SECONDS,
  memberAudioPath,
  memberEmailExistsError,
  memberFormErrors,
  memberUrlExpiry,
  memberUrlPayload,
  memberUrlWindow,
  playlistHasMemberFeed,
  podcastSchemeUrl,
  servesMemberAudio,
  signingKeyState,
} from './member-feeds.ts';
import enUS from '../../locales/members/en-US.json';
import deDE from '../../locales/members/de-DE.json';
import es419 from '../../locales/members/es-419.json';
import frFR from '../../locales/members/fr-FR.json';
import itIT from '../../locales/members/it-IT.json';
import ptBR from '../../locales/members/pt-BR.json';

const CATALOGUES: Array<Record<string, string | undefined>> = [enUS, deDE, es419, frFR, itIT, ptBR];

describe('member feeds', () => {
  it('sign in whole windows: every URL signed within one window expires at the same time, a lifetime after it', () => {
    const start = new Date(Date.UTC(2026, 11, 2));
    const later = new Date(start.getTime() + (MEMBER_URL_WINDOW_SECONDS - 1) * 1000);
    expect(memberUrlWindow(later)).toBe(memberUrlWindow(start));
    expect(memberUrlExpiry(later)).toBe(memberUrlExpiry(start));
    expect(memberUrlExpiry(start)).toBe(start.getTime() / 1000 + MEMBER_URL_WINDOW_SECONDS + MEMBER_URL_LIFETIME_SECONDS);
    expect(memberUrlPayload('ABC', 'DEF', 5, true)).toBe('castaway-member-audio-v1\nabc\ndef\n5\n1');
    expect(memberUrlPayload('abc', 'def', 5, false)).not.toBe(memberUrlPayload('abc', 'def', 5, true));
  });

  it('a signing key is Current until rotated, Retiring while it still verifies, then Retired', () => {
    const now = new Date('2026-12-02T12:00:00Z');
    expect(signingKeyState(null, now)).toBe('Current');
    expect(signingKeyState('2026-12-03T00:00:00Z', now)).toBe('Retiring');
    expect(signingKeyState(new Date('2026-12-02T12:00:00Z'), now)).toBe('Retired');
  });

  it('serve published clips that are not Private, Restricted ones included, from playlists that are not Private', () => {
    expect(servesMemberAudio({ PublishState: 'Published', Visibility: 'Restricted' })).toBe(true);
    expect(servesMemberAudio({ PublishState: 'Published', Visibility: 'Public' })).toBe(true);
    expect(servesMemberAudio({ PublishState: 'Published', Visibility: 'Private' })).toBe(false);
    expect(servesMemberAudio({ PublishState: 'Unpublished', Visibility: 'Public' })).toBe(false);
    expect(servesMemberAudio({ PublishState: 'Published', Visibility: 'Unlisted', Deleted: true })).toBe(false);
    expect(playlistHasMemberFeed({ Visibility: 'Restricted' })).toBe(true);
    expect(playlistHasMemberFeed({ Visibility: 'Private' })).toBe(false);
    expect(playlistHasMemberFeed({ Visibility: 'Public', Deleted: true })).toBe(false);
  });

  it('check a member’s name, e-mail and note; a partial change only the fields it gives', () => {
    expect(Object.keys(memberFormErrors({ Name: '', Email: 'nope' }))).toEqual(['Name', 'Email']);
    expect(memberFormErrors({ Name: 'Ada', Email: 'ada@example.com', Note: null })).toEqual({});
    expect(memberFormErrors({ Note: 'x' }, { partial: true })).toEqual({});
    expect(memberFormErrors({ Name: 'Ada', Email: 'ada@example.com', Note: 'x'.repeat(MEMBER_NOTE_MAX_LENGTH + 1) }).Note?.type).toBe('tooLong');
  });

  it('make the media path of four segments and the podcast:// subscribe link', () => {
    expect(memberAudioPath('m', 'c', 'mp3')).toBe('/audio/m/m/c.mp3');
    expect(podcastSchemeUrl('https://listen.example.com/feeds/p/members/t.xml')).toBe('podcast://listen.example.com/feeds/p/members/t.xml');
  });

  it('name an address another member has at Email, in the members catalogue’s words, said in every locale', () => {
    expect(memberEmailExistsError()).toEqual({ Field: 'Email', Code: MEMBER_EMAIL_EXISTS, Message: 'Another member of this program already has this email address.' });
    const said = CATALOGUES.map((c) => c.members_email_exists);
    expect(said[0]).toBe(MEMBER_EMAIL_EXISTS_MESSAGE);
    expect(said[1]).toBe('Ein anderes Mitglied dieses Programms hat bereits diese E-Mail-Adresse.');
    // Each locale in its own words (none left empty or in English).
    expect(new Set(said.filter((t) => typeof t === 'string' && t.length > 0)).size).toBe(CATALOGUES.length);
  });
});
