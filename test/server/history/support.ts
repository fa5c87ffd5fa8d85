/**
 * Bhavcopy files made for the tests in the exchanges' UDiFF layout (header and columns as
 * docs/history.md#formats lists them; the FLAIR row is NSE's own of
 * 15 Oct 2024), and the paths of the real older-layout samples.
 */
export const NSE_LEGACY_SAMPLE = 'data/samples/bhavcopy/cm01APR2019bhav.csv';
export const BSE_LEGACY_SAMPLE = 'data/samples/bhavcopy/EQ100719.CSV';

export const UDIFF_HEADER =
  'TradDt,BizDt,Sgmt,Src,FinInstrmTp,FinInstrmId,ISIN,TckrSymb,SctySrs,XpryDt,FininstrmActlXpryDt,StrkPric,OptnTp,FinInstrmNm,OpnPric,HghPric,LwPric,ClsPric,LastPric,PrvsClsgPric,UndrlygPric,SttlmPric,OpnIntrst,ChngInOpnIntrst,TtlTradgVol,TtlTrfVal,TtlNbOfTxsExctd,SsnId,NewBrdLotQty,Rmks,Rsvd1,Rsvd2,Rsvd3,Rsvd4';

export interface UdiffRow {
  date: string;
  src?: 'NSE' | 'BSE';
  type?: string;
  id: string;
  isin: string;
  symbol: string;
  series: string;
  name?: string;
  ohlc: [number | string, number | string, number | string, number | string];
  volume: number | string;
}

/** One UDiFF line: the columns the readers use filled, the rest as the exchanges leave them. */
export function udiffLine(r: UdiffRow): string {
  const [o, h, l, c] = r.ohlc;
  return [
    r.date,
    r.date,
    'CM',
    r.src ?? 'NSE',
    r.type ?? 'STK',
    r.id,
    r.isin,
    r.symbol,
    r.series,
    '',
    '',
    '',
    '',
    r.name ?? r.symbol,
    o,
    h,
    l,
    c,
    c,
    o,
    '',
    c,
    '',
    '',
    r.volume,
    '1000.00',
    '10',
    'F1',
    '1',
    '',
    '',
    '',
    '',
    '',
  ].join(',');
}

/** NSE's own FLAIR row of 15 Oct 2024, as published. */
export const FLAIR_ROW =
  '2024-10-15,2024-10-15,CM,NSE,STK,20372,INE00Y201027,FLAIR,EQ,,,,,FLAIR WRITING INDUST LTD,296.15,300.10,293.75,295.95,298.85,296.15,,296.00,,,34968,10365770.00,1404,F1,1,,,,,';

/** A made NSE UDiFF line: RELIANCE in the EQ series on 15 Oct 2024 (closed 2744.35 on 5,021,334 shares). */
export const RELIANCE_ROW = udiffLine({
  date: '2024-10-15',
  id: '2885',
  isin: 'INE002A01018',
  symbol: 'RELIANCE',
  series: 'EQ',
  ohlc: [2740, 2755.5, 2731, 2744.35],
  volume: 5021334,
});

/** A UDiFF file of `rows` lines (after the header), CRLF as the exchanges write it. */
export function udiffFile(rows: string[]): string {
  return [UDIFF_HEADER, ...rows, ''].join('\r\n');
}
