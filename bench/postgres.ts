// Where a benchmark finds PostgreSQL: TEST_DATABASE_URL or DATABASE_URL (a role that may CREATE
// DATABASE: each bench makes a scratch database and drops it), else the one scripts/start-postgres.sh
// starts on this machine; null when there is none.
import { spawnSync } from 'node:child_process';

export function postgresUrl(): string | null {
  const fromEnv = process.env.TEST_DATABASE_URL || process.env.DATABASE_URL;
  if (fromEnv) return fromEnv;
  // The script may print a status line before the URL: the URL is its last line.
  const started = spawnSync('bash', ['scripts/start-postgres.sh'], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'] });
  const url = started.stdout?.trim().split('\n').pop() ?? '';
  return started.status === 0 && url.startsWith('postgres') ? url : null;
}

export const NO_POSTGRES =
  'No PostgreSQL for the benchmark: set TEST_DATABASE_URL or DATABASE_URL (a role that may CREATE DATABASE), ' +
  'or install PostgreSQL so scripts/start-postgres.sh can start it.';
