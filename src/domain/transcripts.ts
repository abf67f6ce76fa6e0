// A transcript (issue 34): cues with a start and end in seconds, their text and, optionally, who
// speaks. Read from and written to the formats podcast apps take (Podcasting 2.0
// <podcast:transcript> types) by the clip screen's import and export and by the server's
// GET …/transcript and public transcript URL alike:
//
//   WebVTT   text/vtt                WEBVTT header, cues "00:00:01.000 --> 00:00:04.000", speaker as <v Name>
//   SRT      application/x-subrip    numbered cues "00:00:01,000 --> 00:00:04,000", speaker as "Name: " (written only)
//   JSON     application/json        {"version":"1.0.0","segments":[{"speaker","startTime","endTime","body"}]}
//   text     text/plain              written only: the words, a paragraph per speaker turn
//
// A file that cannot be read is refused with the first problem and the line it is on (a JSON
// segment: its number, 1-based), as a FormError whose words are in the domain catalogue.
import { formError, type FormError } from './form-errors.ts';

export type TranscriptCue = {
  /** Seconds from the start of the clip's audio. */
  start: number;
  end: number;
  text: string;
  speaker?: string | null;
};

export const TRANSCRIPT_FORMATS = ['vtt', 'srt', 'json', 'text'] as const;
export type TranscriptFormat = (typeof TRANSCRIPT_FORMATS)[number];
/** The formats a transcript file may be imported from. */
export type TranscriptImportFormat = Exclude<TranscriptFormat, 'text'>;

/** Largest transcript file read: the server's limit of any body (JSON_BODY_LIMIT_BYTES); a
 * three-hour show's WebVTT is about 300 kB. */
export const TRANSCRIPT_MAX_BYTES = 1024 * 1024;
/** Most cues kept: a cue every second of a two-and-a-half-hour show, and as JSON within the body limit. */
export const TRANSCRIPT_MAX_CUES = 10_000;
/** Longest text of one cue. */
export const TRANSCRIPT_CUE_MAX_LENGTH = 2_000;
/** Longest speaker name. */
export const TRANSCRIPT_SPEAKER_MAX_LENGTH = 100;
/** Latest time a cue may end (24 hours). */
export const TRANSCRIPT_MAX_SECONDS = 24 * 3600;

/** The MIME type of each format (the <podcast:transcript type=…> values). */
export const TRANSCRIPT_CONTENT_TYPES: Readonly<Record<TranscriptFormat, string>> = {
  vtt: 'text/vtt',
  srt: 'application/x-subrip',
  json: 'application/json',
  text: 'text/plain',
};

/** The file extension of each format (downloads, public URLs). */
export const TRANSCRIPT_EXTENSIONS: Readonly<Record<TranscriptFormat, string>> = { vtt: 'vtt', srt: 'srt', json: 'json', text: 'txt' };

/** A refusal names the cue it is about (0-based) when it is about one. */
export type TranscriptResult = { ok: true; cues: TranscriptCue[] } | { ok: false; error: FormError; cue?: number };

const fail = (error: FormError, cue?: number): TranscriptResult => (cue === undefined ? { ok: false, error } : { ok: false, error, cue });

/** The format a file is in, by its content type, then its name, then its first characters. */
export function detectTranscriptFormat(text: string, hint?: { contentType?: string | null; fileName?: string | null }): TranscriptImportFormat | null {
  const type = hint?.contentType?.split(';')[0]?.trim().toLowerCase();
  if (type === 'text/vtt') return 'vtt';
  if (type === 'application/x-subrip' || type === 'application/srt' || type === 'text/srt') return 'srt';
  if (type === 'application/json') return 'json';
  const ext = hint?.fileName?.toLowerCase().match(/\.([a-z]+)$/)?.[1];
  if (ext === 'vtt' || ext === 'srt' || ext === 'json') return ext;
  const head = text.replace(/^\uFEFF/, '').trimStart();
  if (head.startsWith('WEBVTT')) return 'vtt';
  if (head.startsWith('{')) return 'json';
  if (/^\d+\s*\r?\n\s*\d{1,2}:\d{2}:\d{2}[,.]\d{1,3}\s*-->/.test(head)) return 'srt';
  return null;
}

