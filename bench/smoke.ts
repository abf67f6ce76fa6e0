// `npm run bench:smoke`: every `bench:*` script of package.json once at its tiny size
// (BENCH_TINY=1, bench/tiny.ts), two at a time (BENCH_SMOKE_JOBS), longest first. A bench passes when it exits 0 and prints at
// least one `bench: <metric> = <number> <unit>` line; CI runs this, so a bench that breaks (a
// renamed route, a changed seed, a missing tool) fails CI instead of rotting until someone wants
// its figures. Nothing here looks at the figures: a tiny run's figures mean nothing.
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

const root = join(import.meta.dirname, '..');
const scripts = Object.keys((JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { scripts: Record<string, string> }).scripts);
const benches = scripts.filter((s) => s.startsWith('bench:') && s !== 'bench:smoke');
const only = process.argv.slice(2);
const chosen = only.length > 0 ? benches.filter((b) => only.includes(b) || only.includes(b.slice('bench:'.length))) : benches;
if (chosen.length === 0) throw new Error(`no bench matches ${only.join(', ')} (benches: ${benches.join(', ')})`);

/** A figure line as the benches print it (bench/report.ts and their own `line`s). */
const FIGURE = /^bench: .+ = -?\d+(\.\d+)?(e[+-]?\d+)? \S/m;

/** Seconds each took in CI's tiny run, to start the long ones first: two at a time then end
 * together instead of the longest starting last beside nothing (unlisted ones go last). */
const USUAL_SECONDS: Record<string, number> = { 'bench:sync': 45, 'bench:audio': 40, 'bench:app': 38, 'bench:fanout': 30, 'bench:analytics': 26, 'bench:search': 22, 'bench:publish': 19, 'bench:scale': 19, 'bench:server': 19, 'bench:upload': 14 };
chosen.sort((a, b) => (USUAL_SECONDS[b] ?? 0) - (USUAL_SECONDS[a] ?? 0));
// Tiny runs are mostly start-up (tsx, a seeded store, a browser), one core each: two side by side
// take about half the time on CI's two cores. Each makes its own scratch databases and folders and
// asks for a free port, so they do not meet.
const JOBS = Math.max(1, Number(process.env.BENCH_SMOKE_JOBS ?? 2));

function run(script: string): Promise<{ code: number | null; figures: number; seconds: number; tail: string; output: string }> {
  const started = performance.now();
  return new Promise((resolve) => {
    // bench:scale runs server, sync and fanout, which run on their own here too: its own part (the
    // runs, the summary) is checked with the quickest of them (CI's 40 minutes).
    const extra = script === 'bench:scale' ? { BENCH_SCALE_PARTS: process.env.BENCH_SCALE_PARTS ?? 'server' } : {};
    const child = spawn('npm', ['run', '--silent', script], { cwd: root, env: { ...process.env, ...extra, BENCH_TINY: '1' }, stdio: ['ignore', 'pipe', 'pipe'] });
    // Kept and printed whole when the bench ends: two benches' lines interleaved read as one.
    let out = '';
    let err = '';
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      output += chunk.toString();
    });
    child.stderr.on('data', (chunk: Buffer) => {
      err += chunk.toString();
      output += chunk.toString();
    });
    child.on('close', (code) => {
      const figures = out.split('\n').filter((l) => FIGURE.test(l)).length;
      resolve({ code, figures, seconds: (performance.now() - started) / 1000, tail: (err || out).trim().split('\n').slice(-3).join(' | '), output });
    });
  });
}

const results: Array<{ script: string; ok: boolean; line: string }> = [];
const queue = [...chosen];
async function worker(): Promise<void> {
  for (let script = queue.shift(); script !== undefined; script = queue.shift()) {
    const r = await run(script);
    console.log(`\n== ${script} (BENCH_TINY=1)\n${r.output.trimEnd()}`);
    const ok = r.code === 0 && r.figures > 0;
    const why = r.code !== 0 ? `exit ${r.code}: ${r.tail}` : r.figures === 0 ? 'no `bench:` figure printed' : `${r.figures} figures`;
    results.push({ script, ok, line: `${ok ? 'ok  ' : 'FAIL'} ${script.padEnd(16)} ${r.seconds.toFixed(0).padStart(4)} s  ${why}` });
  }
}
await Promise.all(Array.from({ length: JOBS }, worker));
console.log('\n== bench:smoke: every bench at its tiny size');
for (const r of results) console.log(r.line);
const failed = results.filter((r) => !r.ok).length;
console.log(`bench:smoke: ${results.length - failed} passed, ${failed} failed`);
process.exit(failed === 0 ? 0 : 1);
