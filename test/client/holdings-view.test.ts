import { aggregateHoldings } from '@app/common/portfolio/aggregate';
import { expect } from 'chai';
import { ApiError, NETWORK_ERROR_MESSAGE, TIMEOUT_MESSAGE } from '../../client/src/api/errors.ts';
import {
  accountName,
  accountOptions,
  DEFAULT_SORT,
  filterHoldings,
  holdingsLoadError,
  isInlineEditable,
  nextSort,
  snapshotQuotes,
  type ApiHolding,
} from '../../client/src/routes/holdings/holdingsView.ts';

const holding = (over: Partial<ApiHolding>): ApiHolding => ({
  id: 'h1',
  symbol: 'SBIN',
  exchange: 'NSE',
  company_name: 'State Bank of India',
  quantity: 10,
  average_price: 900,
  current_price: null,
  broker_account_id: 'acc-1',
  broker_name: 'Zerodha',
  broker_type: 'CSV_IMPORT',
  account_label: 'AB1234',
  ...over,
});

describe('client: holdings page helpers', () => {
  const list = [
    holding({}),
    holding({
      id: 'h2',
      symbol: 'TCS',
      company_name: 'Tata Consultancy Services',
      broker_account_id: 'acc-2',
      broker_name: 'Manual',
      broker_type: 'USER_ADDED',
      account_label: '',
    }),
    holding({ id: 'h3', symbol: 'INFY', company_name: 'Infosys Limited' }),
  ];

  it('names accounts as broker · label', () => {
    expect(accountName(list[0]!)).to.equal('Zerodha · AB1234');
    expect(accountName(list[1]!)).to.equal('Manual');
    expect(accountOptions(list)).to.deep.equal([
      { id: 'acc-2', name: 'Manual' },
      { id: 'acc-1', name: 'Zerodha · AB1234' },
    ]);
  });

  it('filters by symbol or company name and by account', () => {
    expect(filterHoldings(list, '', '').map((h) => h.symbol)).to.deep.equal(['SBIN', 'TCS', 'INFY']);
    expect(filterHoldings(list, 'tata', '').map((h) => h.symbol)).to.deep.equal(['TCS']);
    expect(filterHoldings(list, ' inf ', '').map((h) => h.symbol)).to.deep.equal(['INFY']);
    expect(filterHoldings(list, '', 'acc-1').map((h) => h.symbol)).to.deep.equal(['SBIN', 'INFY']);
    expect(filterHoldings(list, 'tcs', 'acc-1')).to.deep.equal([]);
  });

  it('seeds live quotes only from holdings that carry a priced quote', () => {
    const quotes = snapshotQuotes([
      holding({ current_price: 1020, prev_close: 1000, quote_as_of: '2026-08-03T10:00:00.000Z' }),
      holding({
        id: 'h2',
        symbol: 'TCS',
        current_price: '3400' as unknown as number,
        prev_close: null,
        quote_as_of: '2026-08-03T10:00:00.000Z',
      }),
      holding({ id: 'h3', symbol: 'INFY' }),
    ]);
    expect(quotes).to.have.length(2);
    expect(quotes[0]).to.deep.include({
      symbol: 'SBIN',
      ltp: 1020,
      prevClose: 1000,
      change: 20,
      changePercent: 2,
    });
    expect(quotes[0]!.asOf).to.equal(Date.parse('2026-08-03T10:00:00.000Z'));
    expect(quotes[1]).to.deep.include({ symbol: 'TCS', ltp: 3400, prevClose: null, change: null });
  });

  it("rounds a seeded quote's change to paise, as a tick batch carries it", () => {
    const [quote] = snapshotQuotes([
      holding({ current_price: 100.015, prev_close: 100, quote_as_of: '2026-08-03T10:00:00.000Z' }),
    ]);
    expect(quote).to.deep.include({ change: 0.02, changePercent: 0.02 });
  });

  it('edits in place only a manually added holding held in one account', () => {
    const [sbin, tcs] = aggregateHoldings(list);
    expect(isInlineEditable(tcs!)).to.equal(true);
    expect(isInlineEditable(sbin!)).to.equal(false);
    const twoAccounts = aggregateHoldings([
      holding({ id: 'a', broker_type: 'USER_ADDED' }),
      holding({ id: 'b', broker_account_id: 'acc-9', broker_type: 'USER_ADDED' }),
    ]);
    expect(isInlineEditable(twoAccounts[0]!)).to.equal(false);
  });

  it('sorts by symbol ascending first; the active column flips, another starts ascending', () => {
    expect(DEFAULT_SORT).to.deep.equal({ field: 'symbol', direction: 'asc' });
    const flipped = nextSort(DEFAULT_SORT, 'symbol');
    expect(flipped).to.deep.equal({ field: 'symbol', direction: 'desc' });
    expect(nextSort(flipped, 'total_pnl')).to.deep.equal({ field: 'total_pnl', direction: 'asc' });
  });

  it('words load failures: the server, an HTTP status, no answer, anything else', () => {
    expect(holdingsLoadError(new ApiError(0, NETWORK_ERROR_MESSAGE))).to.equal(
      'Network error: Unable to connect to server',
    );
    expect(holdingsLoadError(new ApiError(503, 'Database unavailable', { fromServer: true }))).to.equal(
      'Network error: 503 - Database unavailable',
    );
    expect(holdingsLoadError(new ApiError(200, 'Quota exceeded', { fromServer: true }))).to.equal(
      'Failed to fetch holdings: Quota exceeded',
    );
    expect(holdingsLoadError(new ApiError(200, 'Unknown error'))).to.equal(
      'Failed to fetch holdings: Unknown error',
    );
    expect(holdingsLoadError(new ApiError(0, TIMEOUT_MESSAGE))).to.equal(`Error: ${TIMEOUT_MESSAGE}`);
    expect(holdingsLoadError(new TypeError('x is undefined'))).to.equal('Error: x is undefined');
  });
});
