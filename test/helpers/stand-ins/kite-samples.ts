/**
 * Stand-ins for Kite Connect's sample answers in `data/samples/kite/` (zerodha/kiteconnect-mocks
 * `generate_session.json` and `holdings.json`), with the fields the fake and the app read.
 */

const json = (value: unknown) => () => `${JSON.stringify(value, null, 4)}\n`;

export const kiteGenerateSession = json({
  status: 'success',
  data: {
    user_type: 'individual',
    email: 'XXXXXX',
    user_name: 'Kite Connect',
    user_shortname: 'Connect',
    broker: 'ZERODHA',
    user_id: 'XX0000',
    api_key: 'XXXXXX',
    access_token: 'XXXXXX',
    public_token: 'XXXXXXXX',
    refresh_token: '',
    login_time: '2021-01-01 16:15:14',
  },
});

const row = (r: {
  tradingsymbol: string;
  exchange: string;
  isin: string;
  quantity: number;
  average_price: number;
}) => ({
  ...r,
  instrument_token: 0,
  product: 'CNC',
  price: 0,
  used_quantity: 0,
  t1_quantity: 0,
  realised_quantity: r.quantity,
  opening_quantity: r.quantity,
  collateral_quantity: 0,
  collateral_type: '',
  discrepancy: false,
  last_price: 0,
  close_price: 0,
  pnl: 0,
});

export const kiteHoldingsAnswer = json({
  status: 'success',
  data: [
    row({ tradingsymbol: 'AARON', exchange: 'NSE', isin: 'INE721Z01010', quantity: 1, average_price: 161 }),
    row({
      tradingsymbol: 'SBIN',
      exchange: 'BSE',
      isin: 'INE062A01020',
      quantity: 16,
      average_price: 801.78125,
    }),
  ],
});
