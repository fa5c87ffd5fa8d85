/**
 * Text and request shapes the fuzzing found answered with a 500 or a wrong sentence (issue 15):
 * control characters in any text, non-JSON bodies, a malformed URL; and HSTS over https.
 */
import { expect } from 'chai';
import { bootApp } from '../helpers/app.ts';
import { request } from '../helpers/http.ts';
import { expectRefused, inputSuite } from './support/input-suite.ts';

const CONTROL = (field: string) => `Text may not contain control characters (found in ${field})`;

describe('security: control characters, content types, URLs and HSTS', () => {
  const { app, api, user, upload, rule, alert } = inputSuite();

  describe('control characters', () => {
    const nul = 'A\u0000B';

    it('refuses them in every listed body field with a sentence naming the field', async () => {
      expectRefused(
        await request(app.url, 'POST', '/api/auth/login', { email: 'nul@example.com', name: nul }),
        CONTROL('name'),
      );
      expectRefused(await request(app.url, 'POST', '/api/events', { path: `/x${nul}` }), CONTROL('path'));
      expectRefused(await upload(`Symbol,Quantity,Buy Price\n${nul},1,100\n`), CONTROL('csvData'));
      expectRefused(
        await upload('Symbol,Quantity,Buy Price\nITC,1,100\n', { broker_name: nul }),
        CONTROL('broker_name'),
      );
      expectRefused(
        await upload('Symbol,Quantity,Buy Price\nITC,1,100\n', {
          overrides: [{ line: 1, symbol: nul, exchange: 'NSE' }],
        }),
        CONTROL('overrides.0.symbol'),
      );
      expectRefused(await rule({ symbol: nul }), CONTROL('symbol'));
      expectRefused(await rule({ rule_name: nul }), CONTROL('rule_name'));
      expectRefused(await alert({ note: nul }), CONTROL('note'));
      expectRefused(await rule({ [`key${nul}`]: 1 }), CONTROL('a field name'));
      for (const ch of ['\u0001', '\u0008', '\u000b', '\u000c', '\u001f', '\u007f']) {
        expectRefused(await alert({ note: `x${ch}y` }), CONTROL('note'));
      }
    });

    it('refuses bidirectional overrides, embeddings and isolates as control characters (a name that reads backwards)', async () => {
      // U+202E turns 'Asha\u202Efdp.exe' into 'Ashaexe.pdf' on screen.
      expectRefused(
        await request(app.url, 'POST', '/api/auth/login', {
          email: 'rlo@example.com',
          name: 'Asha\u202Efdp.exe',
        }),
        CONTROL('name'),
      );
      for (const ch of [
        '\u202a',
        '\u202b',
        '\u202c',
        '\u202d',
        '\u202e',
        '\u2066',
        '\u2067',
        '\u2068',
        '\u2069',
      ]) {
        expectRefused(await rule({ rule_name: `stop${ch}` }), CONTROL('rule_name'));
      }
      expectRefused(
        await upload('Symbol,Quantity,Buy Price\nITC,1,100\n', { broker_name: 'Zerodha\u2066' }),
        CONTROL('broker_name'),
      );
      // Letters of right-to-left scripts are text, not controls.
      expect((await alert({ note: 'شراء نصف' })).status).to.equal(201);
    });

    it('finds them at any depth of a deep or wide body, up to 20,000 values', async () => {
      const nested = (depth: number) =>
        request(app.url, 'POST', '/api/holdings/upload-csv', undefined, {
          token: user().token,
          raw: `${'['.repeat(depth)}"\\u0000"${']'.repeat(depth)}`,
          headers: { 'content-type': 'application/json' },
        });
      expectRefused(await nested(19_000), CONTROL(`${'0.'.repeat(38)}0...`));
      const wide = Object.fromEntries(Array.from({ length: 15_000 }, (_, i) => [`k${i}`, 'fine']));
      wide.k14999 = 'not\u0007fine';
      expectRefused(await upload('Symbol,Quantity,Buy Price\nITC,1,100\n', wide), CONTROL('k14999'));
      const long = Array.from({ length: 15_000 }, () => 1);
      expectRefused(
        await upload('Symbol,Quantity,Buy Price\nITC,1,100\n', { skip_lines: [...long, 'bell\u0007'] }),
        CONTROL('skip_lines.15000'),
      );
      // Deeper than the values a body may hold: refused as too many, without a walk to the end.
      const deep = await nested(200_000);
      expect(deep.status).to.equal(413);
      expect(deep.body.error).to.equal('The request body holds too many values (at most 20,000).');
    });

    it('keeps tabs and line breaks in text, where CSV needs them', async () => {
      const res = await upload('Symbol,Quantity,Buy Price\r\nITC,3,400\r\n"TCS\t",2,3000\r\n', {
        dry_run: true,
      });
      expect(res.status, JSON.stringify(res.body)).to.equal(200);
      expect((await alert({ note: 'line one\nline two\ttabbed' })).status).to.equal(201);
    });

    it('refuses them in query values and path parameters', async () => {
      const get = (path: string) => api.get(path, user().token);
      expectRefused(await get('/api/position-rules?symbol=%00'), CONTROL('symbol'));
      expectRefused(await get('/api/position-rules/current-prices?symbols=%00'), CONTROL('symbols'));
      expectRefused(await get('/api/dev/outbox?to=%00'), CONTROL('to'));
      expectRefused(await get('/api/market/chart/NSE/%00'), CONTROL('the request path'));
      expectRefused(await get('/api/symbols/search?query=x&query=%01'), CONTROL('query'));
    });
  });

  it('answers 415 with a sentence for form and text bodies, and keeps JSON and empty bodies working', async () => {
    const form = await request(app.url, 'POST', '/api/auth/login', undefined, {
      raw: 'email=a%40b.com&name=Form',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    });
    expect(form.status).to.equal(415);
    expect(form.body).to.deep.equal({
      success: false,
      error: 'The request body must be JSON (Content-Type: application/json)',
    });
    const text = await request(app.url, 'POST', '/api/events', undefined, {
      raw: '{"path":"/"}',
      headers: { 'content-type': 'text/plain' },
    });
    expect(text.status).to.equal(415);
    const json = await request(app.url, 'POST', '/api/events', { path: '/' });
    expect(json.status).to.equal(201);
    const empty = await request(app.url, 'POST', '/api/alerts/read-all', undefined, { token: user().token });
    expect(empty.status).to.equal(200);
  });

  it('says the URL is malformed, not the body', async () => {
    for (const path of ['/%', '/api/%', '/api/position-rules/%E0%A4%A']) {
      const res = await request(app.url, 'GET', path, undefined, { token: user().token });
      expect(res.status, path).to.equal(400);
      expect(res.body, path).to.deep.equal({ success: false, error: 'The request URL is not valid' });
    }
  });

  describe('HSTS', () => {
    for (const [appUrl, expected] of [
      ['https://guard.example.test', 'max-age=31536000; includeSubDomains'],
      ['http://guard.example.test', null],
    ] as const) {
      it(`${expected ? 'sends' : 'does not send'} Strict-Transport-Security when APP_URL is ${appUrl}`, async () => {
        const other = await bootApp({ env: { APP_URL: appUrl }, embeddedStreamer: false });
        try {
          for (const path of ['/api/health', '/api/nowhere']) {
            const res = await request(other.url, 'GET', path);
            expect(res.headers.get('strict-transport-security'), path).to.equal(expected);
          }
        } finally {
          await other.close();
        }
      });
    }
  });
});
