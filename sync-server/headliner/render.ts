// Rendering one headliner video (an audiogram) with the system's ffmpeg (Debian's, with libass and
// libx264): the program's colours as the canvas, the artwork as a panel on it, the clip's title,
// a scrolling waveform of the audio in the foreground colour, and the transcript's cues burned in
// as captions, over the audio itself (AAC), as an MP4 that starts playing before it has all loaded.
//
//   audio file ─┬─ -ss intro -t seconds ──────────────────────────────── AAC ──┐
//               └─ showwaves (foreground colour) ───────────┐                  ├─> MP4 (H.264, faststart)
//   colour canvas ── overlay artwork panel ── overlay waveform ── ass (title, captions) ──┘
//
// The title and captions are one ASS file (libass): it wraps long lines within the margins and
// draws the text with an outline in the background colour, so the words stay readable where they
// cross the waveform. The artwork is a panel beside the words, not behind them, so the contrast the
// setting guarantees (HEADLINER_MIN_CONTRAST, foreground on background) is the contrast the viewer
// gets; artwork behind captions would make any colour unreadable somewhere.
import { execFile } from 'node:child_process';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { HEADLINER_FPS, HEADLINER_FRAMES } from '../../src/domain/headliner.ts';
import type { HeadlinerAspectRatio } from '../../src/domain/monetization.ts';
import type { TranscriptCue } from '../../src/domain/transcripts.ts';

const run = promisify(execFile);

/** The ffmpeg and ffprobe the server runs (CASTAWAY_FFMPEG / CASTAWAY_FFPROBE: another build). */
const ffmpeg = () => process.env.CASTAWAY_FFMPEG ?? 'ffmpeg';
const ffprobe = () => process.env.CASTAWAY_FFPROBE ?? 'ffprobe';

type Box = { x: number; y: number; width: number; height: number };
/** Where things go in a frame: the artwork panel, the waveform band, the words' margins and sizes. */
type Layout = {
  artwork: Box;
  waveform: Box;
  title: { marginL: number; marginR: number; marginV: number; size: number };
  captions: { marginL: number; marginR: number; marginV: number; size: number };
};

const LAYOUTS: Record<HeadlinerAspectRatio, Layout> = {
  // Square: artwork above, title under it, the waveform, the captions at the foot.
  '1:1': {
    artwork: { x: 330, y: 60, width: 420, height: 420 },
    waveform: { x: 60, y: 610, width: 960, height: 200 },
    title: { marginL: 60, marginR: 60, marginV: 500, size: 52 },
    captions: { marginL: 70, marginR: 70, marginV: 60, size: 48 },
  },
  // Portrait (stories, reels): the same, taller, leaving the top and foot free of the app's own buttons.
  '9:16': {
    artwork: { x: 160, y: 200, width: 760, height: 760 },
    waveform: { x: 60, y: 1150, width: 960, height: 280 },
    title: { marginL: 70, marginR: 70, marginV: 1000, size: 62 },
    captions: { marginL: 80, marginR: 80, marginV: 260, size: 58 },
  },
  // Landscape (YouTube): artwork on the left, the words and the waveform on the right.
  '16:9': {
    artwork: { x: 120, y: 220, width: 640, height: 640 },
    waveform: { x: 860, y: 430, width: 940, height: 220 },
    title: { marginL: 860, marginR: 120, marginV: 200, size: 58 },
    captions: { marginL: 860, marginR: 120, marginV: 170, size: 50 },
  },
};

/** #RRGGBB as ASS writes a colour: &HAABBGGRR (alpha 00: opaque). */
function assColor(hex: string): string {
  const h = hex.replace('#', '');
  return `&H00${h.slice(4, 6)}${h.slice(2, 4)}${h.slice(0, 2)}`.toUpperCase();
}

/** An ASS time, H:MM:SS.cc. */
function assTime(seconds: number): string {
  const cs = Math.max(0, Math.round(seconds * 100));
  const h = Math.floor(cs / 360_000);
  const m = Math.floor((cs % 360_000) / 6000);
  const s = Math.floor((cs % 6000) / 100);
  return `${h}:${String(m).padStart(2, '0')}:${String(s).padStart(2, '0')}.${String(cs % 100).padStart(2, '0')}`;
}

/** Text as an ASS event shows it literally: braces open override blocks and a backslash a code. */
function assText(text: string): string {
  return text
    .replace(/\\/g, '\u2216')
    .replace(/\{/g, '(')
    .replace(/\}/g, ')')
    .replace(/\r?\n/g, '\\N')
    .trim();
}

/**
 * The ASS document of a video: the title for its whole length, and each cue that falls within the
 * first `seconds` (the cues' times are the episode's, as the video's are: it starts after the intro).
 */
