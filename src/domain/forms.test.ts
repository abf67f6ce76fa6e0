import { describe, expect, it } from 'vitest';
import { validateDomain, validateDomains } from './domain-name.ts';
import { fileErrors, fileExtension, formatFileSize, validateFile } from './file.ts';
import { validatePassword, validatePasswordChange } from './password.ts';
import { buildContactRequest, contactPrefill, validateContactForm } from './contact.ts';
import { checkFieldNames, collectFieldErrors, sectionsToExpand } from './form-builder.ts';
import { buildQuery, listParameter, missingQueryParameters, REQUIRED_QUERY_PARAMETERS } from './call-params.ts';
import { formatFormError } from './messages.ts';
import { formError, type FormError } from './form-errors.ts';

const text = (e: FormError | null | undefined) => (e === null || e === undefined ? null : formatFormError(e, 'en-US'));

describe('Domain', () => {
  const label63 = 'a'.repeat(63);
  // 4 labels of 63 + 3 dots = 255; trim to exactly 253 with a shorter last label.
  const domain253 = `${label63}.${label63}.${label63}.${'b'.repeat(61)}`;
  it.each([
    ['example.com', null],
    ['@example.com', null],
    ['a@example.com', 'singleAt'],
    ['@@example.com', 'singleAt'],
    [domain253, null],
    [`${domain253}c`, 'maxLength'],
    ['.example.com', 'periods'],
    ['example.com.', 'periods'],
    ['example..com', 'periods'],
    ['localhost', 'twoLabels'],
    [`${label63}.com`, null],
    [`${label63}a.com`, 'labelLength'],
    ['-example.com', 'labelHyphen'],
    ['example-.com', 'labelHyphen'],
    ['exa_mple.com', 'labelCharacters'],
    ['exämple.com', 'labelCharacters'],
  ])('%s → %s', (value, rule) => {
    expect(domain253).toHaveLength(253);
    expect(validateDomain(value)?.reason ?? null).toBe(rule);
  });

  it('messages name the value and the 253/63 limits', () => {
    expect(text(validateDomain('localhost'))).toBe('"localhost" is not a valid domain');
    expect(text(validateDomain(`${domain253}c`))).toBe(`"${domain253}c" is longer than 253 characters`);
    expect(text(validateDomain(`${label63}a.com`))).toBe(`"${label63}a.com" has a part longer than 63 characters`);
  });

  it('split on semicolon; every invalid entry is reported', () => {
    expect(validateDomains('example.com; bad ;;x..y').map((e) => e.params?.['value'])).toEqual(['bad', 'x..y']);
    expect(validateDomains('')).toEqual([]);
    expect(validateDomains(null, { required: true }).map((e) => e.type)).toEqual(['required']);
  });
});

