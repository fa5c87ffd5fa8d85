/**
 * Request bodies are read only by the routes that take one, after their sign-in and rate limits,
 * each route with its own size limit; compressed bodies are refused unread (issue #29).
 */
import { deflateSync, gzipSync } from 'node:zlib';
import { expect } from 'chai';
import { appSuite } from '../../helpers/app.ts';
import { answerBeforeBody, request } from '../../helpers/http.ts';
import { signIn, type SignedInUser } from '../../helpers/users.ts';

const KB = 1024;
const MB = 1024 * KB;
/** The sweep's plain body: 1.7 MB. */
const BIG = Math.round(1.7 * MB);

/** A JSON object of exactly `bytes` bytes: `{"pad":"xxx…"}` with `fields` before the padding. */
function jsonOfSize(bytes: number, fields: Record<string, unknown> = {}): string {
  const head = JSON.stringify({ ...fields, pad: '' }).slice(0, -2);
  return `${head}${'x'.repeat(bytes - head.length - 2)}"}`;
}

/** `[1,1,…,1]` 900,000 times: 1.8 MB of JSON in under 2 KB of deflate (the sweep's bomb). */
const ONES = `[${'1,'.repeat(899_999)}1]`;

const tooLarge = (limit: string) => `The request body is too large: this request takes at most ${limit}.`;
const COMPRESSED =
  'Compressed request bodies are not accepted: send the JSON as it is, without Content-Encoding.';

