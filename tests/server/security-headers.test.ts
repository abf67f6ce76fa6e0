// The headers of an exposed service (issue 35) over real HTTP, as `npm start` serves them: the
// studio's files carry a policy with no 'unsafe-inline' script that still allows index.html's one
// inline snippet by its hash; answers that render nothing may do nothing when opened as a page;
// nothing here can be framed; HSTS once the server sits behind TLS. The embed player's own policy
// (framed by any site) is checked in pages.test.ts and kept by the middleware. CORS: only the
// public feeds, audio and images are readable by other sites.
import { parseTrustedProxies } from '../../sync-server/client-address.ts';
import { createHash } from 'node:crypto';
import { mkdtempSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seed } from '../../sync-server/seed.ts';
import { startServer, type RunningServer } from '../../sync-server/server.ts';
import { NOTHING_POLICY, REFERENCE_POLICY } from '../../sync-server/security-headers.ts';
import { openTestStore, type TestStore } from './test-store.ts';

const SNIPPET = "\n      document.documentElement.setAttribute('data-theme', 'dark');\n    ";
const directives = (policy: string | null) => new Map((policy ?? '').split(';').map((d) => d.trim().split(/\s+/)).map(([name, ...values]) => [name!, values]));

describe('security headers', () => {
  let t: TestStore;
  let plain: RunningServer;
  let behindTls: RunningServer;
  let dist: string;

  beforeAll(async () => {
    t = await openTestStore('pglite');
    await seed(t.store, { clips: 4 });
    dist = mkdtempSync(join(tmpdir(), 'castaway-dist-'));
    mkdirSync(join(dist, 'assets'));
    writeFileSync(join(dist, 'index.html'), `<!doctype html><title>Castaway Studio</title><script>${SNIPPET}</script><script type="module" src="/assets/index-1.js"></script>`);
    writeFileSync(join(dist, 'sw.js'), 'self.addEventListener("install", () => {});');
    writeFileSync(join(dist, 'assets', 'index-1.js'), 'console.log("app")');
    writeFileSync(join(dist, 'assets', 'sync.worker-1.js'), 'self.onmessage = () => {};');
    plain = await startServer({ store: t.store, distDir: dist, port: 0 });
    behindTls = await startServer({ store: t.store, distDir: dist, port: 0, secureCookies: true });
  });
  afterAll(async () => {
    await plain?.close();
    await behindTls?.close();
    await t?.drop();
    rmSync(dist, { recursive: true, force: true });
  });

  it('gives every file of the studio (page, client-side route, script, worker, service worker) a policy that allows only the inline snippet by its hash', async () => {
    const hash = `'sha256-${createHash('sha256').update(SNIPPET).digest('base64')}'`;
    for (const path of ['/', '/4d7cde59-16c6-5763-bf7e-407fc1220eb3/programs', '/assets/index-1.js', '/assets/sync.worker-1.js', '/sw.js']) {
      const res = await fetch(plain.url + path);
      expect(res.status, path).toBe(200);
      const policy = directives(res.headers.get('content-security-policy'));
      expect(policy.get('script-src'), path).toEqual(["'self'", hash, "'wasm-unsafe-eval'"]);
      expect(policy.get('frame-ancestors'), path).toEqual(["'none'"]);
      expect(policy.get('object-src'), path).toEqual(["'none'"]);
      expect(policy.get('connect-src'), path).toEqual(["'self'"]);
      expect(res.headers.get('x-frame-options'), path).toBe('DENY');
      expect(res.headers.get('x-content-type-options'), path).toBe('nosniff');
      expect(res.headers.get('referrer-policy'), path).toBe('strict-origin-when-cross-origin');
    }
  });

  it('follows a new build: another inline snippet gets its own hash', async () => {
    const other = "console.log('new build')";
    writeFileSync(join(dist, 'index.html'), `<!doctype html><title>Castaway Studio</title><script>${other}</script>`);
    const res = await fetch(plain.url + '/');
    expect(directives(res.headers.get('content-security-policy')).get('script-src')).toContain(`'sha256-${createHash('sha256').update(other).digest('base64')}'`);
    writeFileSync(join(dist, 'index.html'), `<!doctype html><title>Castaway Studio</title><script>${SNIPPET}</script><script type="module" src="/assets/index-1.js"></script>`);
  });

  it('lets answers that render nothing (JSON, errors, 404s) do nothing when opened as a page', async () => {
    const answers = [
      await fetch(plain.url + '/api/internal/session'),
      await fetch(plain.url + '/api/v1/programs'), // 401
      await fetch(plain.url + '/api/internal/session/login', { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"Email": 1' }), // 400
      await fetch(plain.url + '/api/no-such-route'),
      await fetch(plain.url + '/assets/missing-1.js'),
    ];
    expect(answers.map((r) => r.status)).toEqual([200, 401, 400, 404, 404]);
    for (const res of answers) {
      expect(res.headers.get('content-security-policy'), res.url).toBe(NOTHING_POLICY);
      expect(res.headers.get('x-content-type-options'), res.url).toBe('nosniff');
      expect(res.headers.get('x-frame-options'), res.url).toBe('DENY');
    }
  });

  it('gives the API reference the policy Swagger UI runs under, with no inline script', async () => {
    const res = await fetch(plain.url + '/api/docs');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-security-policy')).toBe(REFERENCE_POLICY);
    expect(directives(REFERENCE_POLICY).get('script-src')).toEqual(["'self'"]);
  });

  it('asks for HTTPS from then on only when the server is told it sits behind TLS', async () => {
    expect((await fetch(plain.url + '/')).headers.get('strict-transport-security')).toBeNull();
    for (const path of ['/', '/api/internal/session']) {
      expect((await fetch(behindTls.url + path)).headers.get('strict-transport-security'), path).toBe('max-age=31536000; includeSubDomains');
    }
  });

  it('believes X-Forwarded-Proto: https only from a trusted proxy, for HSTS and the cookie’s Secure flag alike', async () => {
    const login = (url: string) => fetch(`${url}/api/internal/session/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-forwarded-proto': 'https' },
      body: JSON.stringify({ Email: 'analyst@example.com', Password: 'castaway-demo' }),
    });
    // From a client the server does not know as its proxy: neither.
    const untrusted = await login(plain.url);
    expect(untrusted.status).toBe(200);
    expect(untrusted.headers.get('strict-transport-security')).toBeNull();
    expect(untrusted.headers.get('set-cookie')).not.toContain('Secure');
    // From the loopback proxy it trusts: both.
    const proxied = await startServer({ store: t.store, distDir: dist, port: 0, trustedProxies: parseTrustedProxies('127.0.0.1,::1') });
    try {
      const trusted = await login(proxied.url);
      expect(trusted.status).toBe(200);
      expect(trusted.headers.get('strict-transport-security')).toBe('max-age=31536000; includeSubDomains');
      expect(trusted.headers.get('set-cookie')).toContain('Secure');
      // The same trusted proxy saying http: neither.
      const overHttp = await fetch(`${proxied.url}/`, { headers: { 'x-forwarded-proto': 'http' } });
      expect(overHttp.headers.get('strict-transport-security')).toBeNull();
    } finally {
      await proxied.close();
    }
  });

  it('lets any site read the public feeds, audio and images (no credentials), and nothing else', async () => {
    for (const path of ['/feeds/4d7cde59-16c6-5763-bf7e-407fc1220eb3.xml', '/audio/4d7cde59-16c6-5763-bf7e-407fc1220eb3.mp3', '/images/4d7cde59-16c6-5763-bf7e-407fc1220eb3/400.jpg']) {
      const res = await fetch(plain.url + path, { headers: { origin: 'https://player.example' } });
      expect(res.headers.get('access-control-allow-origin'), path).toBe('*');
      expect(res.headers.get('access-control-allow-credentials'), path).toBeNull();
      expect(res.headers.get('access-control-expose-headers'), path).toContain('Content-Range');
      const preflight = await fetch(plain.url + path, { method: 'OPTIONS', headers: { origin: 'https://player.example', 'access-control-request-method': 'GET', 'access-control-request-headers': 'range' } });
      expect(preflight.status, path).toBe(204);
      expect(preflight.headers.get('access-control-allow-headers'), path).toContain('Range');
    }
    for (const path of ['/api/internal/session', '/api/v1/programs', '/', '/embed/4d7cde59-16c6-5763-bf7e-407fc1220eb3', '/shows/4d7cde59-16c6-5763-bf7e-407fc1220eb3']) {
      const res = await fetch(plain.url + path, { headers: { origin: 'https://evil.example' } });
      expect(res.headers.get('access-control-allow-origin'), path).toBeNull();
      const preflight = await fetch(plain.url + path, { method: 'OPTIONS', headers: { origin: 'https://evil.example', 'access-control-request-method': 'PATCH' } });
      expect(preflight.headers.get('access-control-allow-origin'), path).toBeNull();
    }
  });
});
