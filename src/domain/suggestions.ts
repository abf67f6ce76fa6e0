// Suggested mid-rolls and chapters of a clip (issue 34; GET /internal/clips/{clipId}/suggested/…):
// made by the server from the silences of the clip's audio (src/media/silences.ts) and, for
// chapters, from its transcript; a producer accepts them one by one. What the transcript part does,
// plainly: it is no language model. It marks a boundary between two cues
//   - at a pause: a gap of at least PAUSE_SECONDS between one cue's end and the next one's start;
//   - at a change of words: the words (4 letters or more, lower-cased; a crude stoplist that works
//     in any language) spoken in the LEXICAL_WINDOW seconds before the boundary and after it are
//     compared by cosine similarity of their counts (TextTiling's measure, Hearst 1997); where it
//     falls below LEXICAL_CHANGE, and is the lowest within the window, the talk has moved on.
// Each chapter suggested from a transcript is titled by the first words of the cue that starts it.
import { adMarkerViolations, type AdMarker, type AdMarkerRules } from './ad-markers.ts';

export type SilenceSpan = { start: number; end: number; touchesStart: boolean; touchesEnd: boolean };
export type SuggestionCue = { start: number; end: number; text: string };

export type MidRollSuggestion = { Seconds: number; SilenceSeconds: number };
export type ChapterSuggestionReason = 'Silence' | 'Pause' | 'TopicChange';
export type ChapterSuggestion = { StartSeconds: number; Title: string | null; Reason: ChapterSuggestionReason };

/** Mid-rolls suggested at most, chapters suggested at most. */
export const MID_ROLL_SUGGESTIONS_MAX = 10;
export const CHAPTER_SUGGESTIONS_MAX = 20;
/** A silence this long or longer can start a chapter (shorter ones are breaths between sentences). */
export const CHAPTER_SILENCE_SECONDS = 1.5;
export const PAUSE_SECONDS = 2.5;
export const LEXICAL_WINDOW = 60;
export const LEXICAL_CHANGE = 0.1;
/** Two suggested chapters, or a suggestion and a chapter, are at least this far apart. */
export const CHAPTER_SPACING_SECONDS = 30;

const tenth = (s: number) => Math.round(s * 10) / 10;

/**
 * Mid-roll positions at silences inside the audio (the middle of each), longest silence first,
 * each one the rules would accept beside the clip's mid-rolls and the ones picked before it (not in
 * the first or last seconds the rules keep free, spaced as they ask, no more than they allow);
 * returned in time order.
 */
export function suggestMidRolls(silences: readonly SilenceSpan[], rules: AdMarkerRules, durationSeconds: number, existing: readonly AdMarker[]): MidRollSuggestion[] {
  const picked: AdMarker[] = [];
  const out: MidRollSuggestion[] = [];
  const inside = silences.filter((s) => !s.touchesStart && !s.touchesEnd).sort((a, b) => b.end - b.start - (a.end - a.start) || a.start - b.start);
  for (const s of inside) {
    if (out.length >= MID_ROLL_SUGGESTIONS_MAX) break;
    const seconds = tenth((s.start + s.end) / 2);
    if (seconds <= 0 || seconds >= durationSeconds) continue;
    const candidate: AdMarker = { Type: 'MidRoll', Seconds: seconds, MaxAds: 1 };
    // Taken when it adds no violation at any marker (the clip's own may break the rules already;
    // a whole-clip one such as too few mid-rolls is what a suggestion mends, and ads per break are the producer's).
    const atMarkers = (markers: readonly AdMarker[]) =>
      adMarkerViolations(markers, rules, durationSeconds).filter((v) => v.field !== 'AdMarkers' && v.code !== 'TooManyAds').length;
    if (atMarkers([...existing, ...picked, candidate]) > atMarkers([...existing, ...picked])) continue;
    if (existing.concat(picked).some((k) => k.Type === 'MidRoll' && k.Seconds !== null && Math.abs(k.Seconds - seconds) < 1)) continue;
    picked.push(candidate);
    out.push({ Seconds: seconds, SilenceSeconds: Math.round((s.end - s.start) * 100) / 100 });
  }
  return out.sort((a, b) => a.Seconds - b.Seconds);
}

