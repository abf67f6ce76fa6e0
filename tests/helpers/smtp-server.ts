// An SMTP server on 127.0.0.1 for the tests of mail that is really sent (tests/server/mail.test.ts,
// tests/e2e/password-reset.spec.ts): it parses what it is sent as a mail client would (mailparser).
import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';
import { simpleParser, type ParsedMail } from 'mailparser';

/** An SMTP server on 127.0.0.1 that keeps what it is sent; recipients named busy@ are told to try
 * later (451), refused@ are refused for good (550). */
export async function startSmtp(): Promise<{ url: string; received: ParsedMail[]; rcpt: string[]; close: () => Promise<void> }> {
  const received: ParsedMail[] = [];
  const rcpt: string[] = [];
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    onRcptTo(address, _session, callback) {
      rcpt.push(address.address);
      if (address.address.startsWith('busy@')) return callback(Object.assign(new Error('Mailbox busy, try later'), { responseCode: 451 }));
      if (address.address.startsWith('refused@')) return callback(Object.assign(new Error('No such mailbox'), { responseCode: 550 }));
      callback();
    },
    onData(stream, _session, callback) {
      simpleParser(stream).then(
        (mail) => {
          received.push(mail);
          callback();
        },
        (err: Error) => callback(err),
      );
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.server.address() as AddressInfo;
  return { url: `smtp://127.0.0.1:${port}`, received, rcpt, close: () => new Promise<void>((resolve) => server.close(() => resolve())) };
}

