import {
  adjustmentNote,
  BcFileError,
  bcDate,
  holdingNotice,
  parseBcFile,
  readPurpose,
} from '@app/common/corporate-actions/index';
import { expect } from 'chai';
import { readShared } from '../helpers/shared-data.ts';

describe('corporate actions: PURPOSE texts and the bc file', () => {
  it('reads the real bc rows: bonus and splits with their ratios, notices, no debt or dividends', () => {
    const { actions, ignored } = parseBcFile(readShared('data/bc16122025_equity_rows.csv'));
    const brief = actions.map((a) => `${a.symbol} ${a.exDate} ${a.kind} ${a.ratio ?? '-'}`);
    expect(brief).to.deep.equal([
      'DCMSRIND 2025-12-19 DEMERGER -',
      'ECLERX 2025-12-17 BUYBACK -',
      'KMEW 2025-12-22 SPLIT 2',
      'KRISHIVAL 2025-12-17 RIGHTS -',
      'LALPATHLAB 2025-12-19 BONUS 2',
      'NECLIFE 2025-12-24 BUYBACK -',
      'NUVAMA 2025-12-26 SPLIT 5',
    ]);
    // Capital reduction (2 series), dividends (CANFINHOME ×2, GML ×2, IOC ×2).
    expect(ignored).to.equal(8);
    expect(actions.find((a) => a.symbol === 'LALPATHLAB')).to.deep.include({
      exchange: 'NSE',
      security: 'Dr. Lal Path Labs Ltd.',
      purpose: 'BONUS 1:1',
      recordDate: '2025-12-19',
    });
  });

  it('is liberal in the spellings it accepts', () => {
    const read = (text: string) => readPurpose(text).map((e) => [e.kind, e.ratio, e.terms]);
    expect(read('BONUS 2:1')).to.deep.equal([['BONUS', 3, '2:1 bonus']]);
    expect(read('BONUS 1:2')).to.deep.equal([['BONUS', 1.5, '1:2 bonus']]);
    expect(read('BONUS- 1:2')).to.deep.equal([['BONUS', 1.5, '1:2 bonus']]);
    expect(read('BON-1:1')).to.deep.equal([['BONUS', 2, '1:1 bonus']]);
    expect(read('Bonus issue in the ratio of 3:2')).to.deep.equal([['BONUS', 2.5, '3:2 bonus']]);
    expect(read('FVSPLT FRM RS 10 TO RS 5')).to.deep.equal([['SPLIT', 2, 'split from ₹10 to ₹5']]);
    expect(read('FV SPLT FRM RS 10 TO RS 2')).to.deep.equal([['SPLIT', 5, 'split from ₹10 to ₹2']]);
    expect(read('FV SPLIT RS.10 TO RE.1')).to.deep.equal([['SPLIT', 10, 'split from ₹10 to ₹1']]);
    expect(read('FVSPLT FRMRS 100 TO RE 1')).to.deep.equal([['SPLIT', 100, 'split from ₹100 to ₹1']]);
    expect(
      read('FACE VALUE SPLIT (SUB-DIVISION) - FROM RS 10/- PER SHARE TO RE 1/- PER SHARE'),
    ).to.deep.equal([['SPLIT', 10, 'split from ₹10 to ₹1']]);
    expect(read('BONUS1:2/FVSPLIT10TO2')).to.deep.equal([
      ['BONUS', 1.5, '1:2 bonus'],
      ['SPLIT', 5, 'split from ₹10 to ₹2'],
    ]);
    expect(read('RIGHTS 45:301@PRM RS 290')).to.deep.equal([['RIGHTS', null, 'rights issue 45:301']]);
    expect(read('SCHEME OF ARRANGEMENT')).to.deep.equal([['DEMERGER', null, 'demerger']]);
    expect(read('INTDIV - RS 7 PER SH')).to.deep.equal([]);
    expect(read('BONUS')).to.deep.equal([]);
  });

  it('reads the date spellings of older files and refuses impossible dates', () => {
    expect(bcDate('2025-12-19')).to.equal('2025-12-19');
    expect(bcDate('19-Dec-2025')).to.equal('2025-12-19');
    expect(bcDate('19/12/2025')).to.equal('2025-12-19');
    expect(bcDate('31-Feb-2025')).to.equal(null);
    expect(bcDate('')).to.equal(null);
  });

  it('refuses a file without the columns it needs, naming them', () => {
    expect(() => parseBcFile('SYMBOL,SERIES\nINFY,EQ\n')).to.throw(BcFileError, 'no EX_DT, PURPOSE column');
  });

  it('words the rule note and the holding notices', () => {
    const bonus = { kind: 'BONUS' as const, purpose: 'BONUS 1:1', ex_date: '2025-12-19' };
    expect(adjustmentNote(bonus)).to.equal('adjusted for 1:1 bonus on 19 Dec 2025');
    expect(holdingNotice({ ...bonus, applied_at: '2025-12-18T18:35:00.000Z' }, { manual: false })).to.equal(
      "1:1 bonus on 19 Dec 2025: your rule levels are adjusted; the quantity and buy price will change with your broker's next holdings file.",
    );
    expect(holdingNotice({ ...bonus, applied_at: null }, { manual: true })).to.equal(
      '1:1 bonus, ex-date 19 Dec 2025: your rule levels, quantity and buy price will be adjusted that morning.',
    );
    const rights = { kind: 'RIGHTS' as const, purpose: 'RIGHTS 45:301@PRM RS 290', ex_date: '2025-12-17' };
    expect(holdingNotice(rights, { manual: true })).to.equal(
      'Rights issue 45:301, ex-date 17 Dec 2025: your rule levels are unchanged. Check whether it changes what you hold.',
    );
  });
});
