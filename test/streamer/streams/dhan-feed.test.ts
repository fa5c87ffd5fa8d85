/**
 * QUOTE_PROVIDER=dhan end to end in the streamer (docs/live-prices.md#dhan): Dhan's scrip master
 * CSV read from its URL maps our symbols to security ids in NSE_EQ / BSE_EQ, the live feed's ticks
 * (LTT in Indian wall-clock seconds) reach the bus as tick batches from `dhan`; its disconnect 807
 * (token expired). The steps: `broker-feed-suite.ts`.
 */
import { startFakeDhanFeed, type FakeDhanFeed } from '../../helpers/fake-brokers/dhan-feed.ts';
import { DHAN_OTHER_LINES, dhanEquity } from '../../helpers/fake-brokers/scrip-masters.ts';
import { describeBrokerFeed } from './broker-feed-suite.ts';

const CLIENT_ID = '1100003626';
/** Dhan's LTT: Indian wall-clock seconds counted as if UTC. */
const ltt = (ms: number) => ms / 1000 + 330 * 60;

describeBrokerFeed<FakeDhanFeed>({
  source: 'dhan',
  broker: 'Dhan',
  fakeName: 'the fake live feed',
  async startFake() {
    const fake = await startFakeDhanFeed();
    fake.tokens.set('token-1', CLIENT_ID);
    return fake;
  },
  listed: {
    nse: { symbol: 'HDFCBANK', key: 'NSE_EQ|1333', price: 1612.4 },
    bse: { symbol: 'TCS', key: 'BSE_EQ|532540', price: 3915.05 },
  },
  listTwo(masters) {
    masters.dhan = [
      dhanEquity('NSE', 'HDFCBANK', '1333', 'HDFC BANK LTD'),
      dhanEquity('BSE', 'TCS', '532540', 'TATA CONSULTANCY SERVICES LTD.'),
      dhanEquity('NSE', 'M&M', '2031', 'MAHINDRA & MAHINDRA, LTD'),
      ...DHAN_OTHER_LINES,
    ];
  },
  listMany(masters, watched) {
    const id = (i: number) => String(20_001 + i);
    masters.dhan = watched.map((w, i) => dhanEquity('NSE', w.symbol, id(i)));
    return (i) => `NSE_EQ|${id(i)}`;
  },
  env: (fake, masters) => ({
    QUOTE_PROVIDER: 'dhan',
    QUOTE_FALLBACK: 'simulated',
    QUOTE_INTERVAL_MS: '300',
    FEED_BATCH_MS: '100',
    DHAN_WS_URL: fake.url,
    DHAN_SCRIP_MASTER_URL: masters.dhanUrl,
    DHAN_ACCESS_TOKEN: 'token-1',
    DHAN_CLIENT_ID: CLIENT_ID,
  }),
  tick: (fake, key, ltp, at) => fake.tick(key, ltp, ltt(at)),
  refusal: {
    title: "Dhan's disconnect 807 (token expired)",
    expire(fake) {
      fake.tokens.delete('token-1');
      fake.disconnectAll(807);
    },
    reason: /^disconnect 807: access token expired$/,
  },
  renew(fake) {
    fake.tokens.set('token-2', CLIENT_ID);
    return { accessToken: 'token-2', clientId: CLIENT_ID };
  },
  noCredentials: { variable: 'DHAN_ACCESS_TOKEN', reason: 'no Dhan access token' },
  // 5,000 instruments a connection.
  floodConnections: 1,
});
