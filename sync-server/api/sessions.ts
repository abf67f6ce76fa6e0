// The account's sessions list (src/protocol/api/sessions.ts): read from the sessions table, whose
// last use, User-Agent and client address loadCaller keeps (auth.ts); ending a session deletes it
// and closes its event streams, as signing out does (announceSessionEnded).
import { deleteCookie } from 'hono/cookie';
import { UAParser } from 'ua-parser-js';
import * as routes from '../../src/protocol/api/sessions.ts';
import { announceSessionEnded, SESSION_COOKIE } from '../auth.ts';
import { notFound } from '../errors.ts';
import { now } from '../app.ts';
import { person } from './mfa.ts';
import { guard } from './guard.ts';
import { guarded, resourceApp } from './route.ts';

type SessionRow = { id: string; token_hash: string; created_at_utc: Date; last_seen_at_utc: Date | null; expires_at_utc: Date; user_agent: string | null; client_address: string | null };

/** "Chrome 126 on Android": the browser's name and major version and the system's name; null when the User-Agent says neither. */
export function deviceOf(userAgent: string | null): string | null {
  if (!userAgent) return null;
  const { browser, os } = new UAParser(userAgent).getResult();
  const name = [browser.name, browser.major].filter(Boolean).join(' ');
  if (name && os.name) return `${name} on ${os.name}`;
  return name || os.name || null;
}

const iso = (d: Date | null) => (d ? new Date(d).toISOString() : null);

export function sessionsRoutes() {
  return resourceApp()
    .openapi(guarded(routes.listMySessions, guard.user()), async (c) => {
      const caller = await person(c, { activated: false });
      const rows = await c.get('deps').store.query<SessionRow>(
        `SELECT id, token_hash, created_at_utc, last_seen_at_utc, expires_at_utc, user_agent, client_address FROM sessions
         WHERE user_id = $1 AND expires_at_utc > $2 ORDER BY token_hash = $3 DESC, coalesce(last_seen_at_utc, created_at_utc) DESC, id`,
        [caller.user.Id, now(c.get('deps')), caller.tokenHash],
      );
      const items = rows.map((r) => ({
        Id: r.id,
        Current: r.token_hash === caller.tokenHash,
        CreatedAtUtc: iso(r.created_at_utc)!,
        LastSeenAtUtc: iso(r.last_seen_at_utc),
        ExpiresAtUtc: iso(r.expires_at_utc)!,
        Device: deviceOf(r.user_agent),
        ClientAddress: r.client_address,
      }));
      return c.json({ Items: items }, 200);
    })
    .openapi(guarded(routes.endMySession, guard.user()), async (c) => {
      const caller = await person(c, { activated: false });
      const [ended] = await c.get('deps').store.query<{ token_hash: string }>(`DELETE FROM sessions WHERE id = $1 AND user_id = $2 RETURNING token_hash`, [
        c.req.valid('param').sessionId,
        caller.user.Id,
      ]);
      if (!ended) throw notFound();
      if (ended.token_hash === caller.tokenHash) deleteCookie(c, SESSION_COOKIE, { path: '/' });
      announceSessionEnded(ended.token_hash);
      return c.body(null, 204);
    })
    .openapi(guarded(routes.endMyOtherSessions, guard.user()), async (c) => {
      const caller = await person(c, { activated: false });
      const ended = await c.get('deps').store.query<{ token_hash: string }>(`DELETE FROM sessions WHERE user_id = $1 AND token_hash <> $2 RETURNING token_hash`, [caller.user.Id, caller.tokenHash]);
      for (const e of ended) announceSessionEnded(e.token_hash);
      return c.body(null, 204);
    });
}