export function headlinerAss(ratio: HeadlinerAspectRatio, look: { title: string | null; cues: readonly TranscriptCue[]; background: string; foreground: string }, seconds: number): string {
  const { width, height } = HEADLINER_FRAMES[ratio];
  const l = LAYOUTS[ratio];
  const fg = assColor(look.foreground);
  const bg = assColor(look.background);
  // Alignment 8: top centre (MarginV from the top); 2: bottom centre (MarginV from the foot).
  const style = (name: string, size: number, bold: 0 | -1, align: 2 | 8, m: { marginL: number; marginR: number; marginV: number }) =>
    `Style: ${name},DejaVu Sans,${size},${fg},${fg},${bg},${bg},${bold},0,0,0,100,100,0,0,1,3,0,${align},${m.marginL},${m.marginR},${m.marginV},1`;
  const events: string[] = [];
  if (look.title) events.push(`Dialogue: 0,${assTime(0)},${assTime(seconds + 1)},Title,,0,0,0,,${assText(look.title)}`);
  for (const cue of look.cues) {
    if (cue.start >= seconds || cue.end <= 0) continue;
    events.push(`Dialogue: 0,${assTime(cue.start)},${assTime(Math.min(cue.end, seconds))},Caption,,0,0,0,,${assText(cue.text)}`);
  }
  return [
    '[Script Info]',
    'ScriptType: v4.00+',
    `PlayResX: ${width}`,
    `PlayResY: ${height}`,
    'WrapStyle: 0',
    'ScaledBorderAndShadow: yes',
    '',
    '[V4+ Styles]',
    'Format: Name, Fontname, Fontsize, PrimaryColour, SecondaryColour, OutlineColour, BackColour, Bold, Italic, Underline, StrikeOut, ScaleX, ScaleY, Spacing, Angle, BorderStyle, Outline, Shadow, Alignment, MarginL, MarginR, MarginV, Encoding',
    style('Title', l.title.size, -1, 8, l.title),
    style('Caption', l.captions.size, 0, 2, l.captions),
    '',
    '[Events]',
    'Format: Layer, Start, End, Style, Name, MarginL, MarginR, MarginV, Effect, Text',
    ...events,
    '',
  ].join('\n');
}

export type RenderInput = {
  ratio: HeadlinerAspectRatio;
  /** The audio file (any format ffmpeg reads) and where in it the episode starts (the intro's length). */
  audioPath: string;
  introSeconds: number;
  /** How long the video is (headlinerSeconds of what follows the intro). */
  seconds: number;
  artworkPath: string | null;
  title: string | null;
  cues: readonly TranscriptCue[];
  background: string;
  foreground: string;
  /** A folder of this render's own (the ASS file goes there). */
  workDir: string;
  outPath: string;
  signal?: AbortSignal;
};

/** How long an ffmpeg render may take: ten times real time, plus start-up (a stuck encoder is killed). */
const timeoutMs = (seconds: number) => Math.round(60_000 + seconds * 10_000);

/** Renders the video into outPath (throws with ffmpeg's last words when it fails). */
export async function renderHeadliner(input: RenderInput): Promise<void> {
  const { width, height } = HEADLINER_FRAMES[input.ratio];
  const l = LAYOUTS[input.ratio];
  const assPath = join(input.workDir, 'words.ass');
  await writeFile(assPath, headlinerAss(input.ratio, { title: input.title, cues: input.cues, background: input.background, foreground: input.foreground }, input.seconds), 'utf8');
  const hex = (c: string) => `0x${c.replace('#', '')}`;
  const seconds = input.seconds.toFixed(3);
  const args = ['-hide_banner', '-nostdin', '-loglevel', 'error', '-y'];
  args.push('-ss', input.introSeconds.toFixed(3), '-t', seconds, '-i', input.audioPath);
  args.push('-f', 'lavfi', '-i', `color=c=${hex(input.background)}:s=${width}x${height}:r=${HEADLINER_FPS}:d=${seconds}`);
  if (input.artworkPath) args.push('-i', input.artworkPath);
  const w = l.waveform;
  const filters = [`[0:a]aformat=channel_layouts=mono,showwaves=s=${w.width}x${w.height}:mode=cline:rate=${HEADLINER_FPS}:scale=sqrt:colors=${hex(input.foreground)}[wave]`];
  let canvas = '[1:v]';
  if (input.artworkPath) {
    const a = l.artwork;
    filters.push(`[2:v]scale=${a.width}:${a.height}:force_original_aspect_ratio=increase,crop=${a.width}:${a.height},setsar=1[art]`);
    filters.push(`[1:v][art]overlay=${a.x}:${a.y}[canvas]`);
    canvas = '[canvas]';
  }
  filters.push(`${canvas}[wave]overlay=${w.x}:${w.y}:shortest=1,ass=filename=${assPath}[video]`);
  args.push('-filter_complex', filters.join(';'));
  args.push('-map', '[video]', '-map', '0:a');
  args.push('-c:v', 'libx264', '-preset', 'veryfast', '-crf', '26', '-pix_fmt', 'yuv420p', '-r', String(HEADLINER_FPS));
  args.push('-c:a', 'aac', '-b:a', '128k', '-ac', '2', '-t', seconds, '-movflags', '+faststart', input.outPath);
  try {
    await run(ffmpeg(), args, { timeout: timeoutMs(input.seconds), maxBuffer: 4 * 1024 * 1024, ...(input.signal ? { signal: input.signal } : {}) });
  } catch (e) {
    const stderr = (e as { stderr?: string }).stderr?.trim();
    throw new Error(`ffmpeg could not make the video${stderr ? `: ${stderr.split('\n').slice(-3).join(' ')}` : `: ${e instanceof Error ? e.message : String(e)}`}`.slice(0, 1000));
  }
}

/** An audio file's length in seconds by ffprobe, or null when it holds no audio it can read. */
export async function probeAudioSeconds(path: string, signal?: AbortSignal): Promise<number | null> {
  try {
    const { stdout } = await run(ffprobe(), ['-v', 'error', '-select_streams', 'a:0', '-show_entries', 'format=duration:stream=codec_type', '-of', 'json', path], {
      timeout: 60_000,
      ...(signal ? { signal } : {}),
    });
    const probed = JSON.parse(stdout) as { streams?: Array<{ codec_type?: string }>; format?: { duration?: string } };
    const duration = Number(probed.format?.duration);
    return probed.streams?.some((s) => s.codec_type === 'audio') && Number.isFinite(duration) && duration > 0 ? duration : null;
  } catch {
    return null;
  }
}
