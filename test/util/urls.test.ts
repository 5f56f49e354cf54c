import { describe, expect, test } from 'vitest';
import { urlDefect } from '../../src/util/urls';

const HTTPS = { schemes: ['https:'] };

describe('urlDefect', () => {
  test('a URL the rule accepts has no defect', () => {
    expect(urlDefect('https://github.com/acme/api.git', { ...HTTPS, noQueryOrFragment: true, requirePath: true })).toBeUndefined();
  });

  test('each defect by its rule: not a URL, another scheme, a query or fragment, no path', () => {
    expect(urlDefect('github.com/acme/api', HTTPS)).toBe('not-a-url');
    expect(urlDefect('http://github.com/acme/api', HTTPS)).toBe('scheme');
    expect(urlDefect('https://github.com/acme/api#main', { ...HTTPS, noQueryOrFragment: true })).toBe('query-or-fragment');
    expect(urlDefect('https://github.com/acme/api?ref=main', HTTPS)).toBeUndefined();
    expect(urlDefect('https://github.com/', { ...HTTPS, requirePath: true })).toBe('no-path');
  });

  test('credentials come first, whatever else is wrong, so a URL carrying them is always reported as such', () => {
    expect(urlDefect('http://alice:s3cret@github.com/', { ...HTTPS, requirePath: true })).toBe('credentials');
    expect(urlDefect('ftp://token@example.com/x', HTTPS)).toBe('credentials');
    expect(urlDefect('https://example.com/x?sig=abc#f', { ...HTTPS, noQueryOrFragment: true })).toBe('credentials');
    // a query parameter that carries no credential is only a query
    expect(urlDefect('https://example.com/x?page=2', { ...HTTPS, noQueryOrFragment: true })).toBe('query-or-fragment');
  });
});
