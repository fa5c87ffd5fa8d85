import { expect } from 'chai';
import { appSuite } from '../../helpers/app.ts';
import { request } from '../../helpers/http.ts';

const MB = 1024 * 1024;

describe('http: request bodies and request ids', () => {
  const { app } = appSuite();

  const postJson = (path: string, raw: string, headers: Record<string, string> = {}) =>
    request(app.url, 'POST', path, undefined, {
      raw,
      headers: { 'content-type': 'application/json', ...headers },
    });

  it('refuses a JSON body over 2 MB with a 413 envelope', async () => {
    const raw = JSON.stringify({ path: '/', referrer: 'x'.repeat(2 * MB + 100) });
    const res = await postJson('/api/events', raw);
    expect(res.status).to.equal(413);
    expect(res.body).to.deep.equal({ success: false, error: 'The request body is too large' });
  });

  it('reads a body just under 2 MB (the limit is 2 MB, not less)', async () => {
    const raw = JSON.stringify({ path: '/', referrer: 'x'.repeat(2 * MB - 1000) });
    const res = await postJson('/api/events', raw);
    // Parsed, then refused by validation: the referrer is longer than allowed.
    expect(res.status).to.equal(400);
    expect(res.body.success).to.equal(false);
    expect(res.body.error).to.not.match(/JSON|too large/);
  });

  it('refuses malformed JSON with a 400 envelope', async () => {
    for (const raw of ['{"email": "a@b.com",', '{not json}', '"just a string"']) {
      const res = await postJson('/api/auth/login', raw);
      expect(res.status, raw).to.equal(400);
      expect(res.body, raw).to.deep.equal({ success: false, error: 'The request body is not valid JSON' });
    }
  });

  it('gives every response an X-Request-Id, including errors', async () => {
    const ok = await request(app.url, 'GET', '/api/health');
    const missing = await request(app.url, 'GET', '/api/nowhere');
    const bad = await postJson('/api/auth/login', '{');
    const ids = [ok, missing, bad].map((res) => res.headers.get('x-request-id'));
    for (const id of ids) expect(id).to.match(/^[0-9a-f-]{36}$/);
    expect(new Set(ids).size).to.equal(3);
  });

  it("keeps a caller's sane X-Request-Id and replaces an unsafe one", async () => {
    const sane = await request(app.url, 'GET', '/api/health', undefined, {
      headers: { 'x-request-id': 'lb-trace-12345678' },
    });
    expect(sane.headers.get('x-request-id')).to.equal('lb-trace-12345678');
    for (const unsafe of ['short', 'has spaces in it ok', 'x'.repeat(65), 'inject"}{"level":60']) {
      const res = await request(app.url, 'GET', '/api/health', undefined, {
        headers: { 'x-request-id': unsafe },
      });
      expect(res.headers.get('x-request-id'), unsafe).to.match(/^[0-9a-f-]{36}$/);
    }
  });
});
