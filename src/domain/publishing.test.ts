import { describe, expect, it } from 'vitest';
import { publishRequirements, publishSlug, servesPublicAudio, utcToZonedDateTime, zonedDateTimeToUtc } from './publishing.ts';

const ready = { Title: 'Monday news', State: 'Ready', Visibility: 'Public', Slug: 'monday', Urls: { AudioPrivateUrl: '/api/media/clips/x/audio' } };

describe('what a clip needs before it is published (section 4)', () => {
  it('a Ready Public clip with a slug may be published', () => {
    expect(publishRequirements(ready)).toEqual({});
  });
  it('names each field that keeps it from being published', () => {
    const errors = publishRequirements({ ...ready, Visibility: 'Private', State: 'Processing', ScheduledVisibility: 'Public', VisibleAtUtc: null });
    expect(Object.keys(errors)).toEqual(['Visibility', 'State', 'VisibleAtUtc']);
    expect(Object.keys(publishRequirements({ ...ready, Slug: null, Title: '!!!' }))).toEqual(['Slug']);
  });
  it('a missing slug is made from the title, the first free one in the program', () => {
    expect(publishSlug({ ...ready, Slug: null }, (s) => s === 'monday-news')).toBe('monday-news-2');
  });
  it('public audio: Published and Public or Unlisted only', () => {
    expect(servesPublicAudio({ PublishState: 'Published', Visibility: 'Unlisted' })).toBe(true);
    expect(servesPublicAudio({ PublishState: 'Published', Visibility: 'Restricted' })).toBe(false);
    expect(servesPublicAudio({ PublishState: 'Publishing', Visibility: 'Public' })).toBe(false);
  });
});

describe('a date-time in a chosen time zone', () => {
  it('names the UTC instant, with the offset in force on that date', () => {
    expect(zonedDateTimeToUtc('2026-07-01T09:30', 'Europe/Berlin')).toBe('2026-07-01T07:30:00.000Z');
    expect(zonedDateTimeToUtc('2026-01-01T09:30', 'Europe/Berlin')).toBe('2026-01-01T08:30:00.000Z');
    expect(zonedDateTimeToUtc('2026-01-01T09:30', 'Asia/Kolkata')).toBe('2026-01-01T04:00:00.000Z');
    expect(zonedDateTimeToUtc('2026-01-01', 'Asia/Kolkata')).toBeNull();
    expect(zonedDateTimeToUtc('2026-01-01T09:30', 'Not/AZone')).toBeNull();
  });
  it('and back', () => {
    expect(utcToZonedDateTime('2026-07-01T07:30:00.000Z', 'Europe/Berlin')).toBe('2026-07-01T09:30');
  });
});
