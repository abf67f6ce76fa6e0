// The typed API client: URLs built from the route declarations (path parameters filled in and
// encoded, the query encoded), input and answer types taken from their schemas, and the result
// mapping of section 8 against the real server (createApp on an in-memory PGlite with a small
// seed; fetch is answered by app.request, keeping the session cookie as a browser would).
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, expectTypeOf, it, vi } from 'vitest';
import { createApp } from '../../sync-server/app.ts';
import { createMemoryBus } from '../../sync-server/bus.ts';
import { DEMO_PASSWORD, ORG_DEMO, seed, seedId } from '../../sync-server/seed.ts';
import { openTestStore, type TestStore } from '../../tests/server/test-store.ts';
import type { Organization, Session, User } from '../protocol/entities.ts';
import { listClips, getClip } from '../protocol/api/clips.ts';
import { getDemoRestore } from '../protocol/api/demo-data.ts';
import { getClipCut } from '../protocol/api/media.ts';
import type { CutEdit } from '../protocol/media.ts';
import { getMyOrganization, getSession, listMyOrganizations, login, logout, logoutAndRedirect, updateMe } from '../protocol/api/session.ts';
import { listUserProfiles } from '../protocol/api/users.ts';
import { call, routeUrl, setApiOrganization, setXsrfToken, type CallData, type CallInput } from './api.ts';

describe('routeUrl', () => {
  it('fills in the path parameters, encoded', () => {
    expect(routeUrl(getClip, { params: { clipId: 'a1b2' } })).toBe('/api/v1/clips/a1b2');
    expect(routeUrl(getDemoRestore, { params: { operationId: 'x/../y z' } })).toBe('/api/internal/demo-data/restores/x%2F..%2Fy%20z');
    expect(() => routeUrl(getClip, {})).toThrow('/v1/clips/{clipId}: no value for {clipId}');
  });

  it('encodes the query, leaving out absent values; no query, no "?"', () => {
    expect(routeUrl(listClips)).toBe('/api/v1/clips');
    expect(routeUrl(listClips, { query: {} })).toBe('/api/v1/clips');
    expect(routeUrl(listClips, { query: { page: '2', pageSize: undefined, clipIds: 'a,b', include: 'x&y=z é' } })).toBe('/api/v1/clips?page=2&clipIds=a%2Cb&include=x%26y%3Dz+%C3%A9');
    expect(routeUrl(logoutAndRedirect, { query: { redirectUrl: '/login?next=/a#b' } })).toBe('/api/logout?redirectUrl=%2Flogin%3Fnext%3D%2Fa%23b');
    expect(routeUrl({ path: '/v1/things' }, { query: { id: ['1', '2'], none: null } })).toBe('/api/v1/things?id=1&id=2');
  });

  it('types the input from the request schemas and the data from the 2xx JSON answer', () => {
    expectTypeOf<CallInput<typeof getDemoRestore>>().toHaveProperty('params').toEqualTypeOf<{ operationId: string }>();
    expectTypeOf<CallInput<typeof login>>().toHaveProperty('json').toEqualTypeOf<{ Email: string; Password: string; MfaCode?: string | undefined; RecoveryCode?: string | undefined }>();
    expectTypeOf<CallData<typeof getSession>>().toEqualTypeOf<Session>();
    expectTypeOf<CallData<typeof listMyOrganizations>>().toEqualTypeOf<Organization[]>();
    expectTypeOf<CallData<typeof updateMe>>().toEqualTypeOf<User>();
    expectTypeOf<CallData<typeof logout>>().toEqualTypeOf<null>();
    // 200 with the cut, or 204 when none was saved.
    expectTypeOf<CallData<typeof getClipCut>>().toEqualTypeOf<CutEdit | null>();
    // Never run: what the compiler refuses.
    const _refused = () => {
      // @ts-expect-error a route with path parameters needs them
      void call(getClip);
      // @ts-expect-error the body is the declared one
      void call(updateMe, { json: { Name: 1 } });
      // @ts-expect-error no such query parameter
      void call(listClips, { query: { pageNumber: '1' } });
    };
    expect(_refused).toBeTypeOf('function');
  });
});