/** Reads a transcript file in the given format (detected when not given). */
export function parseTranscript(text: string, format?: TranscriptImportFormat | null): TranscriptResult {
  if (new TextEncoder().encode(text).length > TRANSCRIPT_MAX_BYTES) {
    return fail(formError('fileTooLarge', 'domain_transcript_too_large', { max: Math.round(TRANSCRIPT_MAX_BYTES / (1024 * 1024)) }));
  }
  const as = format ?? detectTranscriptFormat(text);
  if (as === null) return fail(formError('invalid', 'domain_transcript_unknown_format'));
  const read = as === 'vtt' ? parseVtt(text) : as === 'srt' ? parseSrt(text) : parseTranscriptJson(text);
  return read.ok ? checkCues(read.cues) : read;
}

/** What every transcript holds to, however it arrived (a file, or cues sent as JSON). `where` names
 * a cue in the message: its file line, else its number. */
export function checkCues(cues: readonly TranscriptCue[], where: (index: number) => number = (i) => i + 1): TranscriptResult {
  if (cues.length === 0) return fail(formError('required', 'domain_transcript_empty'));
  if (cues.length > TRANSCRIPT_MAX_CUES) return fail(formError('outOfRange', 'domain_transcript_too_many_cues', { max: TRANSCRIPT_MAX_CUES }, 'overflow'));
  const out: TranscriptCue[] = [];
  for (const [i, cue] of cues.entries()) {
    const atLine = (message: Parameters<typeof formError>[1], extra: Record<string, string | number> = {}) => fail(formError('invalid', message, { line: where(i), ...extra }), i);
    if (!Number.isFinite(cue.start) || !Number.isFinite(cue.end) || cue.start < 0 || cue.end > TRANSCRIPT_MAX_SECONDS) {
      return atLine('domain_transcript_bad_time');
    }
    if (cue.end < cue.start) return atLine('domain_transcript_reversed');
    const text = cue.text.trim();
    if (text === '') return atLine('domain_transcript_no_text');
    if (text.length > TRANSCRIPT_CUE_MAX_LENGTH) return atLine('domain_transcript_text_too_long', { max: TRANSCRIPT_CUE_MAX_LENGTH });
    const speaker = cue.speaker?.trim() || null;
    if (speaker !== null && speaker.length > TRANSCRIPT_SPEAKER_MAX_LENGTH) return atLine('domain_transcript_speaker_too_long', { max: TRANSCRIPT_SPEAKER_MAX_LENGTH });
    out.push({ start: roundMs(cue.start), end: roundMs(cue.end), text, speaker });
  }
  return { ok: true, cues: out };
}

const roundMs = (s: number) => Math.round(s * 1000) / 1000;

// ---- timestamps ---------------------------------------------------------------------------

const TIME = /^(?:(\d+):)?([0-5]?\d):([0-5]\d)[.,](\d{1,3})$/;

/** "01:02:03.456", "02:03.456" or SRT's "01:02:03,456" in seconds; null when none of these. */
export function parseTimestamp(s: string): number | null {
  const m = TIME.exec(s.trim());
  if (!m) return null;
  const [, h, min, sec, frac] = m;
  return Number(h ?? 0) * 3600 + Number(min) * 60 + Number(sec) + Number((frac ?? '0').padEnd(3, '0')) / 1000;
}

/** Seconds as "HH:MM:SS.mmm" (WebVTT) or "HH:MM:SS,mmm" (SRT). */
export function formatTimestamp(seconds: number, separator: '.' | ',' = '.'): string {
  const ms = Math.max(0, Math.round(seconds * 1000));
  const pad = (n: number, w = 2) => String(n).padStart(w, '0');
  return `${pad(Math.floor(ms / 3_600_000))}:${pad(Math.floor(ms / 60_000) % 60)}:${pad(Math.floor(ms / 1000) % 60)}${separator}${pad(ms % 1000, 3)}`;
}

/** A timing line "start --> end [settings]"; null when it is not one. */
function timingOf(line: string): { start: number; end: number } | null {
  const m = /^\s*(\S+)\s+-->\s+(\S+)(?:\s.*)?$/.exec(line);
  if (!m) return null;
  const start = parseTimestamp(m[1]!);
  const end = parseTimestamp(m[2]!);
  return start === null || end === null ? null : { start, end };
}

// ---- WebVTT and SRT -----------------------------------------------------------------------

const ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', nbsp: '\u00a0', lrm: '\u200e', rlm: '\u200f', quot: '"', apos: "'" };

/** SRT has no escaping: only the tags its players know are markup, any other "<…>" is text. */
const SRT_TAG = /<\/?(?:b|i|u|s|font|v|c)(?:[\s.][^>]*)?>/gi;

/** A cue's payload as plain text: its <v Name> voice as the speaker, other tags dropped, entities
 * decoded (WebVTT; SRT's text is as written but for its formatting tags). */
function cueText(lines: readonly string[], format: 'vtt' | 'srt' = 'vtt'): { text: string; speaker: string | null } {
  let speaker: string | null = null;
  const raw = lines.join('\n');
  const voice = /<v(?:\.[^\s>]*)?\s+([^>]+)>/.exec(raw);
  if (voice) speaker = voice[1]!.trim();
  if (format === 'srt') return { text: raw.replace(SRT_TAG, ''), speaker };
  const text = raw
    .replace(/<[^>]*>/g, '')
    .replace(/&(#x[0-9a-f]+|#\d+|[a-z]+);/gi, (all, name: string) => {
      if (name.startsWith('#x') || name.startsWith('#X')) return String.fromCodePoint(parseInt(name.slice(2), 16));
      if (name.startsWith('#')) return String.fromCodePoint(Number(name.slice(1)));
      return ENTITIES[name.toLowerCase()] ?? all;
    });
  return { text, speaker };
}

const linesOf = (text: string) => text.replace(/^\uFEFF/, '').split(/\r\n|\r|\n/);

/** Cue blocks: runs of non-blank lines, each with the 1-based line number of its first line. */
function blocksOf(lines: readonly string[], from = 0): { line: number; lines: string[] }[] {
  const blocks: { line: number; lines: string[] }[] = [];
  let current: { line: number; lines: string[] } | null = null;
  for (let i = from; i < lines.length; i++) {
    const l = lines[i]!;
    if (l.trim() === '') {
      current = null;
      continue;
    }
    if (current === null) {
      current = { line: i + 1, lines: [] };
      blocks.push(current);
    }
    current.lines.push(l);
  }
  return blocks;
}

type Located = { ok: true; cues: TranscriptCue[]; lines: number[] } | { ok: false; error: FormError };

function withLines(read: Located): TranscriptResult {
  if (!read.ok) return read;
  return checkCues(read.cues, (i) => read.lines[i] ?? i + 1);
}

export function parseVtt(text: string): TranscriptResult {
  return withLines(readVtt(text));
}

function readVtt(text: string): Located {
  const lines = linesOf(text);
  if (!/^WEBVTT(?:[ \t].*)?$/.test(lines[0] ?? '')) return { ok: false, error: formError('invalid', 'domain_transcript_vtt_header', { line: 1 }) };
  // The header's own lines run to the first blank line.
  let i = 1;
  while (i < lines.length && lines[i]!.trim() !== '') i++;
  const cues: TranscriptCue[] = [];
  const at: number[] = [];
  for (const block of blocksOf(lines, i)) {
    const first = block.lines[0]!;
    if (/^(NOTE|STYLE|REGION)(?:[ \t]|$)/.test(first)) continue;
    // An optional identifier line, then the timing line.
    const timingIndex = !first.includes('-->') && block.lines[1]?.includes('-->') ? 1 : 0;
    const timingLine = block.lines[timingIndex];
    const timing = timingLine === undefined ? null : timingOf(timingLine);
    if (timing === null) return { ok: false, error: formError('invalid', 'domain_transcript_bad_timing', { line: block.line + timingIndex }) };
    const { text: body, speaker } = cueText(block.lines.slice(timingIndex + 1));
    cues.push({ start: timing.start, end: timing.end, text: body, speaker });
    at.push(block.line + timingIndex);
  }
  return { ok: true, cues, lines: at };
}

export function parseSrt(text: string): TranscriptResult {
  return withLines(readSrt(text));
}

