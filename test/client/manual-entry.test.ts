import { validateManualRows } from '@app/common/holdings/manual';
import { expect } from 'chai';
import {
  canRemoveRow,
  describeAddFailures,
  DUPLICATE_HEADING,
  EXAMPLE_ROW,
  initialManualRows,
  isDuplicateFailure,
  OTHER_ERRORS_HEADING,
  rowPlaceholders,
} from '../../client/src/routes/holdings/manual/manualEntry.ts';

describe('client: manual entry form', () => {
  it('starts with two rows, the first an example of 100 at 2500.00 on NSE shown as placeholders', () => {
    const rows = initialManualRows('example');
    expect(rows).to.have.length(2);
    expect(rows[0]).to.deep.include({
      symbol: '',
      exchange: 'NSE',
      quantity: '',
      averagePrice: '',
      example: true,
    });
    expect(EXAMPLE_ROW).to.include({ quantity: '100', averagePrice: '2500.00', exchange: 'NSE' });
    expect(rowPlaceholders(rows[0]!)).to.deep.equal({
      symbol: 'RELIANCE',
      quantity: '100',
      averagePrice: '2500.00',
    });
    expect(rows[1]).to.deep.include({ symbol: '', exchange: 'NSE', quantity: '', averagePrice: '' });
    expect(new Set(rows.map((r) => r.key)).size).to.equal(2);
    // An untouched example row is not a holding the user entered.
    expect(validateManualRows(rows)).to.deep.equal({ valid: [], errors: [] });
  });

  it('opens with one empty row for Add New', () => {
    const rows = initialManualRows('single');
    expect(rows).to.have.length(1);
    expect(rows[0]!.example).to.equal(undefined);
  });

  it('never removes the last row or the example row', () => {
    const [example, second] = initialManualRows('example');
    expect(canRemoveRow([example!, second!], example!)).to.equal(false);
    expect(canRemoveRow([example!, second!], second!)).to.equal(true);
    const [only] = initialManualRows('single');
    expect(canRemoveRow([only!], only!)).to.equal(false);
  });

  it('groups refused rows under Duplicate Holdings and Other Errors, in the documented words', () => {
    const report = describeAddFailures(
      [
        { symbol: 'TCS', exchange: 'NSE', message: 'TCS (NSE) already exists' },
        { symbol: 'XYZ', exchange: 'BSE', message: 'Symbol not found' },
        { symbol: 'ABC', exchange: 'NSE', message: '' },
      ],
      4,
    );
    expect(report.title).to.equal('Failed to add holdings');
    expect(report.duplicates).to.deep.equal([
      'TCS (NSE) already exists. You can edit the quantity or buy price if needed.',
    ]);
    expect(report.others).to.deep.equal(['XYZ (BSE): Symbol not found', 'ABC (NSE): Failed to add holding']);
    expect([DUPLICATE_HEADING, OTHER_ERRORS_HEADING]).to.deep.equal(['Duplicate Holdings:', 'Other Errors:']);
    expect(describeAddFailures([], 1).title).to.equal('Failed to add holding');
  });

  it("sorts a failure by its message containing 'already exists', not by the status code", () => {
    const report = describeAddFailures(
      [
        // Any answer whose text says so is a duplicate, e.g. a 400 from a proxy.
        { symbol: 'INFY', exchange: 'BSE', message: 'Holding INFY already exists in this account' },
        // A conflict about something else is not.
        { symbol: 'SBIN', exchange: 'NSE', message: 'Another save is in progress' },
      ],
      2,
    );
    expect(report.duplicates).to.deep.equal([
      'INFY (BSE) already exists. You can edit the quantity or buy price if needed.',
    ]);
    expect(report.others).to.deep.equal(['SBIN (NSE): Another save is in progress']);
    expect(isDuplicateFailure({ symbol: 'A', exchange: 'NSE', message: 'Already Exists' })).to.equal(false);
  });
});
