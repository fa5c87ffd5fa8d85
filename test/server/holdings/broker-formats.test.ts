/**
 * Every broker layout of test/fixtures/brokers/ (README there: where each header row comes from)
 * through the server: POST /api/holdings/upload-csv on a fresh install (the shipped snapshot).
 */
import { readFileSync } from 'node:fs';
import { MUTUAL_FUND_REFUSAL, DEPOSITORY_REFUSAL } from '@app/common/holdings/formats';
import { expect } from 'chai';
import { appSuite } from '../../helpers/app.ts';
import { readShared } from '../../helpers/shared-data.ts';
import { signIn, type SignedInUser } from '../../helpers/users.ts';

const fixture = (name: string) =>
  readFileSync(new URL(`../../fixtures/brokers/${name}`, import.meta.url), 'utf8');

interface PreviewRow {
  line: number;
  symbol: string;
  exchange: string;
  quantity: number;
  average_price: number;
  known: boolean;
  renamed_from: string | null;
  note: string | null;
}
interface Preview {
  broker: string;
  broker_label: string;
  broker_name: string;
  account_label: string;
  rows: PreviewRow[];
  problems: string[];
}
interface Holding {
  symbol: string;
  exchange: string;
  quantity: number;
  average_price: number;
  broker_name: string;
}

