// Section 5's cuts of the contact enquiry (AdditionalInfo 2048, BrowserLocale 255) never split a
// character: an emoji, a surrogate pair or a letter with its combining marks that would straddle
// the limit is left out whole.
import { describe, expect, it } from 'vitest';
import { CONTACT_ADDITIONAL_INFO_MAX, CONTACT_BROWSER_LOCALE_MAX } from './constants.ts';
import { buildContactRequest, truncateText } from './contact.ts';

const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

describe('truncateText', () => {
  it('leaves a value within the limit as it is, and cuts plain text at exactly the limit', () => {
    expect(truncateText('abc', 3)).toBe('abc');
    expect(truncateText('', 0)).toBe('');
    expect(truncateText('abcdef', 4)).toBe('abcd');
  });

  it('leaves out a surrogate pair the limit falls inside, instead of keeping half of it', () => {
    const value = `${'a'.repeat(9)}😀b`; // the emoji is code units 9 and 10
    expect(value.slice(0, 10)).toMatch(LONE_SURROGATE); // what a plain slice would store
    expect(truncateText(value, 10)).toBe('a'.repeat(9));
    expect(truncateText(value, 11)).toBe(`${'a'.repeat(9)}😀`);
  });

  it('keeps an emoji sequence (a family joined by ZWJ, a flag, a skin tone) whole or not at all', () => {
    const family = '👩‍👩‍👧‍👦'; // 11 code units, one character
    expect(family).toHaveLength(11);
    for (let max = 1; max < 11; max++) expect(truncateText(`${family}x`, max), String(max)).toBe('');
    expect(truncateText(`${family}x`, 11)).toBe(family);
    expect(truncateText('ab🇧🇷', 5)).toBe('ab'); // a flag is two regional indicators: 4 units
    expect(truncateText('ab👍🏽', 5)).toBe('ab'); // thumbs up with a skin tone: 4 units
  });

  it('keeps a letter with its combining marks together', () => {
    const e = 'e\u0301\u0323'; // e with acute and dot below: 3 code units, one character
    expect(truncateText(`ab${e}`, 4)).toBe('ab');
    expect(truncateText(`ab${e}`, 5)).toBe(`ab${e}`);
    expect(truncateText('한국어', 2)).toBe('한국'); // precomposed Hangul: one unit each
  });

  it('at the specification limits, an emoji straddling the limit is dropped and no half of it stays', () => {
    const info = `${'i'.repeat(CONTACT_ADDITIONAL_INFO_MAX - 1)}😀 and more`;
    const cut = truncateText(info, CONTACT_ADDITIONAL_INFO_MAX);
    expect(cut).toBe('i'.repeat(CONTACT_ADDITIONAL_INFO_MAX - 1));
    expect(cut).not.toMatch(LONE_SURROGATE);
    const locale = `${'l'.repeat(CONTACT_BROWSER_LOCALE_MAX - 2)}e\u0301\u0301x`;
    expect(truncateText(locale, CONTACT_BROWSER_LOCALE_MAX)).toBe('l'.repeat(CONTACT_BROWSER_LOCALE_MAX - 2));
  });
});

describe('buildContactRequest', () => {
  it('cuts AdditionalInfo at a character boundary and reports the cut', () => {
    const form = { ContactName: 'Ann', ContactEmail: 'ann@example.com', ContactEnquiry: 'Help' };
    const additionalInfo = `${'i'.repeat(CONTACT_ADDITIONAL_INFO_MAX - 1)}🎙️`;
    const { request, truncations } = buildContactRequest(form, { additionalInfo, browserLocale: 'de-DE', sourceUrl: '/x' });
    expect(request.AdditionalInfo).toBe('i'.repeat(CONTACT_ADDITIONAL_INFO_MAX - 1));
    expect(truncations).toEqual([{ field: 'AdditionalInfo', originalLength: additionalInfo.length, limit: CONTACT_ADDITIONAL_INFO_MAX }]);
  });
});
