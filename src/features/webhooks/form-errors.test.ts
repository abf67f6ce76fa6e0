import { describe, expect, it } from 'vitest';
import { errorsOfRefusal, formFieldOf } from './form-errors.ts';

describe('a refused webhook save, at its fields', () => {
  it('names as the server sends them map to the form’s fields', () => {
    expect(formFieldOf('Url')).toBe('Url');
    expect(formFieldOf('Description')).toBe('Description');
    expect(formFieldOf('EventTypes')).toBe('EventTypes');
    expect(formFieldOf('EventTypes.2')).toBe('EventTypes');
    expect(formFieldOf('networkId')).toBe('Level');
    expect(formFieldOf('body')).toBe('form');
    expect(formFieldOf('Enabled')).toBe('form');
  });

  it('a 400 puts each message at its field, the first of a field winning', () => {
    const errors = errorsOfRefusal(
      {
        kind: 'badRequest',
        status: 400,
        body: {
          Errors: [
            { Field: 'Url', Code: 'urlInvalid', Message: 'You must enter a valid URL' },
            { Field: 'Url', Code: 'tooLong', Message: 'second' },
            { Field: 'EventTypes.0', Code: 'invalid', Message: 'Invalid value' },
          ],
        },
      },
      'fallback',
    );
    expect(errors.Url).toBe('You must enter a valid URL');
    expect(errors.EventTypes).toBeTruthy();
    expect(errors.form).toBeUndefined();
  });

  it('anything else is said on the form: offline, gone, forbidden, or the fallback', () => {
    expect(errorsOfRefusal({ kind: 'error', error: new TypeError('Failed to fetch') }, 'fallback').form).toMatch(/offline/);
    expect(errorsOfRefusal({ kind: 'notFound', status: 404 }, 'fallback').form).toMatch(/no longer exists/);
    expect(errorsOfRefusal({ kind: 'status', status: 403 }, 'fallback').form).toMatch(/may not change/);
    expect(errorsOfRefusal({ kind: 'status', status: 500 }, 'fallback').form).toBe('fallback');
  });
});
