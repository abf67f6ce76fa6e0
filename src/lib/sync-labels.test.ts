import { afterEach, describe, expect, it } from 'vitest';
import { baseLocale, setLocale } from './i18n.ts';
import { attentionReason, refusedErrorLines, refusedFieldText } from './sync-labels.ts';

afterEach(() => setLocale(baseLocale, { reload: false }));

// Tests run in en-US (the base locale); the server's words are checked against that catalogue.
describe('refused change texts', () => {
  it("words an error from the key the server names, the field by the form's label", () => {
    const error = { Field: 'Title', Code: 'required', Message: 'You must enter a title', MessageKey: 'domain_title_required' };
    expect(refusedFieldText(error, 'clips')).toBe('You must enter a title');
    expect(refusedErrorLines({ entity: 'clips', errors: [error] })).toEqual(['Title: You must enter a title']);
  });

  it('words a slug error kept from before the server named keys by its code and the row it is on', () => {
    const stored = { Field: 'Slug', Code: 'SlugExists', Message: 'slug taken' };
    expect(refusedFieldText(stored, 'clips')).toBe('This slug is already in use in this program');
    expect(refusedFieldText(stored, 'playlists')).toBe('This slug is already in use');
    // A key this client does not know (a newer server): the code still words it.
    expect(refusedFieldText({ ...stored, MessageKey: 'domain_slug_taken_v2' }, 'clips')).toBe('This slug is already in use in this program');
  });

  it("keeps the server's words for anything else, and a whole-body error has no label", async () => {
    // A 413 of a server of an earlier release, which named no key: English in every language.
    await setLocale('de-DE', { reload: false });
    expect(refusedErrorLines({ entity: 'recordings', errors: [{ Field: '', Code: 'payloadTooLarge', Message: 'The request body is larger than 1 MB' }] })).toEqual([
      'The request body is larger than 1 MB',
    ]);
  });

  it("says a change too large in the user's language: the server's 413 and the sync's own for a proxy's page", async () => {
    const server = { Field: '', Code: 'payloadTooLarge', Message: 'The request body is larger than 1 MB', MessageKey: 'domain_body_too_large', Params: { maxSize: 1048576 } };
    const proxy = { Field: '', Code: 'payloadTooLarge', Message: 'The change is larger than the server accepts', MessageKey: 'domain_change_too_large' };
    expect(refusedErrorLines({ entity: 'clips', errors: [server, proxy] })).toEqual(['The request body is larger than 1 MB', 'The change is larger than the server accepts']);
    await setLocale('de-DE', { reload: false });
    expect(refusedErrorLines({ entity: 'clips', errors: [server, proxy] })).toEqual(['Die Anfrage ist größer als 1 MB', 'Die Änderung ist größer, als der Server annimmt']);
  });
});

describe('why a change needs attention', () => {
  it('says a change too large to send is too large, and names any other status', () => {
    expect(attentionReason(413)).toBe('This change is too large to send to the server. Shorten the long texts in it and make it again.');
    expect(attentionReason(422)).toBe('The server refused this change (HTTP 422).');
  });
});
