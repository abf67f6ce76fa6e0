// The set-up of the tests of mail that is really sent through the app: a seeded store, an SMTP
// server on 127.0.0.1 (tests/helpers/smtp-server.ts) and an app that mails through it with a
// short retry schedule, on a test clock.
import { createApp } from '../../sync-server/app.ts';
import { createMemoryBus } from '../../sync-server/bus.ts';
import type { MailSettings } from '../../sync-server/mail/outbox.ts';
import { createLogger } from '../../sync-server/observability/log.ts';
import { seed } from '../../sync-server/seed.ts';
import { startSmtp } from '../helpers/smtp-server.ts';
import { testClock, type TestClock } from './app-client.ts';
import { openTestStore, type StoreKind, type TestStore } from './test-store.ts';

export type MailApp = { t: TestStore; smtp: Awaited<ReturnType<typeof startSmtp>>; app: ReturnType<typeof createApp>; clock: TestClock; close: () => Promise<void> };

export async function openMailApp(kind: StoreKind, options: { clips: number; mail?: Partial<MailSettings> }): Promise<MailApp> {
  const t = await openTestStore(kind);
  await seed(t.store, { clips: options.clips });
  const smtp = await startSmtp();
  const clock = testClock();
  const app = createApp({ store: t.store, bus: createMemoryBus(), clock: () => clock.now, log: createLogger({ level: 'error' }), mail: { smtpUrl: smtp.url, retryScheduleMs: [20], timeoutMs: 5_000, ...options.mail } });
  return {
    t,
    smtp,
    app,
    clock,
    async close() {
      await smtp.close();
      await t.drop();
    },
  };
}