const WORD = /[\p{L}\p{N}]{4,}/gu;
function wordCounts(texts: readonly string[]): Map<string, number> {
  const counts = new Map<string, number>();
  for (const t of texts) for (const w of t.toLowerCase().match(WORD) ?? []) counts.set(w, (counts.get(w) ?? 0) + 1);
  return counts;
}
function cosine(a: Map<string, number>, b: Map<string, number>): number {
  let dot = 0;
  let na = 0;
  let nb = 0;
  for (const [w, n] of a) {
    na += n * n;
    dot += n * (b.get(w) ?? 0);
  }
  for (const n of b.values()) nb += n * n;
  return na === 0 || nb === 0 ? 1 : dot / Math.sqrt(na * nb);
}

/** A chapter title from a cue's first words (at most 8, at most 60 characters). */
export function titleFromCue(text: string): string | null {
  const words = text.replace(/\s+/g, ' ').trim().split(' ').slice(0, 8).join(' ');
  const title = words.length > 60 ? `${words.slice(0, 59).trimEnd()}…` : words;
  return title.replace(/[,;:.!?-]+$/u, '') || null;
}

/** Where the transcript's talk changes (see the header): each boundary's time, why, and its cue's opening words. */
export function transcriptBoundaries(cues: readonly SuggestionCue[]): ChapterSuggestion[] {
  const sorted = [...cues].sort((a, b) => a.start - b.start);
  const scored = sorted.slice(1).map((cue, k) => {
    const i = k + 1;
    const t = cue.start;
    const before = wordCounts(sorted.filter((c) => c.start < t && c.start >= t - LEXICAL_WINDOW).map((c) => c.text));
    const after = wordCounts(sorted.filter((c) => c.start >= t && c.start < t + LEXICAL_WINDOW).map((c) => c.text));
    const enough = [...before.values()].reduce((a, b) => a + b, 0) >= 15 && [...after.values()].reduce((a, b) => a + b, 0) >= 15;
    return { i, t, gap: cue.start - sorted[i - 1]!.end, similarity: enough ? cosine(before, after) : 1 };
  });
  const out: ChapterSuggestion[] = [];
  for (const s of scored) {
    const lowest = scored.every((o) => Math.abs(o.t - s.t) > LEXICAL_WINDOW / 2 || o.similarity > s.similarity || (o.similarity === s.similarity && o.t >= s.t));
    const reason: ChapterSuggestionReason | null = s.similarity < LEXICAL_CHANGE && lowest ? 'TopicChange' : s.gap >= PAUSE_SECONDS ? 'Pause' : null;
    if (reason) out.push({ StartSeconds: tenth(s.t), Title: titleFromCue(sorted[s.i]!.text), Reason: reason });
  }
  return out;
}

/**
 * Chapters suggested: the transcript's boundaries first (they carry a title), then the ends of
 * silences of at least CHAPTER_SILENCE_SECONDS (where talk resumes; titled by the cue starting
 * there when a transcript has one), none within CHAPTER_SPACING_SECONDS of a chapter the clip has,
 * of one chosen before, or of the start; in time order.
 */
export function suggestChapters(
  silences: readonly SilenceSpan[],
  cues: readonly SuggestionCue[],
  durationSeconds: number,
  existingStarts: readonly number[],
): ChapterSuggestion[] {
  const taken = [0, ...existingStarts];
  const out: ChapterSuggestion[] = [];
  const take = (s: ChapterSuggestion) => {
    if (out.length >= CHAPTER_SUGGESTIONS_MAX || s.StartSeconds >= durationSeconds) return;
    if (taken.some((t) => Math.abs(t - s.StartSeconds) < CHAPTER_SPACING_SECONDS)) return;
    taken.push(s.StartSeconds);
    out.push(s);
  };
  const topicFirst = transcriptBoundaries(cues).sort((a, b) => (a.Reason === b.Reason ? a.StartSeconds - b.StartSeconds : a.Reason === 'TopicChange' ? -1 : 1));
  for (const b of topicFirst) take(b);
  const longest = silences.filter((s) => !s.touchesStart && !s.touchesEnd && s.end - s.start >= CHAPTER_SILENCE_SECONDS).sort((a, b) => b.end - b.start - (a.end - a.start));
  for (const s of longest) {
    const cue = cues.find((c) => Math.abs(c.start - s.end) <= 1);
    take({ StartSeconds: tenth(s.end), Title: cue ? titleFromCue(cue.text) : null, Reason: 'Silence' });
  }
  return out.sort((a, b) => a.StartSeconds - b.StartSeconds);
}
