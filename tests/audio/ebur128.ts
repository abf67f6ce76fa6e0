// The reference meter: system ffmpeg's ebur128 filter (libavfilter's EBU R128 meter, its own
// implementation: it resamples to 48 kHz and oversamples the true peak to 192 kHz), whose summary
// our meter (src/media/loudness.ts) and the normalization job's output are compared with. Only tests
// and benchmarks run it; the server never needs ffmpeg.
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';

export type Ebur128Summary = { integratedLufs: number; loudnessRangeLu: number; truePeakDbtp: number };

/** Reads the summary ffmpeg prints at the end ("Integrated loudness: I: … LUFS", "LRA: … LU", "Peak: … dBFS"). */
export function parseEbur128Summary(stderr: string): Ebur128Summary {
  const summary = stderr.slice(stderr.lastIndexOf('Summary:'));
  const number = (re: RegExp) => {
    const m = re.exec(summary);
    if (!m) throw new Error(`ffmpeg's ebur128 summary lacks ${re.source}:\n${summary}`);
    return Number(m[1]);
  };
  return {
    integratedLufs: number(/I:\s+(-?[\d.]+|-inf) LUFS/),
    loudnessRangeLu: number(/LRA:\s+(-?[\d.]+) LU/),
    truePeakDbtp: number(/Peak:\s+(-?[\d.]+|-inf) dBFS/),
  };
}

/** ffmpeg -af ebur128=peak=true on a file: its summary. */
export async function ffmpegEbur128(file: string): Promise<Ebur128Summary> {
  const { stderr } = await promisify(execFile)('ffmpeg', ['-hide_banner', '-nostats', '-i', file, '-af', 'ebur128=peak=true', '-f', 'null', '-'], { maxBuffer: 64 * 1024 * 1024 });
  return parseEbur128Summary(stderr);
}
