import { expect } from 'chai';
import { ConfigError, parseConfig } from '@app/config';
import { configProblems } from './problems.ts';

const SECRET = 'a-test-secret-that-is-at-least-32-characters';
const GOOGLE = '1234567890-example.apps.googleusercontent.com';

const problems = configProblems;

describe('config: parseConfig', () => {
  it('gives the embedded defaults for an empty environment', () => {
    const config = parseConfig({});
    expect(config.PORT).to.equal(3000);
    expect(config.HOST).to.equal('0.0.0.0');
    expect(config.DATA_DIR).to.equal('./data');
    expect(config.NODE_ENV).to.equal('development');
    expect(config.QUOTE_PROVIDER).to.equal('simulated');
    expect(config.QUOTE_INTERVAL_MS).to.equal(60_000);
    expect(config.DATABASE_URL).to.equal(undefined);
    expect(config.REDIS_URL).to.equal(undefined);
    expect(config.TRUST_PROXY).to.equal(false);
    expect(config.REPLAY_LOOP).to.equal(false);
    expect(config.LOG_LEVEL).to.equal('info');
    expect(config.mailTransport).to.equal('outbox');
    expect(config.appUrl).to.equal('http://localhost:3000');
    expect(config.isProduction).to.equal(false);
  });

  it('reads PORT and DATA_DIR, and derives APP_URL from PORT', () => {
    const config = parseConfig({ PORT: '4123', DATA_DIR: '/var/lib/guard' });
    expect(config.PORT).to.equal(4123);
    expect(config.DATA_DIR).to.equal('/var/lib/guard');
    expect(config.appUrl).to.equal('http://localhost:4123');
    expect(parseConfig({ APP_URL: 'https://guard.example.com/' }).appUrl).to.equal(
      'https://guard.example.com',
    );
  });

  it('treats an empty value as unset', () => {
    const config = parseConfig({ PORT: '', GOOGLE_CLIENT_ID: '', DEMO_MODE: '' });
    expect(config.PORT).to.equal(3000);
    expect(config.demoMode).to.equal(true);
  });

  describe('demo sign-in', () => {
    it('is on without GOOGLE_CLIENT_ID, off with one', () => {
      expect(parseConfig({}).demoMode).to.equal(true);
      expect(parseConfig({ GOOGLE_CLIENT_ID: GOOGLE }).demoMode).to.equal(false);
    });

    it('is off in production unless DEMO_MODE=true with DEMO_MODE_PUBLIC_OK=true', () => {
      const prod = { NODE_ENV: 'production', JWT_SECRET: SECRET };
      expect(parseConfig({ ...prod, GOOGLE_CLIENT_ID: GOOGLE }).demoMode).to.equal(false);
      const demo = parseConfig({ ...prod, DEMO_MODE: 'true', DEMO_MODE_PUBLIC_OK: 'true' });
      expect(demo.demoMode).to.equal(true);
      expect(demo.isProduction).to.equal(true);
    });

    it('refuses DEMO_MODE=true in production unless DEMO_MODE_PUBLIC_OK=true says it is a public demo', () => {
      const prod = { NODE_ENV: 'production', JWT_SECRET: SECRET, GOOGLE_CLIENT_ID: GOOGLE };
      expect(problems({ ...prod, DEMO_MODE: 'true' })).to.deep.equal([
        'DEMO_MODE must not be true in production unless DEMO_MODE_PUBLIC_OK=true says this is a public demo (anyone can sign in as any email address)',
      ]);
      expect(problems({ ...prod, DEMO_MODE: 'true', DEMO_MODE_PUBLIC_OK: 'false' })).to.have.length(1);
      expect(problems({ DEMO_MODE: 'true' })).to.deep.equal([]);
    });

    it('can be forced either way with DEMO_MODE', () => {
      expect(parseConfig({ DEMO_MODE: 'false', GOOGLE_CLIENT_ID: GOOGLE }).demoMode).to.equal(false);
      expect(parseConfig({ DEMO_MODE: 'true', GOOGLE_CLIENT_ID: GOOGLE }).demoMode).to.equal(true);
      expect(parseConfig({ DEMO_MODE: '1' }).demoMode).to.equal(true);
    });
  });

  describe('production', () => {
    it('refuses to start without JWT_SECRET', () => {
      const found = problems({ NODE_ENV: 'production', GOOGLE_CLIENT_ID: GOOGLE });
      expect(found).to.have.lengthOf(1);
      expect(found[0]).to.match(/^JWT_SECRET /);
    });

    it('refuses a JWT_SECRET shorter than 32 characters', () => {
      const found = problems({ NODE_ENV: 'production', GOOGLE_CLIENT_ID: GOOGLE, JWT_SECRET: 'short' });
      expect(found.join('\n')).to.contain('JWT_SECRET must be at least 32 characters');
    });

    it('refuses to start with neither Google nor demo sign-in', () => {
      const found = problems({ NODE_ENV: 'production', JWT_SECRET: SECRET });
      expect(found).to.have.lengthOf(1);
      expect(found[0]).to.match(/^GOOGLE_CLIENT_ID /);
    });

    it('refuses DEMO_MODE=false without GOOGLE_CLIENT_ID outside production too', () => {
      expect(problems({ DEMO_MODE: 'false' })[0]).to.match(/^GOOGLE_CLIENT_ID /);
    });

    it('starts with Google sign-in and a secret', () => {
      const config = parseConfig({ NODE_ENV: 'production', JWT_SECRET: SECRET, GOOGLE_CLIENT_ID: GOOGLE });
      expect(config.isProduction).to.equal(true);
      expect(config.JWT_SECRET).to.equal(SECRET);
    });
  });

  it('names every invalid variable in one error', () => {
    let error: unknown;
    try {
      parseConfig({ PORT: 'abc', QUOTE_PROVIDER: 'x', REDIS_URL: 'http://nope', TRUST_PROXY: 'maybe' });
    } catch (err) {
      error = err;
    }
    expect(error).to.be.instanceOf(ConfigError);
    const { message, problems: found } = error as ConfigError;
    expect(found).to.have.lengthOf(4);
    for (const name of ['PORT', 'QUOTE_PROVIDER', 'REDIS_URL', 'TRUST_PROXY']) {
      expect(message).to.contain(`  - ${name} `);
    }
    expect(message).to.contain('REDIS_URL must be a redis:// URL');
    expect(message).to.contain('TRUST_PROXY must be true or false');
  });

  it('requires REPLAY_FILE with the replay provider', () => {
    expect(problems({ QUOTE_PROVIDER: 'replay' })).to.deep.equal([
      'REPLAY_FILE is required when QUOTE_PROVIDER=replay',
    ]);
    expect(parseConfig({ QUOTE_PROVIDER: 'replay', REPLAY_FILE: 'ticks.csv' }).REPLAY_FILE).to.equal(
      'ticks.csv',
    );
  });

  it('reads FEED_USER_EMAIL as the address users sign in with, and refuses what is not one', () => {
    expect(parseConfig({ FEED_USER_EMAIL: ' Operator@Example.com ' }).FEED_USER_EMAIL).to.equal(
      'operator@example.com',
    );
    expect(problems({ FEED_USER_EMAIL: 'operator' })).to.deep.equal([
      'FEED_USER_EMAIL must be an email address',
    ]);
  });

  it('bounds QUOTE_INTERVAL_MS', () => {
    expect(problems({ QUOTE_INTERVAL_MS: '10' })[0]).to.match(/^QUOTE_INTERVAL_MS /);
    expect(parseConfig({ QUOTE_INTERVAL_MS: '1000' }).QUOTE_INTERVAL_MS).to.equal(1000);
  });

  it('bounds how long a request and a socket handshake may take; no default connection ceiling here', () => {
    const config = parseConfig({});
    expect(config.HTTP_REQUEST_TIMEOUT_MS).to.equal(30_000);
    expect(config.HTTP_HEADERS_TIMEOUT_MS).to.equal(10_000);
    expect(config.SOCKET_HANDSHAKE_TIMEOUT_MS).to.equal(10_000);
    // The server derives its ceiling from the process's descriptor limit (http/connections.ts).
    expect(config.HTTP_MAX_CONNECTIONS).to.equal(undefined);
    expect(parseConfig({ HTTP_MAX_CONNECTIONS: '5000' }).HTTP_MAX_CONNECTIONS).to.equal(5000);
    expect(problems({ HTTP_MAX_CONNECTIONS: '0' })[0]).to.match(/^HTTP_MAX_CONNECTIONS /);
    expect(problems({ HTTP_REQUEST_TIMEOUT_MS: '5000', HTTP_HEADERS_TIMEOUT_MS: '6000' })).to.deep.equal([
      'HTTP_HEADERS_TIMEOUT_MS must be at most HTTP_REQUEST_TIMEOUT_MS',
    ]);
  });

  it('picks the mail transport: SendGrid, then SMTP, else the outbox', () => {
    expect(parseConfig({ SENDGRID_API_KEY: 'SG.x', SMTP_URL: 'smtp://h:25' }).mailTransport).to.equal(
      'sendgrid',
    );
    expect(parseConfig({ SMTP_URL: 'smtp://h:25' }).mailTransport).to.equal('smtp');
    expect(problems({ SMTP_URL: 'http://h' })[0]).to.equal('SMTP_URL must be an smtp:// URL');
  });

  it('returns a frozen object', () => {
    const config = parseConfig({});
    expect(Object.isFrozen(config)).to.equal(true);
    expect(() => {
      (config as { PORT: number }).PORT = 1;
    }).to.throw(TypeError);
  });
  describe('Telegram', () => {
    const bot = {
      TELEGRAM_BOT_TOKEN: '123456789:AAExampleTokenFromBotFather_0-9',
      TELEGRAM_BOT_USERNAME: '@PortfolioGuardBot',
      TELEGRAM_WEBHOOK_SECRET: 'a'.repeat(256),
    };

    it('is configured with the token, username and secret; off without them', () => {
      const config = parseConfig(bot);
      expect(config.telegramConfigured).to.equal(true);
      expect(config.TELEGRAM_BOT_USERNAME).to.equal('PortfolioGuardBot');
      expect(config.TELEGRAM_API_URL).to.equal('https://api.telegram.org');
      expect(parseConfig({}).telegramConfigured).to.equal(false);
    });

    it('refuses a partial set with a sentence naming what is missing', () => {
      expect(problems({ ...bot, TELEGRAM_WEBHOOK_SECRET: undefined })).to.deep.equal([
        'TELEGRAM_WEBHOOK_SECRET is required with TELEGRAM_BOT_TOKEN and TELEGRAM_BOT_USERNAME: set all three to turn Telegram alerts on, or none',
      ]);
      expect(problems({ TELEGRAM_BOT_TOKEN: bot.TELEGRAM_BOT_TOKEN })).to.deep.equal([
        'TELEGRAM_BOT_USERNAME is required with TELEGRAM_BOT_TOKEN: set all three to turn Telegram alerts on, or none',
        'TELEGRAM_WEBHOOK_SECRET is required with TELEGRAM_BOT_TOKEN: set all three to turn Telegram alerts on, or none',
      ]);
    });

    it('refuses a secret Telegram would refuse, and a token that is not one', () => {
      expect(problems({ ...bot, TELEGRAM_WEBHOOK_SECRET: 'a'.repeat(257) })).to.deep.equal([
        'TELEGRAM_WEBHOOK_SECRET must be 1 to 256 characters of A-Z, a-z, 0-9, _ and -',
      ]);
      expect(problems({ ...bot, TELEGRAM_WEBHOOK_SECRET: 'has space' })).to.have.length(1);
      expect(problems({ ...bot, TELEGRAM_BOT_TOKEN: 'not-a-token' })).to.deep.equal([
        'TELEGRAM_BOT_TOKEN must be a bot token from BotFather (digits, a colon, then letters)',
      ]);
    });
  });
});
