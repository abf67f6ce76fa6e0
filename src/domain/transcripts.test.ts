import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import {
  detectTranscriptFormat,
  formatTimestamp,
  joinCues,
  offsetCues,
  parseSrt,
  parseTimestamp,
  parseTranscript,
  parseTranscriptJson,
  parseVtt,
  splitCue,
  TRANSCRIPT_MAX_BYTES,
  TRANSCRIPT_MAX_CUES,
  writeSrt,
  writeTranscriptJson,
  writeTranscriptText,
  writeVtt,
  type TranscriptCue,
} from './transcripts.ts';

// node-webvtt (a WebVTT parser, compiler and HLS segmenter kept on npm since 2017) reads our
// WebVTT as a player would; it ships no types, so its one call used here is typed here.
type WebVttCue = { identifier: string; start: number; end: number; text: string };
const webvtt = createRequire(import.meta.url)('node-webvtt') as { parse: (input: string, options?: { strict?: boolean }) => { valid: boolean; cues: WebVttCue[] } };

const dir = mkdtempSync(join(tmpdir(), 'transcripts-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** `ffmpeg -i in out`: its subtitle converter picks the formats by extension. */
function ffmpegConvert(input: string, inName: string, outName: string): string {
  writeFileSync(join(dir, inName), input);
  const r = spawnSync('ffmpeg', ['-hide_banner', '-loglevel', 'error', '-y', '-i', join(dir, inName), join(dir, outName)], { encoding: 'utf8' });
  expect(r.status, r.stderr).toBe(0);
  return readFileSync(join(dir, outName), 'utf8');
}

const SRT_FIXTURE = `1
00:00:00,500 --> 00:00:03,250
Welcome to the Morning Briefing.

2
00:00:03,250 --> 00:00:07,000
Today: rain & wind
over the harbour.

3
00:01:02,040 --> 00:01:05,900
That's all for now.
`;

const cues: TranscriptCue[] = [
  { start: 0.5, end: 3.25, text: 'Welcome to the Morning Briefing.', speaker: 'Ana' },
  { start: 3.25, end: 7, text: 'Today: rain & wind <gusts>\nover the harbour.', speaker: 'Ben' },
  { start: 3725.04, end: 3729.9, text: 'That’s all for now.', speaker: null },
];

describe('timestamps', () => {
  it('reads WebVTT, short WebVTT and SRT times', () => {
    expect(parseTimestamp('01:02:03.456')).toBeCloseTo(3723.456);
    expect(parseTimestamp('02:03.4')).toBeCloseTo(123.4);
    expect(parseTimestamp('00:00:01,000')).toBe(1);
    expect(parseTimestamp('1.5')).toBeNull();
    expect(parseTimestamp('00:61:00.000')).toBeNull();
  });
  it('writes hours, minutes, seconds and milliseconds', () => {
    expect(formatTimestamp(3725.04)).toBe('01:02:05.040');
    expect(formatTimestamp(0.5, ',')).toBe('00:00:00,500');
  });
});

describe('round trips through our own writers', () => {
  it('WebVTT keeps times, text with markup characters, and speakers', () => {
    const back = parseVtt(writeVtt(cues));
    expect(back).toEqual({ ok: true, cues });
  });
  it('Podcasting 2.0 JSON keeps everything', () => {
    const json = writeTranscriptJson(cues);
    expect(JSON.parse(json)).toMatchObject({ version: '1.0.0', segments: [{ speaker: 'Ana', startTime: 0.5, endTime: 3.25, body: 'Welcome to the Morning Briefing.' }, {}, {}] });
    expect(parseTranscriptJson(json)).toEqual({ ok: true, cues });
  });
  it('SRT keeps times and text; a speaker is written as “Name: ” before the text', () => {
    const srt = writeSrt(cues);
    expect(srt.startsWith('1\n00:00:00,500 --> 00:00:03,250\nAna: Welcome')).toBe(true);
    const back = parseSrt(writeSrt(cues, { speakers: false }));
    expect(back.ok && back.cues.map((c) => [c.start, c.end, c.text])).toEqual(cues.map((c) => [c.start, c.end, c.text]));
  });
  it('plain text is a paragraph per speaker turn', () => {
    expect(writeTranscriptText(cues)).toBe('Ana: Welcome to the Morning Briefing.\n\nBen: Today: rain & wind <gusts> over the harbour.\n\nThat’s all for now.\n');
    expect(writeTranscriptText(cues, { speakers: false })).toBe('Welcome to the Morning Briefing. Today: rain & wind <gusts> over the harbour. That’s all for now.\n');
  });
  it('offsetIntro moves every cue later', () => {
    expect(offsetCues(cues, 10)[0]).toMatchObject({ start: 10.5, end: 13.25 });
  });
});

describe('files made by other tools', () => {
  it('ffmpeg’s WebVTT from an SRT file reads as the SRT file does', () => {
    const vtt = ffmpegConvert(SRT_FIXTURE, 'fixture.srt', 'fixture.vtt');
    const fromSrt = parseSrt(SRT_FIXTURE);
    expect(fromSrt.ok && fromSrt.cues).toHaveLength(3);
    expect(parseVtt(vtt)).toEqual(fromSrt);
    expect(fromSrt.ok && fromSrt.cues[1]).toEqual({ start: 3.25, end: 7, text: 'Today: rain & wind\nover the harbour.', speaker: null });
  });
  it('ffmpeg reads our WebVTT back into the same SRT cues', () => {
    const srt = ffmpegConvert(writeVtt(cues, { speakers: false }), 'ours.vtt', 'ours.srt');
    const back = parseSrt(srt);
    expect(back.ok && back.cues.map((c) => [c.start, c.end, c.text])).toEqual(cues.map((c) => [c.start, c.end, c.text]));
  });
  it('ffmpeg reads our SRT (SRT has no escaping: ffmpeg takes any "<…>" for a tag, so this text has none)', () => {
    const plain = cues.map((c) => ({ ...c, text: c.text.replace(/ <gusts>/, '') }));
    const vtt = ffmpegConvert(writeSrt(plain, { speakers: false }), 'ours2.srt', 'ours2.vtt');
    const back = parseVtt(vtt);
    expect(back.ok && back.cues.map((c) => [c.start, c.end, c.text])).toEqual(plain.map((c) => [c.start, c.end, c.text]));
  });
  it('node-webvtt, in strict mode, reads our WebVTT with the same times and payloads', () => {
    const parsed = webvtt.parse(writeVtt(cues), { strict: true });
    expect(parsed.valid).toBe(true);
    expect(parsed.cues.map((c) => [c.start, c.end])).toEqual(cues.map((c) => [c.start, c.end]));
    expect(parsed.cues[0]!.text).toBe('<v Ana>Welcome to the Morning Briefing.');
    expect(parsed.cues[1]!.text).toBe('<v Ben>Today: rain &amp; wind &lt;gusts&gt;\nover the harbour.');
  });
});

describe('WebVTT in the wild', () => {
  it('skips NOTE and STYLE blocks, cue identifiers and settings, and drops tags other than the voice', () => {
    const text = 'WEBVTT - a show\nKind: captions\n\nNOTE made by hand\n\nSTYLE\n::cue { color: red }\n\nintro\n00:01.000 --> 00:02.500 align:start position:10%\n<v.loud Dee Dee><i>Hello</i> &lt;there&gt;\n';
    expect(parseVtt(text)).toEqual({ ok: true, cues: [{ start: 1, end: 2.5, text: 'Hello <there>', speaker: 'Dee Dee' }] });
  });
  it('detects the format by type, name and content', () => {
    expect(detectTranscriptFormat('', { contentType: 'text/vtt; charset=utf-8' })).toBe('vtt');
    expect(detectTranscriptFormat('', { fileName: 'Show.SRT' })).toBe('srt');
    expect(detectTranscriptFormat('\uFEFFWEBVTT\n')).toBe('vtt');
    expect(detectTranscriptFormat(SRT_FIXTURE)).toBe('srt');
    expect(detectTranscriptFormat('{"segments":[]}')).toBe('json');
    expect(detectTranscriptFormat('hello')).toBeNull();
  });
});

describe('bad files are refused at their line', () => {
  it('a WebVTT file without its header', () => {
    expect(parseVtt('00:01.000 --> 00:02.000\nHi\n')).toEqual({ ok: false, error: { type: 'invalid', message: 'domain_transcript_vtt_header', params: { line: 1 } } });
  });
  it('a timing line that is not one', () => {
    expect(parseVtt('WEBVTT\n\n00:01.000 --> 00:02.000\nHi\n\n00:03.000 -> 00:04.000\nThere\n')).toMatchObject({ ok: false, error: { message: 'domain_transcript_bad_timing', params: { line: 6 } } });
    expect(parseSrt('1\n00:00:01,000 --> 00:00:02,000\nHi\n\n2\n00:00:03,000 --> soon\nThere\n')).toMatchObject({ ok: false, error: { message: 'domain_transcript_bad_timing', params: { line: 6 } } });
  });
  it('a cue that ends before it starts, or has no text', () => {
    expect(parseSrt('1\n00:00:05,000 --> 00:00:02,000\nHi\n')).toMatchObject({ ok: false, error: { message: 'domain_transcript_reversed', params: { line: 2 } } });
    expect(parseVtt('WEBVTT\n\n\n00:01.000 --> 00:02.000\n<v Ana>\n')).toMatchObject({ ok: false, error: { message: 'domain_transcript_no_text', params: { line: 4 } } });
  });
  it('JSON that does not parse, at its line; a segment without a number', () => {
    expect(parseTranscriptJson('{\n  "segments": [\n    {"startTime": 1,, }\n  ]\n}')).toMatchObject({ ok: false, error: { message: 'domain_transcript_bad_json', params: { line: 3 } } });
    expect(parseTranscriptJson('{"segments":[{"startTime":1,"endTime":2,"body":"a"},{"startTime":"3","endTime":4,"body":"b"}]}')).toMatchObject({
      ok: false,
      error: { message: 'domain_transcript_bad_segment', params: { segment: 2, field: 'startTime' } },
    });
    expect(parseTranscriptJson('[]')).toMatchObject({ ok: false, error: { message: 'domain_transcript_no_segments' } });
  });
  it('no cues, too many cues, too large a file, an unknown format', () => {
    expect(parseVtt('WEBVTT\n')).toMatchObject({ ok: false, error: { type: 'required', message: 'domain_transcript_empty' } });
    const many = writeSrt(Array.from({ length: TRANSCRIPT_MAX_CUES + 1 }, (_, i) => ({ start: i, end: i + 1, text: 'x' })));
    expect(parseTranscript(many)).toMatchObject({ ok: false, error: { message: 'domain_transcript_too_many_cues', params: { max: TRANSCRIPT_MAX_CUES } } });
    expect(parseTranscript(`WEBVTT\n\n${'x'.repeat(TRANSCRIPT_MAX_BYTES)}`)).toMatchObject({ ok: false, error: { type: 'fileTooLarge' } });
    expect(parseTranscript('just words')).toMatchObject({ ok: false, error: { message: 'domain_transcript_unknown_format' } });
  });
});

describe('splitting and joining cues', () => {
  const cues = [
    { start: 1, end: 5, speaker: 'Ana', text: 'Good morning and welcome' },
    { start: 5, end: 7, speaker: 'Ana', text: 'to the briefing.' },
    { start: 7, end: 9, speaker: 'Ben', text: 'Thanks.' },
  ];

  it('splits a cue at the cursor, the time shared in proportion to the text on each side', () => {
    const split = splitCue(cues, 0, 'Good morning'.length);
    expect(split).toEqual({
      ok: true,
      cues: [{ start: 1, end: 3.087, speaker: 'Ana', text: 'Good morning' }, { start: 3.087, end: 5, speaker: 'Ana', text: 'and welcome' }, cues[1], cues[2]],
    });
  });

  it('refuses a split with no words on one side', () => {
    expect(splitCue(cues, 0, 0)).toMatchObject({ ok: false, error: { message: 'domain_transcript_split_nowhere' } });
    expect(splitCue(cues, 0, 999)).toMatchObject({ ok: false, error: { message: 'domain_transcript_split_nowhere' } });
    expect(splitCue(cues, 7, 3)).toMatchObject({ ok: false });
  });

  it('joins a cue with the next of the same speaker, and is the inverse of a split', () => {
    expect(joinCues(cues, 0)).toEqual({ ok: true, cues: [{ start: 1, end: 7, speaker: 'Ana', text: 'Good morning and welcome to the briefing.' }, cues[2]] });
    const split = splitCue(cues, 0, 'Good morning'.length);
    expect(split.ok && joinCues(split.cues, 0)).toEqual({ ok: true, cues });
  });

  it('refuses to join two speakers, or the last cue', () => {
    expect(joinCues(cues, 1)).toMatchObject({ ok: false, error: { message: 'domain_transcript_join_speakers', params: { first: 'Ana', second: 'Ben' } } });
    expect(joinCues(cues, 2)).toMatchObject({ ok: false, error: { message: 'domain_transcript_join_last' } });
  });
});
