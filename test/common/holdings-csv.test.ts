import { expect } from 'chai';
import { parseCsv, stripBom } from '../../common/src/holdings/csv.ts';
import { parseBrokerNumber, parseDecimal } from '../../common/src/holdings/numbers.ts';
import { cleanBrokerSymbol } from '../../common/src/holdings/rows.ts';

describe('CSV tokenizer', () => {
  it('splits plain rows on LF and CRLF without an extra trailing row', () => {
    expect(parseCsv('a,b\r\nc,d\n')).to.deep.equal([
      ['a', 'b'],
      ['c', 'd'],
    ]);
    expect(parseCsv('a,b\rc,d')).to.deep.equal([
      ['a', 'b'],
      ['c', 'd'],
    ]);
  });

  it('keeps commas, escaped quotes and line breaks inside quoted fields', () => {
    const text = '"Name","Note"\n"Oil, Gas ""Ltd""","line one\r\nline two"\n';
    expect(parseCsv(text)).to.deep.equal([
      ['Name', 'Note'],
      ['Oil, Gas "Ltd"', 'line one\r\nline two'],
    ]);
  });

  it('strips a UTF-8 byte-order mark before the first quoted header', () => {
    expect(parseCsv('\uFEFF"Name",Qty\nX,1')[0]).to.deep.equal(['Name', 'Qty']);
    expect(stripBom('\uFEFFabc')).to.equal('abc');
  });

  it('keeps empty cells, including a trailing comma', () => {
    expect(parseCsv('a,,b,\n,,,')).to.deep.equal([
      ['a', '', 'b', ''],
      ['', '', '', ''],
    ]);
    expect(parseCsv('""')).to.deep.equal([['']]);
  });

  it('is lenient with a quote inside an unquoted field', () => {
    expect(parseCsv('5" pipe,1')).to.deep.equal([['5" pipe', '1']]);
  });
});

describe('broker numbers', () => {
  it('reads Indian digit grouping, rupee and percent signs', () => {
    expect(parseBrokerNumber('6,42,438.00')).to.equal(642438);
    expect(parseBrokerNumber('₹ 1,245.50')).to.equal(1245.5);
    expect(parseBrokerNumber('Rs. 99')).to.equal(99);
    expect(parseBrokerNumber('-10.08%')).to.equal(-10.08);
  });

  it('reads signs and accounting negatives', () => {
    expect(parseBrokerNumber('+1,200')).to.equal(1200);
    expect(parseBrokerNumber('\u221212.5')).to.equal(-12.5);
    expect(parseBrokerNumber('(1,234.50)')).to.equal(-1234.5);
  });

  it('gives NaN for empty or non-numeric text', () => {
    expect(parseBrokerNumber('')).to.be.NaN;
    expect(parseBrokerNumber('12abc')).to.be.NaN;
    expect(parseDecimal('1,000')).to.be.NaN;
    expect(parseDecimal(' 12.50 ')).to.equal(12.5);
  });
});

describe('broker symbols', () => {
  it('upper-cases and drops NSE series suffixes but keeps real hyphens', () => {
    expect(cleanBrokerSymbol(' idea-be ')).to.equal('IDEA');
    expect(cleanBrokerSymbol('RELIANCE-EQ')).to.equal('RELIANCE');
    expect(cleanBrokerSymbol('SIMCA-ST')).to.equal('SIMCA');
    expect(cleanBrokerSymbol('BAJAJ-AUTO')).to.equal('BAJAJ-AUTO');
    expect(cleanBrokerSymbol('M&M')).to.equal('M&M');
  });
});
