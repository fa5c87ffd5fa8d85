/**
 * QUOTE_PROVIDER=angelone end to end in the streamer (docs/live-prices.md#angel-one): the scrip
 * master read from its URL maps our symbols to Angel's tokens (`1|3045`: exchange type and
 * token), SmartStream's ticks reach the bus as tick batches from `angelone`; SmartStream's 401 on
 * the upgrade, and the streamer refused without ANGELONE_API_KEY. The steps: `broker-feed-suite.ts`.
 */
import { startFakeAngelFeed, type FakeAngelFeed } from '../../helpers/fake-brokers/angelone-feed.ts';
import { ANGEL_OTHER_ROWS, angelEquity } from '../../helpers/fake-brokers/scrip-masters.ts';
import { describeBrokerFeed } from './broker-feed-suite.ts';

const credentials = (fake: FakeAngelFeed) => ({
  accessToken: fake.valid.feedToken,
  clientId: fake.valid.clientCode,
  authToken: fake.valid.jwt,
});

describeBrokerFeed<FakeAngelFeed>({
  source: 'angelone',
  broker: 'Angel One',
  fakeName: 'the fake SmartStream',
  startFake: startFakeAngelFeed,
  listed: {
    nse: { symbol: 'SBIN', key: '1|3045', price: 812.5 },
    bse: { symbol: 'RELIANCE', key: '3|500325', price: 1300.15 },
  },
  listTwo(masters) {
    masters.angel = [
      angelEquity('NSE', 'SBIN', '3045'),
      angelEquity('BSE', 'RELIANCE', '500325'),
      ...ANGEL_OTHER_ROWS,
    ];
  },
  listMany(masters, watched) {
    const token = (i: number) => String(10_001 + i);
    masters.angel = watched.map((w, i) => angelEquity('NSE', w.symbol, token(i)));
    return (i) => `1|${token(i)}`;
  },
  env: (fake, masters) => ({
    QUOTE_PROVIDER: 'angelone',
    QUOTE_FALLBACK: 'simulated',
    QUOTE_INTERVAL_MS: '300',
    FEED_BATCH_MS: '100',
    ANGELONE_API_KEY: fake.valid.apiKey,
    ANGELONE_WS_URL: fake.url,
    ANGELONE_SCRIP_MASTER_URL: masters.angelUrl,
    ANGELONE_FEED_TOKEN: fake.valid.feedToken,
    ANGELONE_CLIENT_CODE: fake.valid.clientCode,
    ANGELONE_JWT_TOKEN: fake.valid.jwt,
  }),
  tick(fake, key, ltp, at) {
    const [exchangeType, token] = key.split('|');
    fake.tick(Number(exchangeType), token!, BigInt(Math.round(ltp * 100)), at);
  },
  refusal: {
    title: "SmartStream's 401",
    env: { ANGELONE_JWT_TOKEN: 'expired-jwt' },
    reason: /401.*Invalid Header/,
  },
  renew: credentials,
  noCredentials: { variable: 'ANGELONE_FEED_TOKEN', reason: 'no Angel One feed token' },
  required: 'ANGELONE_API_KEY',
  // 1,000 tokens a connection.
  floodConnections: 2,
});
