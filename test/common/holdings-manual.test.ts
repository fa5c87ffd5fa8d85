import { expect } from 'chai';
import { parseHoldingsCsv } from '../../common/src/holdings/import.ts';
import { validateInlineEdit, validateManualRows } from '../../common/src/holdings/manual.ts';
import { manualHoldingBody, updateHoldingBody, uploadCsvBody } from '../../common/src/holdings/schemas.ts';

const row = (symbol: string, quantity: string, averagePrice: string, exchange = 'NSE') => ({
  symbol,
  exchange,
  quantity,
  averagePrice,
});

describe('manual entry rows', () => {
  it('trims and upper-cases symbols and parses decimals', () => {
    expect(
      validateManualRows([row('  reliance ', '100', '2500.00'), row('sbin', '2', '974.25', 'BSE')]),
    ).to.deep.equal({
      valid: [
        { symbol: 'RELIANCE', exchange: 'NSE', quantity: 100, average_price: 2500 },
        { symbol: 'SBIN', exchange: 'BSE', quantity: 2, average_price: 974.25 },
      ],
      errors: [],
    });
  });

  it('ignores completely empty rows but keeps form positions in messages', () => {
    const result = validateManualRows([row('', '', ''), row(' ', ' ', ' '), row('', '5', '10')]);
    expect(result).to.deep.equal({ valid: [], errors: ['Row 3: Symbol is required'] });
  });

  it('reports each missing or non-positive field', () => {
    const result = validateManualRows([
      row('INFY', '', ''),
      row('TCS', '0', '-1'),
      row('ITC', 'abc', '12x'),
      row('HDFCBANK', '10', '980'),
    ]);
    expect(result.errors).to.deep.equal([
      'Row 1: Quantity is required',
      'Row 1: Buy price is required',
      'Row 2: Quantity must be a positive number',
      'Row 2: Buy price must be a positive number',
      'Row 3: Quantity must be a positive number',
      'Row 3: Buy price must be a positive number',
    ]);
    expect(result.valid.map((holding) => holding.symbol)).to.deep.equal(['HDFCBANK']);
  });

  it('refuses a fraction of a share, in manual entry, inline edit, the API and a CSV row alike', () => {
    expect(validateManualRows([row('TCS', '12.5', '3500')]).errors).to.deep.equal([
      'Row 1: Quantity must be a whole number of shares',
    ]);
    expect(validateInlineEdit('quantity', '12.5', 10)).to.deep.equal({
      action: 'error',
      message: 'Quantity must be a whole number of shares',
    });
    // A buy price keeps its paise.
    expect(validateInlineEdit('average_price', '12.5', 10)).to.deep.equal({ action: 'save', value: 12.5 });
    const api = manualHoldingBody.safeParse({
      symbol: 'TCS',
      exchange: 'NSE',
      quantity: 12.5,
      average_price: 3500,
    });
    expect(api.success).to.equal(false);
    expect(api.error?.issues[0]?.message).to.equal('Quantity must be a whole number of shares');
    expect(updateHoldingBody.safeParse({ quantity: '0.5' }).success).to.equal(false);
    const csv = parseHoldingsCsv('Symbol,Quantity,Buy Price\nTCS,12.5,3500\nINFY,10.0,1500\n');
    expect(csv.ok).to.equal(false);
    expect(csv.ok ? [] : csv.details).to.deep.equal([
      'Row 1 (TCS): Invalid quantity - must be a whole number of shares',
    ]);
  });

  it('refuses an exchange other than NSE or BSE', () => {
    expect(validateManualRows([row('INFY', '1', '1', 'NYSE')]).errors).to.deep.equal([
      'Row 1: Exchange must be NSE or BSE',
    ]);
  });
});

