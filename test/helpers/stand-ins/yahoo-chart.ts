/**
 * Stand-in for yahoo-finance2's recorded `chart` answer for NVDA, 1 Feb 2021 to 31 Jan 2022
 * (`data/samples/yahoo/historical-via-chart-NVDA-split-2021-02-01-to-2022-01-31.csv.json`): the
 * recording's layout (`request`, `response.bodyJson`) with its meta, its 4:1 split of 20 Jul
 * 2021 and nine of its rows around it (13 to 23 Jul 2021), the values copied from the recording.
 */
const TIMESTAMPS = [
  1626183000, 1626269400, 1626355800, 1626442200, 1626701400, 1626787800, 1626874200, 1626960600, 1627047000,
];
/** The rows as the recording's JSON writes them (text: ESLint refuses some of these 17-digit literals). */
const ROWS = [
  '"open": [20.40049934387207,20.357749938964844,19.811750411987305,19.030500411987305,17.915250778198242,18.729999542236328,18.881999969482422,19.642000198364258,19.6560001373291]',
  '"high": [20.46125030517578,20.417749404907227,19.847000122070312,19.156999588012695,19.04199981689453,18.83799934387207,19.527000427246094,19.886999130249023,19.700000762939453]',
  '"low": [20.11400032043457,19.752750396728516,18.85849952697754,18.072999954223633,17.86549949645996,18.163999557495117,18.742000579833984,19.275999069213867,19.25]',
  '"close": [20.25,19.84149932861328,18.966249465942383,18.160999298095703,18.77975082397461,18.61199951171875,19.40999984741211,19.5939998626709,19.558000564575195]',
  '"volume": [290708000,380100000,550564000,688224000,749060000,434687000,371017000,323826000,195672000]',
];
const QUOTE = JSON.parse(`{${ROWS.join(',')}}`) as Record<
  'open' | 'high' | 'low' | 'close' | 'volume',
  number[]
>;

export function nvdaSplitChart(): string {
  const meta = {
    currency: 'USD',
    symbol: 'NVDA',
    exchangeName: 'NMS',
    fullExchangeName: 'NasdaqGS',
    instrumentType: 'EQUITY',
    firstTradeDate: 917015400,
    regularMarketTime: 1740171601,
    hasPrePostMarketData: true,
    gmtoffset: -18000,
    timezone: 'EST',
    exchangeTimezoneName: 'America/New_York',
    regularMarketPrice: 134.43,
    chartPreviousClose: 12.99,
    priceHint: 2,
    dataGranularity: '1d',
    range: '',
  };
  const result = {
    meta,
    timestamp: TIMESTAMPS,
    events: {
      splits: { '1626787800': { date: 1626787800, numerator: 4, denominator: 1, splitRatio: '4:1' } },
    },
    indicators: { quote: [QUOTE], adjclose: [{ adjclose: QUOTE.close }] },
  };
  return JSON.stringify({
    request: {
      url: 'https://query2.finance.yahoo.com/v8/finance/chart/NVDA?useYfid=true&interval=1d&includePrePost=true&events=split&lang=en-US&period1=1612137600&period2=1643587200',
      method: 'GET',
    },
    response: { ok: true, status: 200, bodyJson: { chart: { result: [result], error: null } } },
  });
}
