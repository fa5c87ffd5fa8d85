/**
 * The built client is sent compressed (issue #28): the build leaves each asset as .br and .gz
 * beside it, and the server sends the one the browser accepts, or the plain file.
 */
import { expect } from 'chai';
import { existsSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { request as httpRequest } from 'node:http';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { appSuite } from '../../helpers/app.ts';
import { requireBuiltClient } from '../../helpers/browser.ts';

/** A GET with `accept-encoding` as a browser sends it; the raw bytes, as they came. */
function get(url: string, acceptEncoding: string) {
  return new Promise<{ status: number; headers: Record<string, unknown>; body: Buffer }>(
    (resolve, reject) => {
      const req = httpRequest(url, { headers: { 'accept-encoding': acceptEncoding } }, (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () =>
          resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }),
        );
      });
      req.on('error', reject);
      req.end();
    },
  );
}

describe('static client: assets sent compressed', () => {
  let dist = '';
  const { app } = appSuite(() => ({ clientDist: (dist = requireBuiltClient()), embeddedStreamer: false }));

  it('sends the landing page script as brotli, as gzip, or plain, whichever the browser takes', async () => {
    const script = readdirSync(path.join(dist, 'assets')).find(
      (f) => f.startsWith('index-') && f.endsWith('.js'),
    );
    expect(script, 'the build has an index script').to.be.a('string');
    expect(existsSync(path.join(dist, 'assets', `${script}.br`)), 'a .br beside it').to.equal(true);
    const url = `${app.url}/assets/${script}`;
    const plain = await get(url, 'identity');
    const br = await get(url, 'gzip, deflate, br');
    const gz = await get(url, 'gzip');
    expect(br.headers['content-encoding']).to.equal('br');
    expect(gz.headers['content-encoding']).to.equal('gzip');
    expect(plain.headers['content-encoding']).to.equal(undefined);
    for (const res of [plain, br, gz]) expect(String(res.headers.vary)).to.match(/accept-encoding/i);
    expect(brotliDecompressSync(br.body).equals(plain.body)).to.equal(true);
    expect(gunzipSync(gz.body).equals(plain.body)).to.equal(true);
    expect(br.body.length).to.be.below(plain.body.length / 2);
  });
});
