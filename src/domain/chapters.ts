// A clip's chapters (issue 34): the one place for their rules, used by the clip screen before it
// queues a change and by the server before it writes (sync-server/routes/content-rules.ts), so the
// screen refuses exactly what the server would, offline too. Stored on the clip as Chapters
// [{ StartSeconds, Title, Url?, ImageUrl? }], sorted by start; published as Podcasting 2.0 JSON
// chapters (https://github.com/Podcastindex-org/podcast-namespace/blob/main/chapters/jsonChapters.md)
// and as ID3v2 CHAP frames in a published MP3.
//
//   chapters ──chapterErrors(chapters, duration)──> { 'Chapters.<i>.<Field>': FormError } (i as given)
//            ──normaliseChapters──> what is stored (titles trimmed, empty links dropped, sorted)
import { formError, type FormError } from './form-errors.ts';
import { formatTimeEntry } from './time.ts';
import { validateUrl } from './validators.ts';

export type Chapter = { StartSeconds: number; Title: string; Url?: string | null | undefined; ImageUrl?: string | null | undefined };

/** A chapter title's length: a table-of-contents line, not a description (ID3 and players cut longer ones). */
export const CHAPTER_TITLE_MAX = 200;
/** Chapters a clip may hold: one a minute for a long episode, with room to spare. */
export const CHAPTERS_MAX = 500;

export type ChapterField = 'StartSeconds' | 'Title' | 'Url' | 'ImageUrl';
/** The wire name of a chapter's field, as a 400 names it: Chapters.<index>.<Field>. */
export const chapterFieldName = (index: number, field: ChapterField) => `Chapters.${index}.${field}`;

/** A path of an image this studio serves (/images/chapter/…), made absolute where it is published. */
export const isOwnImagePath = (v: string | null | undefined): boolean => typeof v === 'string' && /^\/images\/[a-z]+\/[\w./-]+$/.test(v) && !v.includes('..');

const blank = (v: string | null | undefined) => v === null || v === undefined || v.trim() === '';

/**
 * What is wrong with the chapters, keyed by their wire names (index as given, not as sorted);
 * {} when they may be saved. Title required, at most CHAPTER_TITLE_MAX characters; StartSeconds a
 * number from 0 up to (not including) the audio's end when its duration is known; no two chapters
 * at the same start (the later one in the list is refused); Url and ImageUrl, when given, http(s)
 * (ImageUrl also the path of an image stored here).
 * More than CHAPTERS_MAX chapters is refused at Chapters.
 */
export function chapterErrors(chapters: readonly Chapter[], durationSeconds: number | null | undefined): Record<string, FormError> {
  const errors: Record<string, FormError> = {};
  if (chapters.length > CHAPTERS_MAX) errors['Chapters'] = formError('tooLong', 'domain_chapters_too_many', { max: CHAPTERS_MAX });
  const seen = new Map<number, number>();
  chapters.forEach((ch, i) => {
    const put = (field: ChapterField, e: FormError | null) => {
      if (e) errors[chapterFieldName(i, field)] = e;
    };
    if (blank(ch.Title)) put('Title', formError('required', 'domain_chapter_title_required'));
    else if (ch.Title.trim().length > CHAPTER_TITLE_MAX) put('Title', formError('tooLong', 'domain_chapter_title_too_long', { max: CHAPTER_TITLE_MAX }));
    const start = ch.StartSeconds;
    if (!Number.isFinite(start) || start < 0) put('StartSeconds', formError('outOfRange', 'domain_chapter_start_negative', undefined, 'underflow'));
    else if (durationSeconds != null && Number.isFinite(durationSeconds) && durationSeconds > 0 && start >= durationSeconds) {
      put('StartSeconds', formError('outOfRange', 'domain_chapter_start_after_end', { max: formatTimeEntry(Math.floor(durationSeconds)) }, 'overflow'));
    } else {
      // Compared in tenths, the precision the editor keeps: 65.0 and 65.04 are the same start.
      const key = Math.round(start * 10);
      const first = seen.get(key);
      if (first !== undefined) put('StartSeconds', formError('invalid', 'domain_chapter_start_taken', { n: first + 1, time: formatTimeEntry(Math.floor(start)) }));
      else seen.set(key, i);
    }
    put('Url', validateUrl(ch.Url, { required: false }));
    // An image uploaded here (POST /v1/chapters/images) may be kept as the studio's own path.
    if (!isOwnImagePath(ch.ImageUrl)) put('ImageUrl', validateUrl(ch.ImageUrl, { required: false }));
  });
  return errors;
}

/** The chapters as stored: titles trimmed, starts to the millisecond, empty links left out, sorted by start. */
export function normaliseChapters(chapters: readonly Chapter[]): Chapter[] {
  return chapters
    .map((ch) => {
      const out: Chapter = { StartSeconds: Math.round(ch.StartSeconds * 1000) / 1000, Title: ch.Title.trim() };
      if (!blank(ch.Url)) out.Url = ch.Url!.trim();
      if (!blank(ch.ImageUrl)) out.ImageUrl = ch.ImageUrl!.trim();
      return out;
    })
    .sort((a, b) => a.StartSeconds - b.StartSeconds);
}

/** Podcasting 2.0 JSON chapters (version 1.2.0) of stored chapters; url and img only where set. */
export function podcastChaptersJson(chapters: readonly Chapter[], absolute: (url: string) => string = (u) => u): {
  version: '1.2.0';
  chapters: Array<{ startTime: number; title: string; url?: string; img?: string }>;
} {
  return {
    version: '1.2.0',
    chapters: normaliseChapters(chapters).map((ch) => ({
      startTime: ch.StartSeconds,
      title: ch.Title,
      ...(ch.Url ? { url: ch.Url } : {}),
      ...(ch.ImageUrl ? { img: absolute(ch.ImageUrl) } : {}),
    })),
  };
}

/** Where each chapter ends: the next one's start, the last one at the audio's end. */
export function chapterEnds(chapters: readonly Chapter[], durationSeconds: number): number[] {
  const sorted = normaliseChapters(chapters);
  return sorted.map((ch, i) => Math.max(ch.StartSeconds, Math.min(sorted[i + 1]?.StartSeconds ?? durationSeconds, durationSeconds)));
}