describe('broker files through the server: layouts, exchanges, series suffixes, refusals', () => {
  const { app, api } = appSuite({ env: { DATABASE_URL: undefined } });
  let user: SignedInUser;
  before(async () => {
    user = await signIn(app);
  });

  const preview = async (csvData: string): Promise<Preview> => {
    const res = await api.post<{ preview: Preview }>(
      '/api/holdings/upload-csv',
      { csvData, dry_run: true },
      user.token,
    );
    expect(res.status, JSON.stringify(res.body)).to.equal(200);
    return res.body.data!.preview;
  };
  /** exchange:symbol, known?, of each previewed row. */
  const placed = (p: Preview) => p.rows.map((r) => `${r.exchange}:${r.symbol}${r.known ? '' : ' (unknown)'}`);
  const refusal = async (csvData: string) => {
    const res = await api.post('/api/holdings/upload-csv', { csvData }, user.token);
    expect(res.status).to.equal(400);
    return res.body.error;
  };

  it('Kite: drops any series suffix that leaves a listed symbol, keeps BAJAJ-AUTO and M&M, puts a BSE-only stock on BSE', async () => {
    const p = await preview(fixture('zerodha_kite_series_suffixes.csv'));
    expect(p.broker_label).to.equal('Zerodha (Kite)');
    expect(placed(p)).to.deep.equal([
      'NSE:RAJOOENG',
      'NSE:TATAGOLD',
      // LKPSEC is in neither list the product ships: kept as given, unknown.
      'NSE:LKPSEC-XT (unknown)',
      'NSE:EMPOWER',
      'NSE:IDEA',
      'NSE:BAJAJ-AUTO',
      'NSE:M&M',
      'BSE:QUESTCAP',
    ]);
    expect(p.rows[0]!.note).to.equal('Series suffix dropped: RAJOOENG-T');
    expect(p.problems).to.deep.equal([]);
  });

  it('Console: no exchange column, so a BSE-only stock lands on BSE; the ETF (INF… ISIN) still imports', async () => {
    const fresh = await signIn(app);
    const res = await api.post(
      '/api/holdings/upload-csv',
      { csvData: fixture('zerodha_console_equity_bse_only_layout.csv') },
      fresh.token,
    );
    expect(res.status, JSON.stringify(res.body)).to.equal(201);
    const list = (await api.get<Holding[]>('/api/holdings', fresh.token)).body.data!;
    // ARUNAHTEL's ISIN in the file is newer than the one in BSE's list: found by its symbol, on BSE.
    expect(list.map((h) => `${h.exchange}:${h.symbol}:${h.quantity}`).sort()).to.deep.equal([
      'BSE:ARUNAHTEL:150',
      'BSE:ATVPR:1000',
      'BSE:QUESTCAP:60',
      'NSE:ITC:40',
      'NSE:NIFTYBEES:50',
    ]);
    expect(list[0]!.broker_name).to.equal('Zerodha');
  });

  it('Console mutual-fund sheet, and a generic file of fund ISINs, are refused: mutual funds are not supported yet', async () => {
    expect(await refusal(fixture('zerodha_console_mutual_funds_layout.csv'))).to.equal(MUTUAL_FUND_REFUSAL);
    expect(await refusal(fixture('generic_mutual_fund_isins.csv'))).to.equal(MUTUAL_FUND_REFUSAL);
    expect(await refusal(fixture('generic_mutual_fund_schemes.csv'))).to.equal(MUTUAL_FUND_REFUSAL);
    expect(MUTUAL_FUND_REFUSAL).to.match(/mutual funds are not supported yet/);
  });

  it('a stock file with one unlisted fund row imports the stocks and names the fund row', async () => {
    const csv =
      'Symbol,ISIN,Quantity,Average Price\nITC,INE154A01025,10,400\nAXISBLUECHIP,INF846K01DP8,12.5,48.51\n';
    const p = await preview(csv);
    expect(placed(p)).to.deep.equal(['NSE:ITC']);
    expect(p.problems).to.deep.equal([
      'Row 2 (AXISBLUECHIP): this is a mutual fund; mutual funds are not supported yet',
    ]);
  });

  it('Angel One "Your Holding Details": client preamble, title row, Total Quantity, Avg Trading Price, Total row', async () => {
    const p = await preview(fixture('angel_one_your_holding_details_layout.csv'));
    expect(p).to.include({ broker: 'angel_one', broker_label: 'Angel One', broker_name: 'Angel One' });
    expect(p.account_label).to.equal('A1234567');
    expect(p.rows.map((r) => [r.exchange, r.symbol, r.quantity, r.average_price])).to.deep.equal([
      ['NSE', 'TCS', 4, 3420],
      ['BSE', 'QUESTCAP', 30, 288.4],
      ['NSE', 'TATAGOLD', 700, 9.85],
    ]);
  });

  it('Angel One with its header row repeated: the copy is not read as data', async () => {
    const p = await preview(fixture('angel_one_portfolio_repeated_header_layout.csv'));
    expect(p.broker_label).to.equal('Angel One');
    expect(p.account_label).to.equal('A7654321');
    expect(p.rows.map((r) => [r.line, r.symbol, r.quantity, r.average_price])).to.deep.equal([
      [1, 'ITC', 120, 412.3],
      [2, 'EMPOWER', 300, 3.2],
      [3, 'RAJOOENG', 40, 212.4],
    ]);
    expect(p.problems).to.deep.equal([]);
  });

  it('Angel One with a company name in Scrip/Contract ("HDFC Bank"): matched by name, not labelled a rename', async () => {
    const header =
      'Scrip/Contract,Company Name,ISIN,MarketCap,Sector,Total Quantity,Free Quantity,Blocked_qty,T1 Quantity,Pledged Quantity,Prev closing Price,Invested Value,Avg Trading Price,Market Value as of last trading day,Overall Gain/Loss';
    const rows = [
      'HDFC Bank,HDFC BANK LTD,INE040A01034,Large Cap,Bank,4,4,0,0,0,980.10,3920.40,980.10,4048.00,127.60',
      'HDFC Bank,,,Large Cap,Bank,2,2,0,0,0,980.10,1960.20,980.10,2024.00,63.80',
      'ZOMATO,ETERNAL LIMITED,,Large Cap,Retail,10,10,0,0,0,250.00,2500.00,250.00,2600.00,100.00',
    ];
    const p = await preview(['Client Name,Client ID', 'Test User,A1234567', header, ...rows].join('\n'));
    expect(p.rows.map((r) => [r.line, r.symbol, r.renamed_from])).to.deep.equal([
      [1, 'HDFCBANK', null],
      [2, 'HDFCBANK', null],
      [3, 'ETERNAL', 'ZOMATO'],
    ]);
  });

  it('HDFC Securities: Stock Name/Average Buy Price is HDFC Securities, not Groww; Groww keeps its name', async () => {
    const hdfc = await preview(fixture('hdfc_securities_stock_name_layout.csv'));
    expect(hdfc).to.include({
      broker: 'hdfc_securities',
      broker_label: 'HDFC Securities',
      broker_name: 'HDFC Securities',
    });
    expect(placed(hdfc)).to.deep.equal(['NSE:HDFCBANK', 'NSE:COALINDIA', 'BSE:QUESTCAP']);
    const groww = await preview(readShared('fixtures/brokers/groww_stocks_holdings_statement_layout.csv'));
    expect(groww.broker_label).to.equal('Groww');
  });

  it('HDFC Securities: Stock Symbol / Scrip Code with Qty and Buy Avg imports; a scrip code lands on BSE', async () => {
    const p = await preview(fixture('hdfc_securities_scrip_code.csv'));
    expect(p.broker_label).to.equal('HDFC Securities');
    expect(p.rows.map((r) => [r.exchange, r.symbol, r.quantity, r.average_price])).to.deep.equal([
      ['NSE', 'INFY', 8, 1512.4],
      ['BSE', 'RELIANCE', 10, 1245.6],
      ['NSE', 'IDEA', 100, 7.41],
    ]);
  });

  it('5paisa, Kotak Neo: detected by their headers, exchanges from the master', async () => {
    const fivePaisa = await preview(fixture('five_paisa_holdings.csv'));
    expect(fivePaisa).to.include({ broker_label: '5paisa', broker_name: '5paisa' });
    expect(placed(fivePaisa)).to.deep.equal(['NSE:SBIN', 'BSE:UTIQUE', 'NSE:NIFTYBEES']);
    const kotak = await preview(fixture('kotak_neo_holdings.csv'));
    expect(kotak).to.include({ broker_label: 'Kotak Neo', broker_name: 'Kotak Neo' });
    expect(placed(kotak)).to.deep.equal(['NSE:HDFCBANK', 'NSE:GOLDBEES', 'BSE:ATVPR']);
  });

  it("Upstox: the file's exchange is kept; a stock missing from the BSE list stays on BSE, unknown, and the preview says where it is listed", async () => {
    const p = await preview(fixture('upstox_holdings.csv'));
    expect(p.broker_label).to.equal('Upstox');
    expect(placed(p)).to.deep.equal(['NSE:RELIANCE', 'BSE:SBIN', 'BSE:IDEA (unknown)']);
    expect(p.rows[2]!.note).to.equal(
      'Not in the BSE list; kept on BSE as your file says (listed on NSE as IDEA)',
    );
  });

  it('an ISIN the BSE data lacks is not taken from NSE when the file says BSE', async () => {
    const csv = 'ISIN,Quantity,Buy Price,Exchange\nINE669E01016,100,7.41,BSE\nINE669E01016,50,7.5,\n';
    const p = await preview(csv);
    expect(placed(p)).to.deep.equal(['BSE:IDEA (unknown)', 'NSE:IDEA']);
  });

  it('CDSL and NSDL holding statements are refused: no buy prices, use the broker file', async () => {
    expect(await refusal(fixture('cdsl_statement_of_holdings.csv'))).to.equal(DEPOSITORY_REFUSAL);
    expect(await refusal(fixture('nsdl_holding_statement.csv'))).to.equal(DEPOSITORY_REFUSAL);
    expect(DEPOSITORY_REFUSAL).to.match(/no buy prices/);
  });
});
