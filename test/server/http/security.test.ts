import { expect } from 'chai';
import { appSuite } from '../../helpers/app.ts';
import { request } from '../../helpers/http.ts';

const APP_URL = 'http://app.example.test';

function expectSecurityHeaders(headers: Headers) {
  const csp = headers.get('content-security-policy') ?? '';
  const directives = csp.split(';').map((d) => d.trim());
  expect(directives).to.include.members(["object-src 'none'", "base-uri 'none'", "frame-ancestors 'none'"]);
  expect(directives.find((d) => d.startsWith('default-src'))).to.equal("default-src 'self'");
  expect(headers.get('x-content-type-options')).to.equal('nosniff');
  expect(headers.get('referrer-policy')).to.equal('strict-origin-when-cross-origin');
  expect(headers.get('x-frame-options')).to.equal('DENY');
}

describe('http: security headers and CORS', () => {
  const { app } = appSuite({ env: { APP_URL } });

  it('sends the security headers on an API response', async () => {
    const res = await request(app.url, 'GET', '/api/health');
    expect(res.status).to.equal(200);
    expectSecurityHeaders(res.headers);
    expect(res.headers.get('cache-control')).to.equal('no-store');
  });

  it('sends them on a 404', async () => {
    const res = await request(app.url, 'GET', '/api/no-such-route');
    expect(res.status).to.equal(404);
    expect(res.body).to.deep.equal({ success: false, error: 'Not found' });
    expectSecurityHeaders(res.headers);
  });

  it('sends them on errors: 401, 400 and 405', async () => {
    const unauthorized = await request(app.url, 'GET', '/api/auth/profile');
    expect(unauthorized.status).to.equal(401);
    expectSecurityHeaders(unauthorized.headers);
    const invalid = await request(app.url, 'POST', '/api/auth/login', undefined, {
      raw: '{"email":',
      headers: { 'content-type': 'application/json' },
    });
    expect(invalid.status).to.equal(400);
    expectSecurityHeaders(invalid.headers);
    const register = await request(app.url, 'POST', '/api/auth/register', {});
    expect(register.status).to.equal(405);
    expectSecurityHeaders(register.headers);
  });

  it('keeps Google out of the policy when Google sign-in is off', async () => {
    const res = await request(app.url, 'GET', '/api/health');
    expect(res.headers.get('content-security-policy')).to.not.include('accounts.google.com');
  });

  it('allows CORS for the app origin only', async () => {
    const own = await request(app.url, 'GET', '/api/health', undefined, { headers: { origin: APP_URL } });
    expect(own.headers.get('access-control-allow-origin')).to.equal(APP_URL);
    expect(own.headers.get('access-control-expose-headers')).to.include('X-Request-Id');

    const other = await request(app.url, 'GET', '/api/health', undefined, {
      headers: { origin: 'http://evil.example.test' },
    });
    expect(other.status).to.equal(200);
    expect(other.headers.get('access-control-allow-origin')).to.equal(null);
    expect(other.headers.get('access-control-allow-credentials')).to.equal(null);
  });

  it('answers a preflight from the app origin and not from another', async () => {
    const preflight = (origin: string) =>
      fetch(`${app.url}/api/auth/profile`, {
        method: 'OPTIONS',
        headers: {
          origin,
          'access-control-request-method': 'GET',
          'access-control-request-headers': 'authorization',
        },
      });
    const own = await preflight(APP_URL);
    expect(own.status).to.equal(204);
    expect(own.headers.get('access-control-allow-origin')).to.equal(APP_URL);
    expect(own.headers.get('access-control-allow-headers')).to.include('Authorization');
    const other = await preflight('https://evil.example.test');
    expect(other.headers.get('access-control-allow-origin')).to.equal(null);
    expect(other.headers.get('access-control-allow-headers')).to.equal(null);
  });

  it('keeps the CORS header on an error for the app origin, so the client can read it', async () => {
    const res = await request(app.url, 'GET', '/api/auth/profile', undefined, {
      headers: { origin: APP_URL },
    });
    expect(res.status).to.equal(401);
    expect(res.headers.get('access-control-allow-origin')).to.equal(APP_URL);
  });
});

describe('http: security headers with Google sign-in', () => {
  const { app } = appSuite({ env: { GOOGLE_CLIENT_ID: 'portfolio-guard-test.apps.googleusercontent.com' } });

  it("lets only Google's sign-in script, style and frame in", async () => {
    const res = await request(app.url, 'GET', '/api/health');
    expectSecurityHeaders(res.headers);
    const csp = res.headers.get('content-security-policy')!;
    expect(csp).to.include("script-src 'self' https://accounts.google.com/gsi/client");
    expect(csp).to.include('frame-src https://accounts.google.com/gsi/');
    expect(csp).to.not.include('unsafe-eval');
  });
});
