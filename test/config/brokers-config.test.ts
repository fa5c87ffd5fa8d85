/**
 * The broker apps' variables (docs/holdings.md#connect-a-broker): a broker is available only with
 * all of its keys, its addresses default to the broker's real ones, a key without its secret
 * stops the config with a sentence naming the missing one, and the token key must be 32 bytes.
 */
import { expect } from 'chai';
import { parseConfig } from '@app/config';
import { configProblems } from './problems.ts';

describe('config: broker apps', () => {
  it('leaves every redirect broker off without keys, Dhan always on, with the real addresses', () => {
    const { brokers } = parseConfig({});
    expect(brokers.kite).to.equal(null);
    expect(brokers.upstox).to.equal(null);
    expect(brokers.angelone).to.equal(null);
    expect(brokers.dhan).to.deep.equal({ apiUrl: 'https://api.dhan.co/v2' });
    expect(brokers.timeoutMs).to.equal(10_000);
  });

  it('turns a broker on with its keys, trimming a trailing slash off its API address', () => {
    const { brokers } = parseConfig({
      KITE_API_KEY: 'kitekey',
      KITE_API_SECRET: 'kitesecret',
      KITE_API_URL: 'http://127.0.0.1:9/',
      ANGELONE_API_KEY: 'angelkey',
    });
    expect(brokers.kite).to.deep.equal({
      apiKey: 'kitekey',
      apiSecret: 'kitesecret',
      apiUrl: 'http://127.0.0.1:9',
      loginUrl: 'https://kite.zerodha.com/connect/login',
    });
    expect(brokers.angelone?.loginUrl).to.equal('https://smartapi.angelone.in/publisher-login');
    expect(brokers.upstox).to.equal(null);
  });

  it('refuses a key without its secret, naming the missing one', () => {
    expect(configProblems({ KITE_API_KEY: 'kitekey' })).to.deep.equal([
      'KITE_API_SECRET is required with KITE_API_KEY: set both, or neither to leave the broker off',
    ]);
    expect(configProblems({ UPSTOX_API_SECRET: 'secret' })).to.deep.equal([
      'UPSTOX_API_KEY is required with UPSTOX_API_SECRET: set both, or neither to leave the broker off',
    ]);
  });

  it('takes a 32-byte token key as hex or base64, and refuses anything else', () => {
    expect(configProblems({ BROKER_TOKEN_KEY: 'ab'.repeat(32) })).to.deep.equal([]);
    expect(configProblems({ BROKER_TOKEN_KEY: Buffer.alloc(32, 7).toString('base64') })).to.deep.equal([]);
    expect(configProblems({ BROKER_TOKEN_KEY: 'ab'.repeat(16) })).to.deep.equal([
      'BROKER_TOKEN_KEY must be 32 bytes as 64 hex digits or base64',
    ]);
  });
});