function readSrt(text: string): Located {
  const lines = linesOf(text);
  const cues: TranscriptCue[] = [];
  const at: number[] = [];
  for (const block of blocksOf(lines)) {
    // The counter line is optional in the wild; the timing line is not.
    const timingIndex = /^\s*\d+\s*$/.test(block.lines[0]!) && block.lines[1]?.includes('-->') ? 1 : 0;
    const timingLine = block.lines[timingIndex];
    const timing = timingLine === undefined ? null : timingOf(timingLine);
    if (timing === null) return { ok: false, error: formError('invalid', 'domain_transcript_bad_timing', { line: block.line + timingIndex }) };
    const { text: body, speaker } = cueText(block.lines.slice(timingIndex + 1), 'srt');
    cues.push({ start: timing.start, end: timing.end, text: body, speaker });
    at.push(block.line + timingIndex);
  }
  return { ok: true, cues, lines: at };
}

/** Escapes a cue's text for WebVTT (its payload is HTML-like: & < > are markup). */
const vttEscape = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
/** A cue's text never holds a blank line (that would end the cue): runs of newlines become one. */
const cueLines = (s: string) => s.replace(/(\r?\n\s*)+/g, '\n').trim();

export function writeVtt(cues: readonly TranscriptCue[], options: { speakers?: boolean } = {}): string {
  const body = cues.map((c) => {
    const voice = options.speakers !== false && c.speaker ? `<v ${c.speaker.replace(/[>\n]/g, ' ')}>` : '';
    return `${formatTimestamp(c.start)} --> ${formatTimestamp(c.end)}\n${voice}${vttEscape(cueLines(c.text))}\n`;
  });
  return ['WEBVTT\n', ...body].join('\n');
}

export function writeSrt(cues: readonly TranscriptCue[], options: { speakers?: boolean } = {}): string {
  return cues
    .map((c, i) => {
      const prefix = options.speakers !== false && c.speaker ? `${c.speaker}: ` : '';
      return `${i + 1}\n${formatTimestamp(c.start, ',')} --> ${formatTimestamp(c.end, ',')}\n${prefix}${cueLines(c.text)}\n`;
    })
    .join('\n');
}

// ---- Podcasting 2.0 JSON ------------------------------------------------------------------

export const TRANSCRIPT_JSON_VERSION = '1.0.0';

/** The line of a JSON.parse failure, from the engine's message ("… (line 3 column 5)" or "at position 42"). */
function jsonErrorLine(text: string, error: unknown): number {
  const message = error instanceof Error ? error.message : '';
  const line = /line (\d+)/.exec(message);
  if (line) return Number(line[1]);
  const position = /position (\d+)/.exec(message);
  if (position) return text.slice(0, Number(position[1])).split('\n').length;
  return 1;
}

export function parseTranscriptJson(text: string): TranscriptResult {
  let doc: unknown;
  try {
    doc = JSON.parse(text.replace(/^\uFEFF/, ''));
  } catch (e) {
    return fail(formError('invalid', 'domain_transcript_bad_json', { line: jsonErrorLine(text, e) }));
  }
  const segments = typeof doc === 'object' && doc !== null && !Array.isArray(doc) ? (doc as { segments?: unknown }).segments : undefined;
  if (!Array.isArray(segments)) return fail(formError('invalid', 'domain_transcript_no_segments'));
  const cues: TranscriptCue[] = [];
  for (const [i, s] of segments.entries()) {
    const seg = (typeof s === 'object' && s !== null ? s : {}) as Record<string, unknown>;
    const bad = (field: string) => fail(formError('invalid', 'domain_transcript_bad_segment', { segment: i + 1, field }), i);
    if (typeof seg['startTime'] !== 'number') return bad('startTime');
    if (typeof seg['endTime'] !== 'number') return bad('endTime');
    if (typeof seg['body'] !== 'string') return bad('body');
    if (seg['speaker'] !== undefined && seg['speaker'] !== null && typeof seg['speaker'] !== 'string') return bad('speaker');
    cues.push({ start: seg['startTime'], end: seg['endTime'], text: seg['body'], speaker: (seg['speaker'] as string | null | undefined) ?? null });
  }
  return checkCues(cues);
}

export function writeTranscriptJson(cues: readonly TranscriptCue[], options: { speakers?: boolean } = {}): string {
  const segments = cues.map((c) => ({
    ...(options.speakers !== false && c.speaker ? { speaker: c.speaker } : {}),
    startTime: c.start,
    endTime: c.end,
    body: c.text,
  }));
  return `${JSON.stringify({ version: TRANSCRIPT_JSON_VERSION, segments }, null, 2)}\n`;
}

