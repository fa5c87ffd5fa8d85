/**
 * Every response carries the security headers, generated from the router's own route list
 * (with and without a token, whatever the status), plus /metrics, the built client and the
 * framework's own errors. CORS answers only APP_URL on every route; the socket handshake
 * refuses every Origin but APP_URL's (look-alike hosts, other schemes and ports, `null`).
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { expect } from 'chai';
import { bootApp, type TestApp } from '../helpers/app.ts';
import { request } from '../helpers/http.ts';
import { connectSocket, handshakeOutcome } from '../helpers/sockets.ts';
import { signIn, type SignedInUser } from '../helpers/users.ts';
import { listApiRoutes, type RouteEntry } from './route-list.ts';

const APP_URL = 'http://app.example.test';
const METRICS_TOKEN = 'metrics-token-for-the-sweep-0123';
const ID = '00000000-0000-4000-8000-000000000000';

/** What is missing from a response's security headers (empty when all are there). */
function missingHeaders(headers: Headers, api: boolean): string[] {
  const missing: string[] = [];
  const csp = (headers.get('content-security-policy') ?? '').split(';').map((d) => d.trim());
  for (const directive of [
    "default-src 'self'",
    "object-src 'none'",
    "base-uri 'none'",
    "frame-ancestors 'none'",
  ]) {
    if (!csp.includes(directive)) missing.push(`CSP ${directive}`);
  }
  const expected: Record<string, string> = {
    'x-content-type-options': 'nosniff',
    'x-frame-options': 'DENY',
    'referrer-policy': 'strict-origin-when-cross-origin',
    'cross-origin-opener-policy': 'same-origin-allow-popups',
  };
  for (const [name, value] of Object.entries(expected)) {
    if (headers.get(name) !== value) missing.push(`${name}: ${headers.get(name)}`);
  }
  if (!/^[\w-]{8,64}$/.test(headers.get('x-request-id') ?? '')) missing.push('x-request-id');
  if (api && headers.get('cache-control') !== 'no-store')
    missing.push(`cache-control: ${headers.get('cache-control')}`);
  if (headers.get('x-powered-by')) missing.push('x-powered-by present');
  return missing;
}

const fill = (route: RouteEntry) =>
  route.path
    .replace(/:exchange/g, 'NSE')
    .replace(/:symbol/g, 'TCS')
    .replace(/:[a-zA-Z_]+/g, ID);

