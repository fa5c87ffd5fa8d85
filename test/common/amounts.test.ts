import { expect } from 'chai';
import { amountProblem } from '../../common/src/api/numbers.ts';
import { validateInlineEdit, validateManualRows } from '../../common/src/holdings/manual.ts';
import { parseHoldingsCsv } from '../../common/src/holdings/import.ts';
import { validateRuleDraft } from '../../common/src/rules/draft.ts';

/** The client's own checks refuse what the columns cannot keep, with the server's sentences. */
describe('stored amounts: one domain for forms, files and the API', () => {
  it('knows the NUMERIC(18,4) range: at least 0.0001 and below 10^14', () => {
    expect(amountProblem(0.0001)).to.equal(null);
    expect(amountProblem(99_999_999_999_999.98)).to.equal(null);
    expect(amountProblem(0.00009)).to.equal('tooSmall');
    expect(amountProblem(1e-20)).to.equal('tooSmall');
    expect(amountProblem(1e14)).to.equal('tooLarge');
    expect(amountProblem(1e308)).to.equal('tooLarge');
    for (const bad of [0, -1, Number.NaN, Number.POSITIVE_INFINITY])
      expect(amountProblem(bad)).to.equal('notPositive');
  });

  it('the manual entry form and inline edit refuse them, and hex or exponent text; a quantity below one share is a fraction', () => {
    const rows = [
      { symbol: 'ITC', exchange: 'NSE', quantity: '0.00001', averagePrice: '100000000000000' },
      { symbol: 'TCS', exchange: 'NSE', quantity: '0x10', averagePrice: '1e3' },
    ];
    expect(validateManualRows(rows).errors).to.deep.equal([
      'Row 1: Quantity must be a whole number of shares',
      'Row 1: Buy price must be less than 10,00,00,00,00,00,000',
      'Row 2: Quantity must be a positive number',
      'Row 2: Buy price must be a positive number',
    ]);
    expect(validateInlineEdit('quantity', '0.00001', 5)).to.deep.equal({
      action: 'error',
      message: 'Quantity must be a whole number of shares',
    });
    expect(validateInlineEdit('average_price', '1e14', 5)).to.deep.equal({
      action: 'error',
      message: 'Buy price must be a positive number',
    });
  });

  it('the CSV reader refuses rows out of range with the row sentence', () => {
    const result = parseHoldingsCsv(
      'Symbol,Quantity,Buy Price\nITC,"10,00,00,00,00,00,000",400\nTCS,1,0.00001\n',
    );
    expect(result.ok).to.equal(false);
    if (result.ok) return;
    expect(result.details).to.deep.equal([
      'Row 1 (ITC): Invalid quantity - must be less than 10,00,00,00,00,00,000',
      'Row 2 (TCS): Invalid average price - must be at least 0.0001',
    ]);
  });

  it('a rule draft with a trigger value the column would store as 0 is refused', () => {
    const check = validateRuleDraft({
      triggerType: 'FIXED_STOP_LOSS',
      valueType: 'PERCENT',
      triggerValue: 0.00001,
      currentPrice: 100,
    });
    expect(check).to.deep.include({
      ok: false,
      problem: 'value',
      error: 'Trigger value must be at least 0.0001',
    });
  });
});
