// `npm run bench:smoke`: every `bench:*` script of package.json once at its tiny size
// (BENCH_TINY=1, bench/tiny.ts), one after the other. A bench passes when it exits 0 and prints at
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

function run(script: string): Promise<{ code: number | null; figures: number; seconds: number; tail: string }> {
  const started = performance.now();
  return new Promise((resolve) => {
    // bench:scale runs server, sync and fanout, which run on their own here too: its own part (the
    // runs, the summary) is checked with the quickest of them (CI's 40 minutes).
    const extra = script === 'bench:scale' ? { BENCH_SCALE_PARTS: process.env.BENCH_SCALE_PARTS ?? 'server' } : {};
    const child = spawn('npm', ['run', '--silent', script], { cwd: root, env: { ...process.env, ...extra, BENCH_TINY: '1' }, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    child.stdout.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      process.stdout.write(chunk);
    });
    child.stderr.on('data', (chunk: Buffer) => {
      err += chunk.toString();
      process.stderr.write(chunk);
    });
    child.on('close', (code) => {
      const figures = out.split('\n').filter((l) => FIGURE.test(l)).length;
      resolve({ code, figures, seconds: (performance.now() - started) / 1000, tail: (err || out).trim().split('\n').slice(-3).join(' | ') });
    });
  });
}

const results: Array<{ script: string; ok: boolean; line: string }> = [];
for (const script of chosen) {
  console.log(`\n== ${script} (BENCH_TINY=1)`);
  const r = await run(script);
  const ok = r.code === 0 && r.figures > 0;
  const why = r.code !== 0 ? `exit ${r.code}: ${r.tail}` : r.figures === 0 ? 'no `bench:` figure printed' : `${r.figures} figures`;
  results.push({ script, ok, line: `${ok ? 'ok  ' : 'FAIL'} ${script.padEnd(16)} ${r.seconds.toFixed(0).padStart(4)} s  ${why}` });
}
console.log('\n== bench:smoke: every bench at its tiny size');
for (const r of results) console.log(r.line);
const failed = results.filter((r) => !r.ok).length;
console.log(`bench:smoke: ${results.length - failed} passed, ${failed} failed`);
process.exit(failed === 0 ? 0 : 1);