describe('inline edit of quantity or buy price', () => {
  it('cancels on empty or unchanged input', () => {
    expect(validateInlineEdit('quantity', '  ', 10)).to.deep.equal({ action: 'cancel' });
    expect(validateInlineEdit('quantity', '10', 10)).to.deep.equal({ action: 'cancel' });
    expect(validateInlineEdit('average_price', '2500.00', 2500)).to.deep.equal({ action: 'cancel' });
  });

  it('refuses values that are not numbers above zero', () => {
    expect(validateInlineEdit('quantity', '0', 10)).to.deep.equal({
      action: 'error',
      message: 'Quantity must be a positive number',
    });
    expect(validateInlineEdit('average_price', '-3', 10)).to.deep.equal({
      action: 'error',
      message: 'Buy price must be a positive number',
    });
    expect(validateInlineEdit('average_price', 'abc', 10)).to.deep.include({ action: 'error' });
  });

  it('saves a changed positive value', () => {
    expect(validateInlineEdit('quantity', ' 12 ', 10)).to.deep.equal({ action: 'save', value: 12 });
    expect(validateInlineEdit('average_price', '2499.95', 2500)).to.deep.equal({
      action: 'save',
      value: 2499.95,
    });
  });
});

describe('holdings API payload schemas', () => {
  const firstMessage = (result: { success: boolean; error?: { issues: { message: string }[] } }): string =>
    result.error?.issues[0]?.message ?? '';

  it('uploadCsvBody needs CSV text and limits the broker name', () => {
    expect(uploadCsvBody.parse({ csvData: 'Symbol,Qty,Avg cost\nINFY,1,1' })).to.have.property('csvData');
    expect(firstMessage(uploadCsvBody.safeParse({ csvData: '  ' }))).to.equal('Please provide CSV data');
    expect(firstMessage(uploadCsvBody.safeParse({}))).to.equal('Please provide CSV data');
    expect(uploadCsvBody.safeParse({ csvData: 'x', broker_name: 'Z'.repeat(61) }).success).to.equal(false);
    expect(uploadCsvBody.parse({ csvData: 'x', broker_name: ' Zerodha ' }).broker_name).to.equal('Zerodha');
    expect(firstMessage(uploadCsvBody.safeParse({ csvData: 'x', broker_name: 'Z'.repeat(61) }))).to.equal(
      'Account name is too long (60 characters at most)',
    );
  });

  it('uploadCsvBody takes a dry run and rows fixed by hand (the dialog preview)', () => {
    expect(
      uploadCsvBody.parse({
        csvData: 'x',
        dry_run: true,
        overrides: [{ line: 2, symbol: ' itc ', exchange: 'NSE' }],
      }),
    ).to.deep.equal({
      csvData: 'x',
      dry_run: true,
      overrides: [{ line: 2, symbol: 'ITC', exchange: 'NSE' }],
    });
    expect(
      uploadCsvBody.safeParse({ csvData: 'x', overrides: [{ line: 0, symbol: 'ITC', exchange: 'NSE' }] })
        .success,
    ).to.equal(false);
    expect(
      uploadCsvBody.safeParse({ csvData: 'x', overrides: [{ line: 1, symbol: 'ITC', exchange: 'NYSE' }] })
        .success,
    ).to.equal(false);
  });

  it('manualHoldingBody accepts numeric strings and normalises symbol and exchange', () => {
    expect(
      manualHoldingBody.parse({ symbol: ' infy ', exchange: 'bse', quantity: '5', average_price: '1500.5' }),
    ).to.deep.equal({
      symbol: 'INFY',
      exchange: 'BSE',
      quantity: 5,
      average_price: 1500.5,
    });
    const bad = manualHoldingBody.safeParse({
      symbol: 'INFY',
      exchange: 'NSE',
      quantity: 0,
      average_price: 1,
    });
    expect(firstMessage(bad)).to.equal('Quantity must be a positive number');
    const badPrice = manualHoldingBody.safeParse({
      symbol: 'INFY',
      exchange: 'NSE',
      quantity: 1,
      average_price: 'x',
    });
    expect(firstMessage(badPrice)).to.equal('Buy price must be a positive number');
    expect(
      manualHoldingBody.safeParse({ symbol: 'INFY', exchange: 'NYSE', quantity: 1, average_price: 1 })
        .success,
    ).to.equal(false);
  });

  it('updateHoldingBody needs at least one positive field', () => {
    expect(updateHoldingBody.parse({ quantity: '12' })).to.deep.equal({ quantity: 12 });
    expect(updateHoldingBody.parse({ average_price: 99.5 })).to.deep.equal({ average_price: 99.5 });
    expect(updateHoldingBody.safeParse({}).success).to.equal(false);
    expect(firstMessage(updateHoldingBody.safeParse({ quantity: -1 }))).to.equal(
      'Quantity must be a positive number',
    );
  });
});
