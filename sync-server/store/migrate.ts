import { readdirSync, readFileSync, existsSync } from 'node:fs';
import { basename, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Store } from './store.ts';

const serverRoot = fileURLToPath(new URL('..', import.meta.url));

/**
 * Migration folders: the core's, plus one per server module that owns tables of its own
 * (sync-server/sync/migrations, sync-server/audio/migrations, …). Files are applied in the order
 * of their names across all folders, each once, so modules number theirs (e.g. 0100_sync_*.sql).
 */
export function migrationFiles(): string[] {
  const dirs = [join(serverRoot, 'migrations')];
  for (const entry of readdirSync(serverRoot, { withFileTypes: true })) {
    const dir = join(serverRoot, entry.name, 'migrations');
    if (entry.isDirectory() && entry.name !== 'migrations' && existsSync(dir)) dirs.push(dir);
  }
  const files = dirs.flatMap((dir) =>
    readdirSync(dir)
      .filter((f) => f.endsWith('.sql'))
      .map((f) => join(dir, f)),
  );
  return files.sort((a, b) => basename(a).localeCompare(basename(b)));
}

/**
 * Applies every migration not yet recorded, each in its own transaction. Returns the names applied.
 * `before`: only those whose names sort before it (a store as an older release left it, for the
 * tests of a later migration's upgrade).
 */
export async function migrate(store: Store, options: { before?: string } = {}): Promise<string[]> {
  await store.exec(
    `CREATE TABLE IF NOT EXISTS schema_migrations (name text PRIMARY KEY, applied_at timestamptz NOT NULL DEFAULT now())`,
  );
  const applied: string[] = [];
  for (const file of migrationFiles()) {
    const name = basename(file);
    if (options.before !== undefined && name.localeCompare(options.before) >= 0) break;
    const sql = readFileSync(file, 'utf8');
    const did = await store.tx(async (q) => {
      // Several PostgreSQL instances may start at once: one migrates, the others wait and skip.
      await q.query(`SELECT pg_advisory_xact_lock(727274)`);
      const done = await q.query(`SELECT 1 FROM schema_migrations WHERE name = $1`, [name]);
      if (done.length > 0) return false;
      for (const statement of splitStatements(sql)) await q.query(statement);
      await q.query(`INSERT INTO schema_migrations (name) VALUES ($1)`, [name]);
      return true;
    });
    if (did) applied.push(name);
  }
  return applied;
}

/** Splits a script on semicolons at line ends; our migrations keep functions out ($$ bodies are not split). */
export function splitStatements(sql: string): string[] {
  const out: string[] = [];
  let current = '';
  let inDollar = false;
  for (const line of sql.split('\n')) {
    if (line.trim().startsWith('--') && !inDollar) continue;
    const dollars = line.match(/\$\$/g)?.length ?? 0;
    if (dollars % 2 === 1) inDollar = !inDollar;
    current += line + '\n';
    if (!inDollar && line.trimEnd().endsWith(';')) {
      out.push(current.trim());
      current = '';
    }
  }
  if (current.trim()) out.push(current.trim());
  return out;
}