describe('File', () => {
  const ok = { name: 'episode.mp3', size: 5 * 1024 * 1024 };
  it.each([
    [null, {}, 'No file selected'],
    [{ ...ok, cloudOnly: true }, {}, 'This file is stored only in the cloud; download it to your device first'],
    [{ ...ok, size: 0 }, {}, 'File cannot be empty'],
    [{ ...ok, name: ' ' }, {}, 'File name cannot be empty'],
    [{ ...ok, size: 3 * 1024 * 1024 }, { maxBytes: 2 * 1024 * 1024 }, 'File cannot be larger than 2 MB (received 3 MB)'],
    [{ ...ok, size: 600 * 1024 }, { maxBytes: 512 * 1024 }, 'File cannot be larger than 512 KB (received 600 KB)'],
    [{ ...ok, name: 'notes.txt' }, {}, 'This file type is not supported. Accepted formats: m4a, mp3, mp4, aac, wav, flac, aif, aiff'],
    [{ ...ok, name: 'mp3' }, {}, 'This file type is not supported. Accepted formats: m4a, mp3, mp4, aac, wav, flac, aif, aiff'],
    [ok, {}, null],
  ] as const)('%j %j → %s', (file, options, message) => expect(text(validateFile(file, options))).toBe(message));

  it.each(['m4a', 'mp3', 'mp4', 'aac', 'wav', 'flac', 'aif', 'aiff', 'MP3'])('accepts .%s', (ext) => {
    expect(validateFile({ name: `a.${ext}`, size: 1 })).toBeNull();
  });

  it.each([
    [1023, '1 KB'],
    [1536, '1.5 KB'],
    [1024 * 1024 - 1, '1024 KB'],
    [1024 * 1024, '1 MB'],
    [1.25 * 1024 * 1024, '1.3 MB'],
  ])('sizes display in KB below 1 MB, else MB: %d → %s', (bytes, out) => expect(formatFileSize(bytes)).toBe(out));

  it('sizes use the locale’s decimal separator', () => {
    expect(formatFileSize(6.5 * 1024 * 1024, 'de-DE')).toBe('6,5 MB');
    expect(formatFileSize(1536, 'fr-FR')).toBe('1,5 KB');
  });

  it('reports every failing rule with its field for request bodies', () => {
    expect(fileErrors({ name: ' ', size: 0 }).map((e) => [e.field, e.error.type])).toEqual([
      ['file', 'emptyFile'],
      ['fileName', 'emptyFileName'],
    ]);
    const big = fileErrors({ name: 'a.txt', size: 3 * 1024 * 1024, cloudOnly: true }, { maxBytes: 1024 * 1024 });
    expect(big.map((e) => text(e.error))).toEqual([
      'This file is stored only in the cloud; download it to your device first',
      'File cannot be larger than 1 MB (received 3 MB)',
      'This file type is not supported. Accepted formats: m4a, mp3, mp4, aac, wav, flac, aif, aiff',
    ]);
    expect(fileErrors({ name: 'a.flac', size: 10 })).toEqual([]);
  });

  it('reads extensions', () => {
    expect(fileExtension('.hidden')).toBe('');
    expect(fileExtension('a.B.WAV')).toBe('wav');
  });
});

describe('Password', () => {
  it.each([
    ['', 'Please enter your password'],
    ['short', 'Password must be 8 characters or longer'],
    ['long enough', null],
  ])('%j → %s', (value, message) => expect(text(validatePassword(value))).toBe(message));

  it('current/new/confirm, previously rejected, does not match', () => {
    const errors = validatePasswordChange({ currentPassword: '', newPassword: '', confirmPassword: 'x' });
    expect(text(errors.currentPassword)).toBe('Please enter your current password');
    expect(text(errors.newPassword)).toBe('Please enter a new password');
    expect(text(errors.confirmPassword)).toBe('Password does not match');
    const rejected = validatePasswordChange({ currentPassword: 'old', newPassword: 'password1', confirmPassword: 'password1', previouslyRejected: 'password1' });
    expect(rejected).toEqual({ newPassword: { type: 'previouslyRejected', message: 'domain_password_previously_rejected' } });
    expect(validatePasswordChange({ currentPassword: 'old', newPassword: 'abc', confirmPassword: 'abc' }, { minLength: 3 })).toEqual({});
    expect(validatePasswordChange({ currentPassword: 'o', newPassword: 'abcdefghi', confirmPassword: 'abcdefghi', previouslyRejected: 'zzz' })).toEqual({});
  });

  it('a change without the current password (a reset link stands for it) checks the new one and its confirmation only', () => {
    expect(validatePasswordChange({ newPassword: 'abcdefghi', confirmPassword: 'abcdefghi' })).toEqual({});
    const errors = validatePasswordChange({ newPassword: 'short', confirmPassword: 'other' });
    expect([text(errors.currentPassword), text(errors.newPassword), text(errors.confirmPassword)]).toEqual([null, 'Password must be 8 characters or longer', 'Password does not match']);
  });
});

