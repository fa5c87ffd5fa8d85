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
