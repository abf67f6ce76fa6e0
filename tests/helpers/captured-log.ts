// A logger whose lines a test reads: the server's own pino logger (observability/log.ts), writing
// its JSON lines to memory instead of stdout.
import { Writable } from 'node:stream';
import { createLogger } from '../../sync-server/observability/log.ts';

/** One line as pino writes it (the fields the tests read). */
export type LogLine = {
  level: number;
  time: string;
  msg: string;
  requestId?: string;
  method?: string;
  route?: string;
  path?: string;
  status?: number;
  userId?: string;
  err?: { message: string };
  mail?: { to: string };
  import?: { importId: string; guid?: string };
};

/** The logger (at `level`), its lines parsed and as written. */
export function capturedLog(level = 'info') {
  const lines: LogLine[] = [];
  const raw: string[] = [];
  const destination = new Writable({
    write(chunk: Buffer, _enc, done) {
      for (const text of chunk.toString('utf8').split('\n').filter(Boolean)) {
        raw.push(text);
        lines.push(JSON.parse(text) as LogLine);
      }
      done();
    },
  });
  return { log: createLogger({ level, destination }), lines, raw };
}
