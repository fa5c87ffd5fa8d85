/**
 * The four bhavcopy layouts read by their headers (docs/history.md#formats): NSE's and BSE's
 * older files on the real samples (stand-ins without ../shared), the UDiFF files on NSE's own
 * FLAIR row and made rows, zipped or not; and each file that must change nothing, with its one
 * sentence.
 */
import { expect } from 'chai';
import { strToU8, zipSync } from 'fflate';
import { readBhavcopy } from '../../../server/src/history/bhavcopy.ts';
import { loadOrder } from '../../../server/src/history/files.ts';
import { BhavcopyError } from '../../../server/src/history/table.ts';
import { readSharedBytes, sharedDataPresent } from '../../helpers/shared-data.ts';
import {
  BSE_LEGACY_SAMPLE,
  FLAIR_ROW,
  NSE_LEGACY_SAMPLE,
  RELIANCE_ROW,
  udiffFile,
  udiffLine,
} from './support.ts';

const refusal = (name: string, text: string | Uint8Array) => {
  try {
    readBhavcopy(name, typeof text === 'string' ? strToU8(text) : text);
  } catch (err) {
    expect(err).to.be.instanceOf(BhavcopyError);
    return (err as Error).message;
  }
  throw new Error(`${name} was read`);
};

describe('history: reading bhavcopy files', () => {
  it("reads NSE's cmDDMONYYYYbhav.csv: the day, one row per symbol of the equity series, as printed", () => {
    const copy = readBhavcopy('cm01APR2019bhav.csv', readSharedBytes(NSE_LEGACY_SAMPLE));
    expect(copy).to.include({
      exchange: 'NSE',
      date: '2019-04-01',
      title: 'NSE bhavcopy (cmDDMONYYYYbhav.csv)',
    });
    // 1,479 EQ + 157 BE + 42 BZ + 81 SM + 1 ST rows in the real file; the bonds and debt left out.
    expect(copy.rows).to.have.length(sharedDataPresent ? 1760 : 10);
    const byKey = new Map(copy.rows.map((r) => [r.key, r]));
    expect(byKey.get('20MICRONS')).to.deep.equal({
      key: '20MICRONS',
      isin: 'INE144J01027',
      open: '39.45',
      high: '40.55',
      low: '38.05',
      close: '40.15',
      volume: '70139',
    });
    expect(byKey.get('INFY')).to.include({ open: '742', close: '755.1', volume: '6584982' });
    expect(byKey.get('ABAN'), 'trade-for-trade (BE)').to.include({ close: '58.8' });
    expect(byKey.get('AARON'), 'SME (SM)').to.include({ close: '47.8' });
    expect(byKey.has('1003GS2019'), 'a government bond').to.equal(false);
  });

  it("reads BSE's EQDDMMYY.CSV: the day from the name, equity (Q) rows by scrip code", () => {
    const copy = readBhavcopy('EQ100719.CSV', readSharedBytes(BSE_LEGACY_SAMPLE));
    expect(copy).to.include({ exchange: 'BSE', date: '2019-07-10' });
    // 2,595 of the real file's 2,783 rows are equity shares (Q); debt (D), bonds (B) and the rest are not.
    expect(copy.rows).to.have.length(sharedDataPresent ? 2595 : 5);
    const byKey = new Map(copy.rows.map((r) => [r.key, r]));
    expect(byKey.get('500002')).to.deep.equal({
      key: '500002',
      isin: null,
      open: '1539.95',
      high: '1548.00',
      low: '1485.90',
      close: '1514.00',
      volume: '5276',
    });
    expect(byKey.get('500209')).to.include({ close: '716.90', volume: '230925' });
    expect(byKey.has('934784'), 'a debenture (D)').to.equal(false);
  });

  it("reads NSE's UDiFF file, plain or zipped as NSE publishes it, one row per symbol (EQ before BE)", () => {
    const text = udiffFile([
      FLAIR_ROW,
      RELIANCE_ROW,
      udiffLine({
        date: '2024-10-15',
        id: '2885',
        isin: 'INE002A01018',
        symbol: 'RELIANCE',
        series: 'BL',
        ohlc: [2741, 2741, 2741, 2741],
        volume: 100000,
      }),
      udiffLine({
        date: '2024-10-15',
        id: '9',
        isin: 'INE123X01011',
        symbol: 'TWOSERIES',
        series: 'BE',
        ohlc: [11, 12, 10, 11.5],
        volume: 300,
      }),
      udiffLine({
        date: '2024-10-15',
        id: '9',
        isin: 'INE123X01011',
        symbol: 'TWOSERIES',
        series: 'EQ',
        ohlc: [10, 12, 10, 11],
        volume: 200,
      }),
      udiffLine({
        date: '2024-10-15',
        id: '7',
        isin: 'IN0020230085',
        symbol: '718GS2033',
        series: 'GS',
        ohlc: [100, 100, 100, 100],
        volume: 5,
      }),
    ]);
    const name = 'BhavCopy_NSE_CM_0_0_0_20241015_F_0000.csv';
    const plain = readBhavcopy(name, strToU8(text));
    const zipped = readBhavcopy(`${name}.zip`, zipSync({ [name]: strToU8(text) }));
    expect(zipped.rows).to.deep.equal(plain.rows);
    expect(plain).to.include({ exchange: 'NSE', date: '2024-10-15', title: 'NSE UDiFF bhavcopy' });
    expect(plain.rows.map((r) => `${r.key} ${r.close} ${r.volume}`).sort()).to.deep.equal([
      'FLAIR 295.95 34968',
      'RELIANCE 2744.35 5021334',
      'TWOSERIES 11 200',
    ]);
  });

  it("reads BSE's UDiFF file (Src BSE): scrip code and ISIN, every group", () => {
    const copy = readBhavcopy(
      'BhavCopy_BSE_CM_0_0_0_20241015_F_0000.CSV',
      strToU8(
        udiffFile([
          udiffLine({
            date: '2024-10-15',
            src: 'BSE',
            id: '500002',
            isin: 'INE117A01022',
            symbol: 'ABB',
            series: 'A',
            ohlc: [7400, 7450, 7300, 7420.5],
            volume: 8123,
          }),
          udiffLine({
            date: '2024-10-15',
            src: 'BSE',
            id: '543272',
            isin: 'INE0BWS01014',
            symbol: 'ICONIKSPEV',
            series: 'M',
            ohlc: [44.99, 44.99, 42.31, 43.09],
            volume: 5757,
          }),
          udiffLine({
            date: '2024-10-15',
            src: 'BSE',
            type: 'BON',
            id: '959999',
            isin: 'INE999X07011',
            symbol: 'NCD',
            series: 'F',
            ohlc: [1000, 1000, 1000, 1000],
            volume: 1,
          }),
        ]),
      ),
    );
    expect(copy).to.include({ exchange: 'BSE', date: '2024-10-15', title: 'BSE UDiFF bhavcopy' });
    expect(copy.rows.map((r) => `${r.key} ${r.isin} ${r.close}`)).to.deep.equal([
      '500002 INE117A01022 7420.5',
      '543272 INE0BWS01014 43.09',
    ]);
  });

  it('refuses a file with a header that is not a bhavcopy’s, saying so', () => {
    expect(refusal('holdings.csv', 'Symbol,Qty,Avg\nINFY,10,1500\n')).to.equal(
      'its header is not a bhavcopy\'s (it starts "SYMBOL,QTY,AVG")',
    );
  });

  it('refuses a truncated file: a header and no rows, or a row cut short', () => {
    expect(
      refusal(
        'cm01APR2019bhav.csv',
        'SYMBOL,SERIES,OPEN,HIGH,LOW,CLOSE,LAST,PREVCLOSE,TOTTRDQTY,TOTTRDVAL,TIMESTAMP,TOTALTRADES,ISIN,\n',
      ),
    ).to.equal('it has a header but no rows: it looks cut short');
    const real = new TextDecoder().decode(readSharedBytes(NSE_LEGACY_SAMPLE));
    const cut = real.slice(0, real.indexOf('\n', real.indexOf('INFY,EQ')) - 40);
    expect(refusal('cm01APR2019bhav.csv', cut)).to.match(
      /^line \d+ has \d+ of the 13 columns: the file looks cut short$/,
    );
    expect(refusal('x.csv', udiffFile([FLAIR_ROW.slice(0, 60)]))).to.equal(
      'line 2 has 9 of the 34 columns: the file looks cut short',
    );
  });

  it('refuses a file for a day the market was shut: a holiday, a weekend', () => {
    const holi = udiffFile([FLAIR_ROW.replaceAll('2024-10-15', '2025-03-14')]);
    expect(refusal('BhavCopy_NSE_CM_0_0_0_20250314_F_0000.csv', holi)).to.equal(
      'it is dated 14 Mar 2025, a market holiday (Holi), when the market did not trade',
    );
    const sunday = new TextDecoder()
      .decode(readSharedBytes(NSE_LEGACY_SAMPLE))
      .replaceAll('01-APR-2019', '31-MAR-2019');
    expect(refusal('cm31MAR2019bhav.csv', sunday)).to.equal(
      'it is dated 31 Mar 2019, a Sunday, when the market did not trade',
    );
    expect(refusal('EQ130719.CSV', readSharedBytes(BSE_LEGACY_SAMPLE))).to.equal(
      'it is dated 13 Jul 2019, a Saturday, when the market did not trade',
    );
  });

  it('refuses a price that is not a number, naming the line', () => {
    const text = udiffFile([FLAIR_ROW.replace('295.95', '-')]);
    expect(refusal('x.csv', text)).to.equal('line 2 (FLAIR) has close "-", not a price');
  });

  it('loads files oldest day first, whatever their names’ layout', () => {
    expect(
      loadOrder([
        '/d/BhavCopy_NSE_CM_0_0_0_20241015_F_0000.csv.zip',
        '/d/EQ100719.CSV',
        '/d/cm01APR2019bhav.csv',
        '/d/notes.csv',
        '/d/BhavCopy_BSE_CM_0_0_0_20240708_F_0000.CSV',
      ]),
    ).to.deep.equal([
      '/d/cm01APR2019bhav.csv',
      '/d/EQ100719.CSV',
      '/d/BhavCopy_BSE_CM_0_0_0_20240708_F_0000.CSV',
      '/d/BhavCopy_NSE_CM_0_0_0_20241015_F_0000.csv.zip',
      '/d/notes.csv',
    ]);
  });
});
