/** Stand-ins for the DhanHQ-py test fixtures in `data/samples/dhan/` (the SDK's wrapped answers). */

const json = (value: unknown) => () => `${JSON.stringify(value, null, 2)}\n`;

/** `tests/data/get-current-holdings.json`: the SDK's envelope around the wire's bare array. */
export const dhanCurrentHoldings = json({
  status: 'success',
  remarks: '',
  data: [
    {
      exchange: 'NSE',
      tradingSymbol: 'string',
      securityId: 'string',
      isin: 'string',
      totalQty: 0,
      dpQty: 0,
      t1Qty: 0,
      availableQty: 0,
      collateralQty: 0,
      avgCostPrice: 0,
      lastTradedPrice: 0,
    },
  ],
});

/** `tests/data/market_feed_ticker.json`: how the SDK prints one ticker packet. */
export const dhanMarketFeedTicker = json({
  type: 'Ticker Data',
  exchange_segment: 'NSE_EQ',
  security_id: '1333',
  last_price: 1500.0,
  last_quantity: 10,
  last_trade_time: '10:30:00',
});
