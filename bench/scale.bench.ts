// `npm run bench:scale`: the scale figures of issue 35 in one run, each on a `bench:` line beside
// its target at the end.
//   - 100,000 clips in one organization: bench/server.bench.ts at that size (list pages, the deep
//     page, the full page, PATCH rates) on PGlite and PostgreSQL;
//   - the initial sync of 10,000 clips against a raw Dexie bulkPut of the same rows (≤ 1.2×) and
//     the server's conflict-checked apply rate against its own database floor (≥ 0.7×, both
//     stores): bench/sync.bench.ts;
//   - SSE fan-out to 1,000 devices on a 3-instance cluster (p95 ≤ 150 ms): bench/fanout.bench.ts.
// The parts run one after the other (they would load the same two cores); their own lines are
// printed as they come. BENCH_SCALE_PARTS=server,sync,fanout picks parts.
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { sized, TINY } from './tiny.ts';

const PARTS = (process.env.BENCH_SCALE_PARTS ?? 'server,sync,fanout').split(',').map((p) => p.trim());
const FILES: Record<string, { file: string; env: NodeJS.ProcessEnv }> = {
  server: { file: 'server.bench.ts', env: { BENCH_SERVER_SIZES: process.env.BENCH_SERVER_SIZES ?? sized('100000', '200') } },
  sync: { file: 'sync.bench.ts', env: {} },
  fanout: { file: 'fanout.bench.ts', env: {} },
};
for (const p of PARTS) if (!FILES[p]) throw new Error(`BENCH_SCALE_PARTS: no part "${p}" (parts: ${Object.keys(FILES).join(', ')})`);

/** The figures the issue names, found by the start of their metric, with their targets. */
const SUMMARY: Array<{ part: string; match: RegExp; target: string }> = [
  { part: 'server', match: /^bench: (pglite|postgres)\.[\d.]+k\.list_program_clips_page1_size100_p95 /, target: '≤ 50 ms' },
  { part: 'server', match: /^bench: (pglite|postgres)\.[\d.]+k\.list_program_clips_last_page_size100_p95 /, target: '≤ 150 ms' },
  { part: 'server', match: /^bench: (pglite|postgres)\.[\d.]+k\.list_clips_full_page_size2500_p50 /, target: '≤ 1000 ms' },
  { part: 'sync', match: /^bench: initial sync \/ raw bulkPut /, target: '≤ 1.2 x' },
  { part: 'sync', match: /^bench: initial sync \/ floor /, target: 'the client’s least work with the same pages, for scale' },
  { part: 'sync', match: /^bench: server apply rate \((PGlite|PostgreSQL), one client\) \/ floor /, target: '≥ 0.7 x' },
  { part: 'fanout', match: /^bench: fanout_studio_\d+_clients_3_instances_p95 /, target: '≤ 150 ms (1,000 clients)' },
  { part: 'fanout', match: /^bench: fanout_p95_vs_floor /, target: 'the machine’s own fan-out, for scale' },
];

function run(part: string): Promise<string[]> {
  const { file, env } = FILES[part]!;
  const lines: string[] = [];
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', join(import.meta.dirname, file)], { env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'inherit'] });
    let partial = '';
    child.stdout.on('data', (chunk: Buffer) => {
      process.stdout.write(chunk);
      const all = (partial + chunk.toString()).split('\n');
      partial = all.pop() ?? '';
      lines.push(...all);
    });
    child.on('error', reject);
    child.on('exit', (code) => (code === 0 ? resolve([...lines, partial]) : reject(new Error(`bench/${file} exited with ${code}`))));
  });
}

const started = performance.now();
const found: string[] = [];
for (const part of PARTS) {
  console.log(`\n== bench:scale: ${part}`);
  found.push(...(await run(part)));
}
console.log('\n== bench:scale: the figures of issue 35, beside their targets');
const missing: RegExp[] = [];
for (const { part, match, target } of SUMMARY) {
  const lines = found.filter((x) => match.test(x));
  for (const l of lines) console.log(`${l}   (target ${target})`);
  // A figure renamed in its bench would otherwise drop out of the summary unnoticed.
  if (lines.length === 0 && PARTS.includes(part)) missing.push(match);
}
if (missing.length > 0) {
  console.log(`bench: (no line of the parts matched ${missing.map(String).join(', ')})`);
  if (TINY) throw new Error(`bench:scale: its summary found no figure for ${missing.map(String).join(', ')}`);
}
console.log(`bench: scale_total_run_time = ${Math.round((performance.now() - started) / 1000)} s`);