describe('http: request bodies, read only by the routes that take one', () => {
  const { app } = appSuite();
  let user: SignedInUser;
  before(async () => {
    user = await signIn(app);
  });

  const postJson = (
    path: string,
    raw: string | Buffer,
    headers: Record<string, string> = {},
    token?: string,
  ) =>
    request(app.url, 'POST', path, undefined, {
      raw: raw as string,
      token,
      headers: { 'content-type': 'application/json', ...headers },
    });

  it('refuses a 1.7 MB body to POST /api/holdings/manual without a valid token (401) before reading it', async () => {
    const body = Buffer.from(jsonOfSize(BIG, { symbol: 'ITC', exchange: 'NSE', quantity: 1 }));
    for (const token of [undefined, 'not-a-token']) {
      const early = await answerBeforeBody(app.url, '/api/holdings/manual', {
        first: body.subarray(0, 64 * KB),
        total: body.length,
        ...(token ? { token } : {}),
      });
      expect(early.status, String(token)).to.equal(401);
      expect(early.body.success).to.equal(false);
    }
    // A client that sends it all gets the same answer.
    const whole = await postJson('/api/holdings/manual', body);
    expect(whole.status).to.equal(401);
    expect(whole.body.error).to.equal('Authentication required');
  });

  it('refuses a body over the route limit (413, naming the limit) before reading a byte of it', async () => {
    const body = Buffer.from(jsonOfSize(BIG, { refresh_token: 'x' }));
    const early = await answerBeforeBody(app.url, '/api/auth/logout', {
      first: body.subarray(0, 16 * KB),
      total: body.length,
    });
    expect(early.status).to.equal(413);
    expect(early.body.error).to.equal(tooLarge('1 KB'));
    // Without a Content-Length (chunked), reading stops at the limit.
    const chunked = await answerBeforeBody(app.url, '/api/holdings/manual', {
      first: Buffer.from(jsonOfSize(64 * KB)),
      token: user.token,
    });
    expect(chunked.status).to.equal(413);
    expect(chunked.body.error).to.equal(tooLarge('2 KB'));
  });

  const limits: { path: string; signedIn: boolean; limit: number; words: string }[] = [
    { path: '/api/auth/logout', signedIn: false, limit: 1 * KB, words: '1 KB' },
    { path: '/api/events', signedIn: false, limit: 8 * KB, words: '8 KB' },
    { path: '/api/holdings/manual', signedIn: true, limit: 2 * KB, words: '2 KB' },
    { path: '/api/position-rules', signedIn: true, limit: 8 * KB, words: '8 KB' },
    { path: '/api/holdings/upload-csv', signedIn: true, limit: 2 * MB, words: '2 MB' },
  ];
  for (const { path, signedIn, limit, words } of limits) {
    it(`takes a body of up to ${words} at POST ${path}, and refuses one a byte longer with 413`, async () => {
      const token = signedIn ? user.token : undefined;
      const over = await postJson(path, jsonOfSize(limit + 1), {}, token);
      expect(over.status).to.equal(413);
      expect(over.body).to.deep.equal({ success: false, error: tooLarge(words) });
      // At the limit the body is read: whatever the answer, it is about what it says.
      const at = await postJson(path, jsonOfSize(limit), {}, token);
      expect(at.status, JSON.stringify(at.body)).to.not.be.oneOf([413, 415, 500]);
      expect(at.body.error ?? '').to.not.match(/JSON|too large/);
    });
  }

  it('refuses a compressed body (415 with a sentence) without inflating it, signed in or not', async () => {
    const deflated = deflateSync(ONES, { level: 9 });
    expect(deflated.length).to.be.below(2 * KB);
    const bomb = await postJson('/api/auth/logout', deflated, { 'content-encoding': 'deflate' });
    expect(bomb.status).to.equal(415);
    expect(bomb.body).to.deep.equal({ success: false, error: COMPRESSED });
    const upload = await postJson(
      '/api/holdings/upload-csv',
      gzipSync(JSON.stringify({ csvData: 'Symbol,Quantity,Buy Price\nITC,1,400\n', dry_run: true })),
      { 'content-encoding': 'gzip' },
      user.token,
    );
    expect(upload.status).to.equal(415);
    expect(upload.body.error).to.equal(COMPRESSED);
    // `identity` is no encoding at all.
    const plain = await postJson('/api/auth/logout', '{}', { 'content-encoding': 'identity' });
    expect(plain.status).to.equal(200);
  });

  it('refuses a body of more than 20,000 values with 413 and a sentence, however small', async () => {
    const csvData = 'Symbol,Quantity,Buy Price\nITC,1,400\n';
    const many = await postJson(
      '/api/holdings/upload-csv',
      JSON.stringify({ csvData, dry_run: true, skip_lines: Array.from({ length: 30_000 }, () => 1) }),
      {},
      user.token,
    );
    expect(many.status).to.equal(413);
    expect(many.body.error).to.equal('The request body holds too many values (at most 20,000).');
    const ones = await postJson('/api/holdings/upload-csv', ONES, {}, user.token);
    expect(ones.status).to.equal(413);
    expect(ones.body.error).to.equal('The request body holds too many values (at most 20,000).');
  });

  it("serves another user's requests while an attacker sends big, compressed and oversized bodies", async () => {
    const big = Buffer.from(jsonOfSize(BIG, { symbol: 'ITC' }));
    const bomb = deflateSync(ONES, { level: 9 });
    const attacker = await signIn(app);
    const attacks = Array.from({ length: 12 }, (_, i) =>
      i % 3 === 0
        ? postJson('/api/holdings/manual', big)
        : i % 3 === 1
          ? postJson('/api/auth/logout', bomb, { 'content-encoding': 'deflate' })
          : postJson('/api/holdings/manual', big, {}, attacker.token),
    );
    const victim = await signIn(app);
    const added = await request(
      app.url,
      'POST',
      '/api/holdings/manual',
      {
        symbol: 'ITC',
        exchange: 'NSE',
        quantity: 5,
        average_price: 400,
      },
      { token: victim.token },
    );
    const listed = await request<{ symbol: string }[]>(app.url, 'GET', '/api/holdings', undefined, {
      token: victim.token,
    });
    const refused = (await Promise.all(attacks)).map((res) => res.status);
    expect(added.status, JSON.stringify(added.body)).to.equal(201);
    expect(listed.status).to.equal(200);
    expect(listed.body.data!.map((h) => h.symbol)).to.deep.equal(['ITC']);
    expect(refused).to.deep.equal([401, 415, 413, 401, 415, 413, 401, 415, 413, 401, 415, 413]);
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
