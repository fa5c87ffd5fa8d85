import { expect } from 'chai';
import { once } from 'node:events';
import https from 'node:https';
import {
  checkPushEndpoint,
  guardedLookupOf,
  isPublicAddress,
  type Resolve,
} from '../../../server/src/channels/webpush/address-guard.ts';

/** A resolver answering from a table, as DNS would for these names. */
const dns =
  (table: Record<string, string[]>): Resolve =>
  async (hostname) => {
    const addresses = table[hostname];
    if (!addresses)
      throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), { code: 'ENOTFOUND' });
    return addresses;
  };

describe('web push: the SSRF guard on subscription endpoints', () => {
  it('calls public IPv4 and IPv6 addresses public', () => {
    for (const address of [
      '142.250.183.10',
      '8.8.8.8',
      '17.253.144.10',
      '2607:f8b0:4004:c07::5f',
      '2a00:1450:4001:82b::200a',
    ]) {
      expect(isPublicAddress(address), address).to.equal(true);
    }
  });

  it('refuses loopback, private, shared, link-local, multicast, reserved and documentation addresses', () => {
    for (const address of [
      '127.0.0.1',
      '127.8.9.10',
      '0.0.0.0',
      '10.1.2.3',
      '172.16.0.1',
      '172.31.255.255',
      '192.168.1.1',
      '100.64.0.1',
      '169.254.169.254',
      '192.0.2.7',
      '198.18.0.1',
      '224.0.0.1',
      '255.255.255.255',
      '::1',
      '::',
      'fe80::1',
      'fc00::1',
      'fd12:3456::1',
      'ff02::1',
      '2001:db8::1',
      'fec0::1',
    ]) {
      expect(isPublicAddress(address), address).to.equal(false);
    }
  });

  it('refuses IPv6 forms that carry a private IPv4 address (mapped, NAT64, 6to4, Teredo)', () => {
    for (const address of [
      '::ffff:127.0.0.1',
      '::ffff:7f00:1',
      '::ffff:10.0.0.1',
      '64:ff9b::a00:1',
      '2002:a00:1::1',
      '2001:0:4136:e378::1',
    ]) {
      expect(isPublicAddress(address), address).to.equal(false);
    }
  });

  it('refuses literal private hosts and localhost in a URL, however they are written', async () => {
    for (const url of [
      'https://127.0.0.1/push/x',
      'https://[::1]/push/x',
      'https://[::ffff:127.0.0.1]/push/x',
      'https://[::ffff:a9fe:a9fe]/push/x',
      'https://2130706433/push/x', // 127.0.0.1 as one number
      'https://0x7f.1/push/x',
      'https://localhost/push/x',
      'https://LOCALHOST./push/x',
      'https://push.localhost:8443/push/x',
      'https://169.254.169.254/latest/meta-data',
    ]) {
      const check = await checkPushEndpoint(url, { allowPrivate: false, resolve: dns({}) });
      expect(check, url).to.deep.include({ ok: false, reason: 'private' });
    }
  });

  it('refuses a name that resolves to a private address, even when one of its addresses is public', async () => {
    const resolve = dns({
      'push.rebind.example': ['10.0.0.7'],
      'mixed.example': ['142.250.183.10', '127.0.0.1'],
      'fcm.googleapis.com': ['142.250.183.10', '2607:f8b0:4004:c07::5f'],
    });
    expect(
      await checkPushEndpoint('https://push.rebind.example/p', { allowPrivate: false, resolve }),
    ).to.deep.equal({
      ok: false,
      reason: 'private',
      detail: 'push.rebind.example resolves to 10.0.0.7',
    });
    expect(await checkPushEndpoint('https://mixed.example/p', { allowPrivate: false, resolve })).to.include({
      ok: false,
      reason: 'private',
    });
    expect(
      await checkPushEndpoint('https://fcm.googleapis.com/fcm/send/x', { allowPrivate: false, resolve }),
    ).to.deep.equal({
      ok: true,
    });
    expect(await checkPushEndpoint('https://nowhere.example/p', { allowPrivate: false, resolve })).to.include(
      {
        ok: false,
        reason: 'unresolved',
      },
    );
  });

  it('lets everything in with WEBPUSH_ALLOW_PRIVATE_ENDPOINTS (tests only)', async () => {
    expect(await checkPushEndpoint('https://127.0.0.1:8443/push/x', { allowPrivate: true })).to.deep.equal({
      ok: true,
    });
  });

  it("fails a connection whose name resolves to a private address at connect time (the sender's agent)", async () => {
    // localhost is refused by name before a send; the agent's lookup refuses what resolves to it.
    const agent = new https.Agent({ lookup: guardedLookupOf() });
    const req = https.request({ host: 'localhost', port: 9, path: '/', agent });
    req.end();
    const [err] = (await once(req, 'error').catch((e: unknown) => [e])) as [Error & { code?: string }];
    expect(err.code).to.equal('EPRIVATEADDRESS');
    expect(err.message).to.equal('localhost resolves to 127.0.0.1, which is not a public address');
    agent.destroy();
  });
});
