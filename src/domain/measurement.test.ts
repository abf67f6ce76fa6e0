import { describe, expect, it } from 'vitest';
import { formatFormError } from './messages.ts';
import {
  exampleEnclosureUrl,
  MEASUREMENT_PREFIX_MAX_LENGTH,
  measuredUrl,
  measurementPrefixErrors,
  measurementPrefixesOf,
  validateMeasurementPrefix,
  validateMeasurementPrefixList,
} from './measurement.ts';

const messageOf = (value: string) => {
  const error = validateMeasurementPrefix(value);
  return error ? formatFormError(error, 'en-US') : null;
};

describe('a measurement prefix', () => {
  it('takes the prefixes the measurement services publish, chains pasted as one included', () => {
    for (const ok of [
      'https://op3.dev/e/',
      'https://dts.podtrac.com/redirect.mp3/',
      'https://chrt.fm/track/ABC123/',
      'https://pdst.fm/e/',
      'https://op3.dev/e/dts.podtrac.com/redirect.mp3/',
      'https://OP3.dev/e,pg=5f2e/',
      'https://measure.example.com:8443/p/',
    ]) {
      expect(validateMeasurementPrefix(ok), ok).toBeNull();
    }
  });

  it('is required, and at most the maximum length', () => {
    expect(validateMeasurementPrefix('')).toMatchObject({ type: 'required' });
    const long = `https://op3.dev/${'a'.repeat(MEASUREMENT_PREFIX_MAX_LENGTH)}/`;
    expect(validateMeasurementPrefix(long)).toMatchObject({ type: 'tooLong', params: { max: MEASUREMENT_PREFIX_MAX_LENGTH } });
  });

  it('says at the field what is wrong, in the catalogue’s words', () => {
    expect(messageOf('http://op3.dev/e/')).toBe('A measurement prefix must start with https://');
    expect(messageOf('op3.dev/e/')).toBe('A measurement prefix must start with https://');
    expect(messageOf('https://localhost/e/')).toBe('A measurement prefix must name its service’s host, such as op3.dev');
    expect(messageOf('https://user:secret@op3.dev/e/')).toBe('Put no user name or password in a measurement prefix: every listener’s app would see them');
    expect(messageOf('https://op3.dev/e/?show=1/')).toBe('A measurement prefix has no ? or #: the episode’s address is added at its end');
    expect(messageOf('https://op3.dev/e/#x/')).toBe('A measurement prefix has no ? or #: the episode’s address is added at its end');
    expect(messageOf('https://op3.dev/')).toBe('A measurement prefix has a path after its host, as in https://op3.dev/e/');
    expect(messageOf('https://op3.dev')).toBe('A measurement prefix has a path after its host, as in https://op3.dev/e/');
    expect(messageOf('https://op3.dev/e')).toBe('A measurement prefix ends with / so that the episode’s address can follow it, as in https://op3.dev/e/');
    for (const bad of ['https://op3.dev/e /', ' https://op3.dev/e/', 'https://op3.dev/é/', 'https://op3.dev/<e>/', 'https://']) expect(messageOf(bad), bad).toBe('You must enter a valid URL');
  });

  it('a list holds at most three, none twice (case aside), each at its own field', () => {
    expect(validateMeasurementPrefixList([])).toBeNull();
    expect(validateMeasurementPrefixList(['https://op3.dev/e/', 'https://dts.podtrac.com/redirect.mp3/'])).toBeNull();
    expect(validateMeasurementPrefixList(['https://a.example/1/', 'https://a.example/2/', 'https://a.example/3/', 'https://a.example/4/'])).toMatchObject({ type: 'invalid', params: { max: 3 } });
    expect(validateMeasurementPrefixList(['https://op3.dev/e/', 'https://OP3.dev/e/'])).toMatchObject({ type: 'invalid', reason: 'duplicate' });
    const errors = measurementPrefixErrors(['https://op3.dev/e/', 'http://x.example/p/']).filter(([, e]) => e !== null);
    expect(errors.map(([field]) => field)).toEqual(['MeasurementPrefixes.1']);
  });
});

describe('the measured enclosure URL', () => {
  const enclosure = 'https://studio.example/audio/1f0c.mp3';

  it('is the prefix and the enclosure without its scheme, as OP3 and Podtrac take it', () => {
    expect(measuredUrl(enclosure, ['https://op3.dev/e/'])).toBe('https://op3.dev/e/studio.example/audio/1f0c.mp3');
    expect(measuredUrl('http://127.0.0.1:8876/audio/1f0c.mp3', ['https://op3.dev/e/'])).toBe('https://op3.dev/e/127.0.0.1:8876/audio/1f0c.mp3');
  });

  it('chains several in order: the first in the list is the first a listener’s request reaches', () => {
    expect(measuredUrl(enclosure, ['https://op3.dev/e/', 'https://dts.podtrac.com/redirect.mp3/'])).toBe('https://op3.dev/e/dts.podtrac.com/redirect.mp3/studio.example/audio/1f0c.mp3');
  });

  it('without prefixes is the enclosure itself', () => {
    expect(measuredUrl(enclosure, [])).toBe(enclosure);
  });

  it('a preview measures an enclosure of this studio’s own origin', () => {
    expect(exampleEnclosureUrl('https://studio.example')).toBe('https://studio.example/audio/00000000-0000-4000-8000-000000000000.mp3');
  });

  it('a row that never set any has none', () => {
    expect(measurementPrefixesOf({})).toEqual([]);
    expect(measurementPrefixesOf({ MeasurementPrefixes: null })).toEqual([]);
    expect(measurementPrefixesOf({ MeasurementPrefixes: ['https://op3.dev/e/'] })).toEqual(['https://op3.dev/e/']);
  });
});
