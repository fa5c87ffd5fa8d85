import { ConfigError, parseConfig } from '@app/config';
import { expect } from 'chai';
import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import webpush from 'web-push';
import { resolveVapidKeys } from '../../../server/src/channels/webpush/vapid.ts';

function problems(env: Record<string, string>): string[] {
  try {
    parseConfig(env);
    return [];
  } catch (err) {
    if (err instanceof ConfigError) return err.problems;
    throw err;
  }
}

describe('web push: the VAPID identity', () => {
  const pair = webpush.generateVAPIDKeys();
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(path.join(tmpdir(), 'vapid-'));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('takes both configured keys, and refuses one without the other or a malformed one', () => {
    const config = parseConfig({
      WEBPUSH_VAPID_PUBLIC_KEY: pair.publicKey,
      WEBPUSH_VAPID_PRIVATE_KEY: pair.privateKey,
      WEBPUSH_SUBJECT: 'mailto:ops@portfolio.example.com',
      DATA_DIR: dir,
    });
    expect(resolveVapidKeys(config)).to.deep.equal({ ...pair, subject: 'mailto:ops@portfolio.example.com' });
    expect(problems({ WEBPUSH_VAPID_PUBLIC_KEY: pair.publicKey })).to.deep.equal([
      'WEBPUSH_VAPID_PRIVATE_KEY is required with the other VAPID key (set both, or neither to have one generated)',
    ]);
    expect(problems({ WEBPUSH_VAPID_PRIVATE_KEY: pair.privateKey })).to.deep.equal([
      'WEBPUSH_VAPID_PUBLIC_KEY is required with the other VAPID key (set both, or neither to have one generated)',
    ]);
    expect(
      problems({ WEBPUSH_VAPID_PUBLIC_KEY: 'BAD', WEBPUSH_VAPID_PRIVATE_KEY: pair.privateKey }),
    ).to.deep.equal(['WEBPUSH_VAPID_PUBLIC_KEY must be a base64url P-256 public key (65 bytes)']);
    expect(problems({ WEBPUSH_SUBJECT: 'https://localhost/x' })).to.deep.equal([]);
    expect(problems({ WEBPUSH_SUBJECT: 'ops@portfolio.example.com' })).to.deep.equal([
      'WEBPUSH_SUBJECT must be a mailto: or https: URL',
    ]);
  });

  it('without keys, generates a pair once into DATA_DIR (owner-only) and keeps it across restarts', () => {
    const config = parseConfig({
      DATA_DIR: dir,
      MAIL_FROM: 'Portfolio Guard <alerts@portfolio.example.com>',
    });
    const first = resolveVapidKeys(config);
    expect(first.subject).to.equal('mailto:alerts@portfolio.example.com');
    expect(Buffer.from(first.publicKey, 'base64url')).to.have.length(65);
    expect(Buffer.from(first.privateKey, 'base64url')).to.have.length(32);
    const file = path.join(dir, 'vapid-keys.json');
    expect(statSync(file).mode & 0o777).to.equal(0o600);
    expect(JSON.parse(readFileSync(file, 'utf8'))).to.deep.equal({
      publicKey: first.publicKey,
      privateKey: first.privateKey,
    });
    expect(resolveVapidKeys(parseConfig({ DATA_DIR: dir }))).to.deep.include({
      publicKey: first.publicKey,
      privateKey: first.privateKey,
    });
  });
});
