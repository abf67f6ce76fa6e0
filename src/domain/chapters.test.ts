import { describe, expect, it } from 'vitest';
import { formatFormError } from './messages.ts';
import { CHAPTER_TITLE_MAX, CHAPTERS_MAX, chapterEnds, chapterErrors, normaliseChapters, podcastChaptersJson } from './chapters.ts';

const words = (errors: Record<string, Parameters<typeof formatFormError>[0]>) =>
  Object.fromEntries(Object.entries(errors).map(([k, e]) => [k, formatFormError(e)]));

describe('chapterErrors', () => {
  it('accepts titled chapters inside the audio, in any order, with http(s) links', () => {
    expect(chapterErrors([
      { StartSeconds: 65, Title: 'Intro', Url: 'https://example.com/a', ImageUrl: 'http://img.example.org/x.jpg' },
      { StartSeconds: 0, Title: 'Cold open' },
    ], 600)).toEqual({});
  });

  it('names each refused field by its index as given', () => {
    const errors = chapterErrors([
      { StartSeconds: 0, Title: '  ' },
      { StartSeconds: 600, Title: 'After the end' },
      { StartSeconds: -1, Title: 'Before' },
      { StartSeconds: 30, Title: 'x'.repeat(CHAPTER_TITLE_MAX + 1), Url: 'ftp://example.com', ImageUrl: 'not a url' },
    ], 600);
    expect(words(errors)).toEqual({
      'Chapters.0.Title': 'Give the chapter a title',
      'Chapters.1.StartSeconds': 'The audio ends at 00:10:00: a chapter must start before that',
      'Chapters.2.StartSeconds': 'A chapter cannot start before the audio',
      'Chapters.3.Title': `A chapter title may be at most ${CHAPTER_TITLE_MAX} characters`,
      'Chapters.3.Url': expect.stringContaining('http://'),
      'Chapters.3.ImageUrl': expect.any(String),
    });
  });

  it('refuses a second chapter at the same start (to the tenth), naming the first', () => {
    const errors = chapterErrors([
      { StartSeconds: 65, Title: 'A' },
      { StartSeconds: 10, Title: 'B' },
      { StartSeconds: 65.04, Title: 'C' },
    ], null);
    expect(words(errors)).toEqual({ 'Chapters.2.StartSeconds': 'Chapter 1 already starts at 00:01:05: two chapters cannot start at the same time' });
  });

  it('takes any start while the duration is unknown, and limits the count', () => {
    expect(chapterErrors([{ StartSeconds: 99_999, Title: 'Late' }], null)).toEqual({});
    const many = Array.from({ length: CHAPTERS_MAX + 1 }, (_, i) => ({ StartSeconds: i, Title: `C${i}` }));
    expect(Object.keys(chapterErrors(many, null))).toEqual(['Chapters']);
  });
});

describe('normaliseChapters and the published forms', () => {
  const chapters = [
    { StartSeconds: 120.0004, Title: ' Main ', Url: '', ImageUrl: 'https://img.example.com/m.jpg' },
    { StartSeconds: 0, Title: 'Intro', Url: 'https://example.com', ImageUrl: null },
  ];
  it('trims, drops empty links and sorts by start', () => {
    expect(normaliseChapters(chapters)).toEqual([
      { StartSeconds: 0, Title: 'Intro', Url: 'https://example.com' },
      { StartSeconds: 120, Title: 'Main', ImageUrl: 'https://img.example.com/m.jpg' },
    ]);
  });
  it('writes Podcasting 2.0 JSON chapters 1.2.0 with url and img only where set', () => {
    expect(podcastChaptersJson(chapters)).toEqual({
      version: '1.2.0',
      chapters: [
        { startTime: 0, title: 'Intro', url: 'https://example.com' },
        { startTime: 120, title: 'Main', img: 'https://img.example.com/m.jpg' },
      ],
    });
  });
  it('ends each chapter where the next starts, the last at the end of the audio', () => {
    expect(chapterEnds(chapters, 300)).toEqual([120, 300]);
  });
});
