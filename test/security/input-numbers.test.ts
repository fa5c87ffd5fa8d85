/**
 * Numbers and dates the fuzzing found answered with a 500 (issue 15): amounts the NUMERIC(18,4)
 * columns cannot hold or keep, decimals written as hex or exponents, dates out of range.
 */
import { expect } from 'chai';
import { expectRefused, inputSuite } from './support/input-suite.ts';

const TOO_LARGE = 'must be less than 10,00,00,00,00,00,000';

describe('security: number and date domains', () => {
  const { api, users, user, upload, rule, alert } = inputSuite();
  let holdingId: string;
  before(async () => {
    const added = await api.post<{ id: string }>(
      '/api/holdings/manual',
      { symbol: 'ITC', exchange: 'NSE', quantity: 10, average_price: 400 },
      user().token,
    );
    expect(added.status).to.equal(201);
    holdingId = added.body.data!.id;
  });

  const manual = (quantity: unknown, average_price: unknown = 100) =>
    api.post(
      '/api/holdings/manual',
      { symbol: 'TCS', exchange: 'NSE', quantity, average_price },
      user().token,
    );

  describe('numbers the columns cannot hold', () => {
    it('refuses 1e14 and more in manual entry, inline edit, CSV rows, price alerts and rules', async () => {
      expectRefused(await manual(1e14), `Quantity ${TOO_LARGE}`);
      expectRefused(await manual(10, 1e14), `Buy price ${TOO_LARGE}`);
      expectRefused(await manual('100000000000000'), `Quantity ${TOO_LARGE}`);
      expectRefused(await manual(1e308), `Quantity ${TOO_LARGE}`);
      expectRefused(
        await api.put(`/api/holdings/${holdingId}`, { quantity: 1e14 }, user().token),
        `Quantity ${TOO_LARGE}`,
      );
      expectRefused(
        await api.put(`/api/holdings/${holdingId}`, { average_price: 5e20 }, user().token),
        `Buy price ${TOO_LARGE}`,
      );
      const csv = await upload('Symbol,Quantity,Buy Price\nITC,100000000000000,400\n');
      expectRefused(csv, 'CSV validation failed. Please fix the errors below.');
      expect(csv.body.details).to.deep.equal([`Row 1 (ITC): Invalid quantity - ${TOO_LARGE}`]);
      const price = await upload('Symbol,Quantity,Buy Price\nITC,1,1e14\n');
      expect(price.body.details).to.deep.equal([
        'Row 1 (ITC): Invalid average price - must be a positive number',
      ]);
      expectRefused(await alert({ price: 1e14 }), `Price ${TOO_LARGE}`);
      expectRefused(await rule({ sell_quantity_value: 1e14 }), `Quantity to sell ${TOO_LARGE}`);
      expectRefused(await rule({ limit_price: 1e14 }), `Limit price ${TOO_LARGE}`);
      expectRefused(await rule({ trigger_value: 1e14 }), `Trigger value ${TOO_LARGE}`);
    });

    it('refuses CSV rows of one instrument that add up to more than a holding can hold', async () => {
      const res = await upload('Symbol,Quantity,Buy Price\nITC,60000000000000,400\nITC,60000000000000,410\n');
      expectRefused(res, 'CSV validation failed. Please fix the errors below.');
      expect(res.body.details).to.deep.equal([`ITC (NSE): the rows add up to a quantity that ${TOO_LARGE}`]);
    });

    it('refuses positive numbers that would be stored as 0 (a quantity that small is a fraction of a share)', async () => {
      for (const tiny of [0.00001, 1e-20, '0.00000000000000000001', '0.00009']) {
        expectRefused(await manual(tiny), 'Quantity must be a whole number of shares');
        expectRefused(await manual(1, tiny), 'Buy price must be at least 0.0001');
      }
      expectRefused(
        await api.put(`/api/holdings/${holdingId}`, { quantity: 0.00001 }, user().token),
        'Quantity must be a whole number of shares',
      );
      const csv = await upload('Symbol,Quantity,Buy Price\nITC,0.00001,400\n');
      expect(csv.body.details).to.deep.equal([
        'Row 1 (ITC): Invalid quantity - must be a whole number of shares',
      ]);
      expectRefused(await alert({ price: 0.00001 }), 'Price must be at least 0.0001');
      expectRefused(await rule({ trigger_value: 1e-20 }), 'Trigger value must be at least 0.0001');
      expectRefused(await rule({ sell_quantity_value: 1e-5 }), 'Quantity to sell must be at least 0.0001');
    });

    it('refuses hex, exponent, Infinity and NaN text where a decimal is asked for', async () => {
      for (const text of ['0x10', '1e3', '1E3', 'Infinity', '-Infinity', 'NaN', '0b11', '12abc']) {
        expectRefused(await manual(text), 'Quantity must be a positive number');
        expectRefused(await manual(1, text), 'Buy price must be a positive number');
        expectRefused(await alert({ price: text }), 'Please enter a price greater than 0');
        expectRefused(
          await rule({ trigger_value: text }),
          'Please enter a valid trigger value greater than 0',
        );
      }
      expectRefused(
        await api.put(`/api/holdings/${holdingId}`, { quantity: '0x10' }, user().token),
        'Quantity must be a positive number',
      );
    });

    it('keeps the smallest and largest amounts the columns hold, as numbers and as plain text (whole shares)', async () => {
      const fresh = await users.make();
      const add = (symbol: string, quantity: unknown, average_price: unknown) =>
        api.post('/api/holdings/manual', { symbol, exchange: 'NSE', quantity, average_price }, fresh.token);
      expect((await add('ITC', 1, 99_999_999_999_999)).status).to.equal(201);
      expect((await add('TCS', '1', ' 99999999999999.98 ')).status).to.equal(201);
      // Indian cash equity has no fraction of a share (issue #28).
      const fraction = await add('INFY', 0.0001, 1500);
      expect(fraction.status).to.equal(400);
      expect(fraction.body.error).to.equal('Quantity must be a whole number of shares');
      const list = await api.get<{ symbol: string; quantity: number; average_price: number }[]>(
        '/api/holdings',
        fresh.token,
      );
      const bySymbol = Object.fromEntries(list.body.data!.map((h) => [h.symbol, h]));
      expect(bySymbol.ITC).to.include({ quantity: 1, average_price: 99_999_999_999_999 });
      expect(bySymbol.TCS!.quantity).to.equal(1);
      expect(bySymbol.TCS!.average_price).to.be.closeTo(99_999_999_999_999.98, 0.02);
    });
  });

  it('refuses dates out of range in queries', async () => {
    for (const date of ['99999', '-271821-04-20', '1899-12-31', '2100-01-01T00:00:00Z']) {
      expectRefused(
        await api.get(`/api/rule-executions?start_date=${encodeURIComponent(date)}`, user().token),
        'start_date must be a date between 2000-01-01 and 2099-12-31',
      );
    }
    expectRefused(
      await api.get('/api/rule-executions?end_date=99999', user().token),
      'end_date must be a date between 2000-01-01 and 2099-12-31',
    );
    expect((await api.get('/api/rule-executions?start_date=2024-01-01', user().token)).status).to.equal(200);
  });
});