describe('security: headers on every response, CORS and the socket Origin check', function () {
  this.timeout(60_000);
  let app: TestApp;
  let user: SignedInUser;
  let dist: string;
  let routes: RouteEntry[];

  before(async () => {
    dist = mkdtempSync(path.join(tmpdir(), 'pg-dist-'));
    mkdirSync(path.join(dist, 'assets'));
    writeFileSync(path.join(dist, 'index.html'), '<!doctype html><title>Portfolio Guard</title>');
    writeFileSync(path.join(dist, 'assets', 'app-1234.js'), 'console.log(1)');
    app = await bootApp({ clientDist: dist, env: { APP_URL, METRICS_TOKEN }, embeddedStreamer: false });
    user = await signIn(app);
    routes = listApiRoutes(app.runtime);
  });
  after(async () => {
    await app.close();
    rmSync(dist, { recursive: true, force: true });
  });

  it('on every API route, signed in or not, whatever the status', async () => {
    const failures: string[] = [];
    const statuses = new Set<number>();
    // logout-all last: it ends the session the other calls use.
    const ordered = [...routes].sort(
      (a, b) => Number(a.path.endsWith('logout-all')) - Number(b.path.endsWith('logout-all')),
    );
    for (const route of ordered) {
      for (const token of [undefined, user.token]) {
        const body = route.method === 'GET' || route.method === 'DELETE' ? undefined : {};
        const res = await request(app.url, route.method, fill(route), body, {
          token,
          headers: {
            'x-forwarded-for': `10.1.${Math.floor(Math.random() * 250)}.${Math.floor(Math.random() * 250)}`,
          },
        });
        statuses.add(res.status);
        const missing = missingHeaders(res.headers, true);
        if (missing.length)
          failures.push(`${route.method} ${route.path} (${res.status}): ${missing.join(', ')}`);
      }
    }
    expect(failures).to.deep.equal([]);
    expect([...statuses].sort(), 'the sweep saw successes and refusals').to.include.members([200, 401, 404]);
  });

  it('on framework errors, /metrics and the built client', async () => {
    const cases: Array<[string, RequestInit, boolean]> = [
      ['/api/no-such-route', {}, true],
      ['/api/auth/login', { method: 'PUT' }, true],
      [
        '/api/auth/login',
        { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"email":' },
        true,
      ],
      [
        '/api/auth/login',
        {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ x: 'y'.repeat(3 * 1024 * 1024) }),
        },
        true,
      ],
      ['/metrics', {}, false],
      ['/metrics', { headers: { authorization: `Bearer ${METRICS_TOKEN}` } }, false],
      ['/', {}, false],
      ['/holdings', {}, false],
      ['/assets/app-1234.js', {}, false],
      ['/assets/missing.js', {}, false],
    ];
    const failures: string[] = [];
    for (const [url, init, api] of cases) {
      const res = await fetch(`${app.url}${url}`, init);
      await res.arrayBuffer();
      const missing = missingHeaders(res.headers, api);
      if (missing.length)
        failures.push(`${init.method ?? 'GET'} ${url} (${res.status}): ${missing.join(', ')}`);
    }
    expect(failures).to.deep.equal([]);
  });

  it("on Socket.IO's long-polling answers, which Engine.IO writes itself", async () => {
    const res = await fetch(`${app.url}/socket.io/?EIO=4&transport=polling`);
    await res.text();
    expect(res.status).to.equal(200);
    expect(res.headers.get('x-content-type-options')).to.equal('nosniff');
    expect(res.headers.get('x-frame-options')).to.equal('DENY');
    expect(res.headers.get('referrer-policy')).to.equal('strict-origin-when-cross-origin');
    expect(res.headers.get('content-security-policy')).to.equal("default-src 'none'; frame-ancestors 'none'");
  });

  it('allows CORS for APP_URL only, on every API route', async () => {
    const failures: string[] = [];
    for (const route of routes) {
      for (const origin of [APP_URL, 'http://evil.example', `${APP_URL}.evil.example`, 'null']) {
        const res = await fetch(`${app.url}${fill(route)}`, {
          method: 'OPTIONS',
          headers: { origin, 'access-control-request-method': route.method },
        });
        const allowed = res.headers.get('access-control-allow-origin');
        const want = origin === APP_URL ? APP_URL : null;
        if (allowed !== want) failures.push(`${route.method} ${route.path} from ${origin}: ${allowed}`);
        if (res.headers.get('access-control-allow-credentials'))
          failures.push(`${route.path}: credentials allowed`);
      }
    }
    expect(failures).to.deep.equal([]);
  });

  it('accepts a socket from APP_URL (or no Origin, as non-browser clients) and refuses every other Origin', async () => {
    const outcome = (origin?: string) =>
      handshakeOutcome(connectSocket(app.url, user.token, origin === undefined ? {} : { origin }));
    user = await signIn(app); // the sweep above signed the first one out everywhere
    expect(await outcome(APP_URL)).to.equal('connected');
    expect(await outcome(undefined)).to.equal('connected');
    for (const origin of [
      'http://evil.example',
      `${APP_URL}.evil.example`,
      'https://app.example.test',
      'http://app.example.test:8080',
      'http://sub.app.example.test',
      'null',
    ]) {
      expect(await outcome(origin), origin).to.not.equal('connected');
    }
    // The long-polling handshake from a foreign page is refused outright.
    const res = await fetch(`${app.url}/socket.io/?EIO=4&transport=polling`, {
      headers: { origin: 'http://evil.example' },
    });
    expect(res.status).to.equal(403);
    expect(res.headers.get('access-control-allow-origin')).to.not.equal('http://evil.example');
  });
});
