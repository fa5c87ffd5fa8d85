/**
 * Stand-ins for Kite's ticker samples in `data/samples/kite/`: zerodha/kiteconnectjs
 * `test/{ltp,quote,full}Mode_binary.packet` (framed), zerodha/kiteconnect-mocks
 * `ticker_{quote,full}.packet` (base64, one packet) with their decoded `ticker_*.json`, and a few
 * rows of the mocks' `instruments_all.csv`. The packets are written from the values their tests
 * assert (token 884737, LTP 392.95, …); the JSON carries the fields the tests compare.
 */

const hex = (text: string) => () => Buffer.from(text.replace(/\s/g, ''), 'hex');
const quoteBody = `000d8001 0000997f 00000002 00009d73 0153ad28 000015f1 00000000
  0000a410 0000a46a 00009862 0000a1c2`;

export const kiteLtpPacket = hex('0001 0008 000d8001 0000997f');
export const kiteQuotePacket = hex(`0001 002c ${quoteBody}`);
export const kiteFullPacket = hex(
  `0001 00b8 ${quoteBody} 62ab05a0 00000000 00000000 00000000 62ab1198 000015f1 0000997f 001e0000 ${'0'.repeat(216)}`,
);

const base64 = (text: string) => () => `${text}\n`;
export const tickerQuotePacket = base64('AAY6AQACZoMAAAABAAJlaQAR8bIAA+n/AAWANwACZPMAAmc8AAJhyQACZGw=');
export const tickerFullPacket = base64(
  'AAY6AQACZroAAAAHAAJlbQASMhcAA+m7AAWKAQACZPMAAmc8AAJhyQACZGxg4pR/AAAAAAAAAAAAAAAAYOKUfwAAAAUAAmacAAEAAAAAAIwAAmZ0AAIAAAAAAAIAAmZvAAEAAAAAANsAAmZqAAcAAAAAADIAAmZlAAEAAAAAAKwAAma6AAMAAAAAACwAAma/AAMAAAAAAS4AAmbJAAMAAAAAAI0AAmbOAAIAAAAAAtQAAmbTAAUAAA==',
);

const ohlc = { open: 1569.15, high: 1575, low: 1561.05, close: 1567.8 };
const json = (value: unknown) => () => `${JSON.stringify(value, null, 2)}\n`;
export const tickerQuoteJson = json({
  mode: 'quote',
  tradable: true,
  instrument_token: 408065,
  last_price: 1573.15,
  last_quantity: 1,
  average_price: 1570.33,
  volume: 1175986,
  buy_quantity: 256511,
  sell_quantity: 360503,
  ohlc,
});
const level = (price: number, quantity: number, orders: number) => ({ price, quantity, orders });
export const tickerFullJson = json({
  mode: 'full',
  tradable: true,
  instrument_token: 408065,
  last_price: 1573.7,
  last_quantity: 7,
  average_price: 1570.37,
  volume: 1192471,
  buy_quantity: 256443,
  sell_quantity: 363009,
  ohlc,
  last_trade_time: '2021-07-05T10:41:27+05:30',
  oi: 0,
  oi_day_high: 0,
  oi_day_low: 0,
  timestamp: '2021-07-05T10:41:27+05:30',
  depth: {
    buy: [
      level(1573.4, 5, 1),
      level(1573, 140, 2),
      level(1572.95, 2, 1),
      level(1572.9, 219, 7),
      level(1572.85, 50, 1),
    ],
    sell: [
      level(1573.7, 172, 3),
      level(1573.75, 44, 3),
      level(1573.85, 302, 3),
      level(1573.9, 141, 2),
      level(1573.95, 724, 5),
    ],
  },
});

export const kiteInstrumentsAll = () =>
  [
    'instrument_token,exchange_token,tradingsymbol,name,last_price,expiry,strike,tick_size,lot_size,instrument_type,segment,exchange',
    '3813889,14898,CENTRALBK-BE,CENTRAL BANK OF INDIA,0.0,,0.0,0.05,1,EQ,NSE,NSE',
    '3861249,15083,ADANIPORTS,ADANI PORT & SEZ,0.0,,0.0,0.05,1,EQ,NSE,NSE',
    '12073986,47164,BANKNIFTY18JAN23500CE,,2528.4,2018-01-25,23500.0,0.05,40,CE,NFO-OPT,NFO',
    '136483588,533139,FFTF16BGR,FORTIS FIXED TERM FUND - SERIE,0.0,,0.0,0.01,1,EQ,BSE,BSE',
    '',
  ].join('\r\n');