// ---- plain text ---------------------------------------------------------------------------

/** The words, a paragraph per speaker turn ("Name: …" when speakers are named and wanted). */
export function writeTranscriptText(cues: readonly TranscriptCue[], options: { speakers?: boolean } = {}): string {
  const paragraphs: { speaker: string | null; words: string[] }[] = [];
  for (const c of cues) {
    const speaker = options.speakers !== false ? (c.speaker ?? null) : null;
    const last = paragraphs.at(-1);
    if (last && last.speaker === speaker) last.words.push(c.text.replace(/\s+/g, ' '));
    else paragraphs.push({ speaker, words: [c.text.replace(/\s+/g, ' ')] });
  }
  return paragraphs.map((p) => `${p.speaker ? `${p.speaker}: ` : ''}${p.words.join(' ')}\n`).join('\n');
}

/** What search indexes of a transcript: its words and speakers' names, one line. */
export function transcriptSearchText(cues: readonly TranscriptCue[]): string {
  return cues.map((c) => (c.speaker ? `${c.speaker} ${c.text}` : c.text).replace(/\s+/g, ' ')).join(' ');
}

/** Every cue moved later by `seconds` (offsetIntro: the published audio starts with an intro). */
export function offsetCues(cues: readonly TranscriptCue[], seconds: number): TranscriptCue[] {
  return seconds === 0 ? [...cues] : cues.map((c) => ({ ...c, start: roundMs(c.start + seconds), end: roundMs(c.end + seconds) }));
}

export function writeTranscript(cues: readonly TranscriptCue[], format: TranscriptFormat, options: { speakers?: boolean } = {}): string {
  switch (format) {
    case 'vtt':
      return writeVtt(cues, options);
    case 'srt':
      return writeSrt(cues, options);
    case 'json':
      return writeTranscriptJson(cues, options);
    case 'text':
      return writeTranscriptText(cues, options);
  }
}

// ── Splitting and joining cues (the editor) ─────────────────────────────────────────────────

/**
 * Cue `index` split in two where its text is cut at `at` (a character offset, as a text field's
 * cursor gives it): the first part keeps the start, the second the end, and the time between is
 * shared in proportion to the text on each side (speech runs at about one pace within a cue). Both
 * parts keep the speaker. Refused when either side of the cut has no words.
 */
export function splitCue(cues: readonly TranscriptCue[], index: number, at: number): { ok: true; cues: TranscriptCue[] } | { ok: false; error: FormError } {
  const cue = cues[index];
  if (!cue) return { ok: false, error: formError('invalid', 'domain_transcript_split_nowhere') };
  const before = cue.text.slice(0, at).trim();
  const after = cue.text.slice(at).trim();
  if (before === '' || after === '') return { ok: false, error: formError('invalid', 'domain_transcript_split_nowhere') };
  const share = before.length / (before.length + after.length);
  // Milliseconds, as the formats keep them.
  const cut = Math.round((cue.start + (cue.end - cue.start) * share) * 1000) / 1000;
  const first: TranscriptCue = { ...cue, end: cut, text: before };
  const second: TranscriptCue = { ...cue, start: cut, text: after };
  return { ok: true, cues: [...cues.slice(0, index), first, second, ...cues.slice(index + 1)] };
}

/** Cue `index` and the next one made one: from the first's start to the second's end, their texts
 *  in order. Cues of two different speakers are not joined (the speaker would be lost). */
export function joinCues(cues: readonly TranscriptCue[], index: number): { ok: true; cues: TranscriptCue[] } | { ok: false; error: FormError } {
  const first = cues[index];
  const second = cues[index + 1];
  if (!first || !second) return { ok: false, error: formError('invalid', 'domain_transcript_join_last') };
  const speaker = first.speaker ?? second.speaker ?? null;
  if (first.speaker && second.speaker && first.speaker !== second.speaker) {
    return { ok: false, error: formError('invalid', 'domain_transcript_join_speakers', { first: first.speaker, second: second.speaker }) };
  }
  const joined: TranscriptCue = { ...first, end: Math.max(first.end, second.end), speaker, text: `${first.text} ${second.text}` };
  return { ok: true, cues: [...cues.slice(0, index), joined, ...cues.slice(index + 2)] };
}