describe('call, against the server', () => {
  let t: TestStore;
  let app: ReturnType<typeof createApp>;
  let cookie = '';
  const requests: string[] = [];
  let network: 'up' | 'down' | 'explained403' = 'up';
  const realFetch = globalThis.fetch;

  beforeAll(async () => {
    t = await openTestStore('pglite');
    await seed(t.store, { clips: 0 });
    app = createApp({ store: t.store, bus: createMemoryBus() });
    vi.stubGlobal('fetch', async (input: string, init: RequestInit = {}) => {
      requests.push(`${init.method ?? 'GET'} ${input}`);
      // A server nobody listens on: the error a dropped connection gives.
      if (network === 'down') return realFetch(`http://127.0.0.1:9${input}`, init);
      // One answer as the server gives a plan's refusal: a 403 that says why.
      if (network === 'explained403') {
        network = 'up';
        return new Response(JSON.stringify({ Errors: [{ Field: 'body', Code: 'featureNotInPlan', Params: { feature: 'apple-premium' } }] }), { status: 403, headers: { 'content-type': 'application/json' } });
      }
      const headers = new Headers(init.headers);
      if (cookie) headers.set('cookie', cookie);
      const response = await app.request(input, { ...init, headers });
      const set = response.headers.getSetCookie().find((c) => c.startsWith('castaway_session='));
      if (set) cookie = set.split(';')[0]!.endsWith('=') ? '' : set.split(';')[0]!;
      return response;
    });
  });
  afterAll(async () => {
    vi.unstubAllGlobals();
    setApiOrganization(null);
    setXsrfToken(null);
    await t?.drop();
  });

  it('maps 2xx to ok with the JSON data, 400 to badRequest with its body, 401 to status', async () => {
    expect(await call(getSession)).toMatchObject({ kind: 'ok', status: 200, data: { Type: 'loggedOut', User: null } });
    expect(await call(listMyOrganizations)).toEqual({ kind: 'status', status: 401 });

    const refused = await call(login, { json: { Email: '', Password: '' }, xsrf: false });
    expect(refused.kind).toBe('badRequest');
    if (refused.kind === 'badRequest') expect(refused.body.Errors.map((e) => [e.Field, e.Code])).toEqual([['Email', 'required'], ['Password', 'required']]);

    const signedIn = await call(login, { json: { Email: 'demo@example.com', Password: DEMO_PASSWORD }, xsrf: false });
    expect(signedIn.kind).toBe('ok');
    if (signedIn.kind === 'ok') expect(signedIn.data.User?.Email).toBe('demo@example.com');
    const orgs = await call(listMyOrganizations);
    expect(orgs.kind === 'ok' && orgs.data.map((o) => o.Name)).toEqual(['Castaway Demo Radio', 'Castaway Podcasts']);
  });

  it('maps 404 to notFound; sends the path parameter and the query the server reads', async () => {
    expect(await call(getMyOrganization, { params: { organizationId: randomUUID() } })).toEqual({ kind: 'notFound', status: 404 });
    expect(await call(getMyOrganization, { params: { organizationId: ORG_DEMO.toUpperCase() } })).toMatchObject({ kind: 'ok', data: { Id: ORG_DEMO } });
    setApiOrganization(ORG_DEMO);
    const ids = [seedId('user:producer@example.com'), seedId('user:analyst@example.com')];
    const profiles = await call(listUserProfiles, { query: { userIds: ids.join(',') } });
    expect(profiles.kind === 'ok' && profiles.data.Items.map((p) => p.Id).sort()).toEqual([...ids].sort());
  });

  it('fetches the XSRF token before the first write, and a fresh one after a 403', async () => {
    setXsrfToken(null);
    requests.length = 0;
    expect(await call(updateMe, { json: { FirstName: 'Dana' } })).toMatchObject({ kind: 'ok', status: 200, data: { FirstName: 'Dana' } });
    expect(requests).toEqual(['GET /api/internal/session/xsrf', 'PATCH /api/internal/users/me']);

    setXsrfToken('forged');
    expect(await call(updateMe, { json: { FirstName: 'Dee' } })).toEqual({ kind: 'status', status: 403 });
    requests.length = 0;
    expect(await call(updateMe, { json: { FirstName: 'Dee' } })).toMatchObject({ kind: 'ok' });
    expect(requests).toEqual(['GET /api/internal/session/xsrf', 'PATCH /api/internal/users/me']);

    // A 403 that says why (a plan's refusal) is no stale token: the next write keeps it.
    network = 'explained403';
    expect(await call(updateMe, { json: { FirstName: 'Dee' } })).toMatchObject({ kind: 'status', status: 403, body: { Errors: [{ Code: 'featureNotInPlan' }] } });
    requests.length = 0;
    expect(await call(updateMe, { json: { FirstName: 'Dana' } })).toMatchObject({ kind: 'ok' });
    expect(requests).toEqual(['PATCH /api/internal/users/me']);
  });

  it('maps 415 to status with its body, and a field error to badRequest naming the field', async () => {
    const coded = await call(updateMe, { json: { FirstName: 'x' }, headers: { 'content-encoding': 'br' } });
    expect(coded).toMatchObject({ kind: 'status', status: 415, body: { Errors: [{ Field: 'Content-Encoding' }] } });
    const bad = await call(updateMe, { json: { InterfaceLanguage: 'xx-XX' } });
    expect(bad.kind === 'badRequest' && bad.body.Errors.map((e) => e.Field)).toEqual(['InterfaceLanguage']);
  });

  it('answers a body-less 2xx with null data, and a dropped connection with error', async () => {
    network = 'down';
    const dropped = await call(logoutAndRedirect, { query: { redirectUrl: 'null' } });
    network = 'up';
    expect(dropped.kind).toBe('error');
    expect(requests.at(-1)).toBe('POST /api/logout?redirectUrl=null');
    expect(await call(logoutAndRedirect, { query: { redirectUrl: 'null' } })).toEqual({ kind: 'ok', status: 204, data: null, etag: null });
    expect(await call(getSession)).toMatchObject({ kind: 'ok', data: { Type: 'loggedOut' } });
  });
});