describe('Contact form', () => {
  it.each([
    [{ ContactName: '', ContactEmail: '', ContactEnquiry: ' ' }, ['Name required', 'Email address required', 'Enquiry cannot be blank']],
    [{ ContactName: 'Ann', ContactEmail: 'ann@', ContactEnquiry: 'Help' }, [null, 'You must enter a valid email address', null]],
    [{ ContactName: 'Ann', ContactEmail: 'ann@example.com', ContactEnquiry: 'Help' }, [null, null, null]],
  ])('%j → %j', (form, messages) => {
    const errors = validateContactForm(form);
    expect([text(errors.ContactName), text(errors.ContactEmail), text(errors.ContactEnquiry)]).toEqual(messages);
  });

  it('name and email are prefilled from the current user; the enquiry may be prefilled with a default message', () => {
    expect(contactPrefill({ name: 'Ann', email: 'ann@example.com' }, 'About my invoice')).toEqual({
      ContactName: 'Ann',
      ContactEmail: 'ann@example.com',
      ContactEnquiry: 'About my invoice',
    });
    expect(contactPrefill(null)).toEqual({ ContactName: '', ContactEmail: '', ContactEnquiry: '' });
    expect(contactPrefill({ name: null, email: null })).toEqual({ ContactName: '', ContactEmail: '', ContactEnquiry: '' });
  });

  it('AdditionalInfo is truncated to 2048 characters and BrowserLocale to 255, with a report', () => {
    const form = { ContactName: ' Ann ', ContactEmail: 'ann@example.com', ContactEnquiry: 'Help' };
    const exact = buildContactRequest(form, { additionalInfo: 'i'.repeat(2048), browserLocale: 'l'.repeat(255), sourceUrl: '/x' });
    expect(exact.truncations).toEqual([]);
    expect(exact.request).toMatchObject({ ContactName: 'Ann', ClientVersion: '1.0.2625', SourceUrl: '/x' });
    const long = buildContactRequest(form, { additionalInfo: 'i'.repeat(2049), browserLocale: 'l'.repeat(300), sourceUrl: '/x', clientVersion: '9' });
    expect(long.request.AdditionalInfo).toHaveLength(2048);
    expect(long.request.BrowserLocale).toHaveLength(255);
    expect(long.request.ClientVersion).toBe('9');
    expect(long.truncations).toEqual([
      { field: 'AdditionalInfo', originalLength: 2049, limit: 2048 },
      { field: 'BrowserLocale', originalLength: 300, limit: 255 },
    ]);
  });
});

describe('Form builder', () => {
  it('rejects duplicate field names and array indexes that skip a number', () => {
    expect(checkFieldNames(['Title', 'Chapters[0].Title', 'Chapters[1].Title'])).toEqual([]);
    expect(checkFieldNames(['Title', 'Title'])).toEqual([{ kind: 'duplicate', name: 'Title' }]);
    expect(checkFieldNames(['Chapters[0].Title', 'Chapters[2].Title'])).toEqual([{ kind: 'skippedIndex', array: 'Chapters', missing: 1 }]);
    expect(checkFieldNames(['A[1].B[0]'])).toEqual([{ kind: 'skippedIndex', array: 'A', missing: 0 }]);
  });

  it('collects per-field errors in field order and names the first', () => {
    const required = formError('required');
    const result = collectFieldErrors([
      ['Name', () => null],
      ['Email', () => required],
      ['Slug', () => required],
    ]);
    expect(result).toEqual({ errors: { Email: required, Slug: required }, firstErrorField: 'Email' });
    expect(collectFieldErrors([['Name', () => null]]).firstErrorField).toBeNull();
    expect(sectionsToExpand(result.errors, { Slug: 'advanced', Name: 'basic' })).toEqual(['advanced']);
  });
});

describe('Call parameters', () => {
  it.each(Object.entries(REQUIRED_QUERY_PARAMETERS))('%s requires %j', (call, names) => {
    const missing = missingQueryParameters(call as keyof typeof REQUIRED_QUERY_PARAMETERS, {});
    expect(missing.map((m) => m.parameter)).toEqual(names);
    expect(missing.every((m) => m.error.type === 'required')).toBe(true);
  });

  it('reports startDate and endDate for reports, and blank values count as missing', () => {
    expect(missingQueryParameters('reports', { startDate: '2024-01-01', endDate: ' ' }).map((m) => m.parameter)).toEqual(['endDate']);
    expect(missingQueryParameters('reports', { startDate: '2024-01-01', endDate: '2024-02-01' })).toEqual([]);
  });

  it('list parameters are sent comma-joined only when non-empty', () => {
    expect(listParameter(['Public', 'Private'])).toBe('Public,Private');
    expect(listParameter([])).toBeUndefined();
    expect(listParameter(null)).toBeUndefined();
    expect(buildQuery({ clipVisibilityFilter: [], statuses: ['Live', 'Finalized'], page: 2, q: null, x: undefined, deleted: false })).toBe(
      'statuses=Live%2CFinalized&page=2&deleted=false',
    );
  });
});
