import { describe, expect, it } from 'vitest';
import { sameOriginPath } from './redirect.ts';

const ORIGIN = 'https://studio.example.com';

describe('sameOriginPath (redirectUrl of POST /logout)', () => {
  it('keeps a path of this site with its query and fragment', () => {
    expect(sameOriginPath('/4d7cde59-16c6-5763-bf7e-407fc1220eb3/programs?tab=clips#top', ORIGIN)).toBe('/4d7cde59-16c6-5763-bf7e-407fc1220eb3/programs?tab=clips#top');
    expect(sameOriginPath('/', ORIGIN)).toBe('/');
  });

  it('keeps an absolute URL of this same origin, as its path', () => {
    expect(sameOriginPath('https://studio.example.com/account?error=x', ORIGIN)).toBe('/account?error=x');
  });

  it('refuses nothing, and the "null" the navigation sends', () => {
    expect(sameOriginPath(null, ORIGIN)).toBeNull();
    expect(sameOriginPath(undefined, ORIGIN)).toBeNull();
    expect(sameOriginPath('', ORIGIN)).toBeNull();
    expect(sameOriginPath('null', ORIGIN)).toBeNull();
  });

  it.each([
    'https://evil.example/',
    'http://studio.example.com/', // another scheme is another origin
    'https://studio.example.com.evil.example/',
    '//evil.example/path',
    '/\\evil.example/path',
    '\\\\evil.example',
    'http:evil.example', // scheme-relative forms name another host
    '/\t/evil.example',
    '/..//evil.example', // dot segments resolve to '//evil.example'
    '/./\\evil.example',
    '/a/../..//evil.example/x?y#z',
    'https://studio.example.com/..//evil.example',
    'javascript:alert(1)',
    'data:text/html,<script>alert(1)</script>',
  ])('refuses %s', (raw) => {
    expect(sameOriginPath(raw, ORIGIN)).toBeNull();
  });
});
