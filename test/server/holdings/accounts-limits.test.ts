/** The manual account is found by its type, not its name; holdings are bounded per account and in all. */
import { MAX_HOLDINGS_IN_ALL, MAX_HOLDINGS_PER_ACCOUNT } from '@app/common/holdings/messages';
import { expect } from 'chai';
import { brokerAccounts, holdings } from '../../../server/src/db/schema.ts';
import { appSuite } from '../../helpers/app.ts';
import { signIn, type SignedInUser } from '../../helpers/users.ts';

interface Holding {
  id: string;
  symbol: string;
  broker_name: string;
  broker_type: string;
  broker_account_id: string;
}

describe('holdings: the manual account and the holdings limits', function () {
  this.timeout(60_000);
  const { app, api } = appSuite();

  const list = async (user: SignedInUser) =>
    (await api.get<Holding[]>('/api/holdings', user.token)).body.data!;

  /** Stores `count` made-up holdings for the user in a new account of `type`, straight in the database. */
  async function seedAccount(user: SignedInUser, name: string, count: number, type = 'CSV_IMPORT') {
    const db = app.runtime.deps.db;
    const [account] = await db
      .insert(brokerAccounts)
      .values({ userId: user.id, brokerName: name, brokerType: type, accountLabel: '' })
      .returning();
    const rows = Array.from({ length: count }, (_, i) => ({
      userId: user.id,
      brokerAccountId: account!.id,
      symbol: `ZZ${name.replace(/\W/g, '')}${i}`,
      exchange: 'NSE' as const,
      quantity: '1',
      averagePrice: '10.0000',
    }));
    for (let i = 0; i < rows.length; i += 500) await db.insert(holdings).values(rows.slice(i, i + 500));
  }

  it('an upload named "Manual" gets an account of its own, and leaves the manual holdings alone', async () => {
    const user = await signIn(app);
    const manual = await api.post(
      '/api/holdings/manual',
      { symbol: 'ITC', exchange: 'NSE', quantity: 10, average_price: 400 },
      user.token,
    );
    expect(manual.status).to.equal(201);
    const upload = await api.post(
      '/api/holdings/upload-csv',
      { csvData: 'Symbol,Quantity,Buy Price\nTCS,2,3000', broker_name: 'Manual' },
      user.token,
    );
    expect(upload.status, upload.body.error).to.equal(201);

    const bySymbol = Object.fromEntries((await list(user)).map((h) => [h.symbol, h]));
    expect(Object.keys(bySymbol).sort()).to.deep.equal(['ITC', 'TCS']);
    expect(bySymbol.ITC!.broker_type).to.equal('USER_ADDED');
    expect(bySymbol.TCS!.broker_type).to.equal('CSV_IMPORT');
    expect(bySymbol.TCS!.broker_account_id).to.not.equal(bySymbol.ITC!.broker_account_id);

    // The imported row stays read-only and the manual one editable.
    const editImported = await api.put(`/api/holdings/${bySymbol.TCS!.id}`, { quantity: 3 }, user.token);
    expect(editImported.status).to.equal(403);
    const editManual = await api.put(`/api/holdings/${bySymbol.ITC!.id}`, { quantity: 12 }, user.token);
    expect(editManual.status).to.equal(200);

    // A later manual entry still lands in the manual account.
    await api.post(
      '/api/holdings/manual',
      { symbol: 'SBIN', exchange: 'NSE', quantity: 1, average_price: 800 },
      user.token,
    );
    const sbin = (await list(user)).find((h) => h.symbol === 'SBIN')!;
    expect(sbin.broker_account_id).to.equal(bySymbol.ITC!.broker_account_id);
  });

  it(`refuses a manual holding past ${MAX_HOLDINGS_PER_ACCOUNT} in the manual account`, async () => {
    const user = await signIn(app);
    await seedAccount(user, 'Manual', MAX_HOLDINGS_PER_ACCOUNT, 'USER_ADDED');
    const res = await api.post(
      '/api/holdings/manual',
      { symbol: 'ITC', exchange: 'NSE', quantity: 1, average_price: 400 },
      user.token,
    );
    expect(res.status).to.equal(403);
    expect(res.body.error).to.equal('An account can keep at most 1,000 holdings; Manual would have 1,001.');
    expect(await list(user)).to.have.length(MAX_HOLDINGS_PER_ACCOUNT);
  });

  it(`refuses an upload or a manual holding past ${MAX_HOLDINGS_IN_ALL} in all, changing nothing`, async () => {
    const user = await signIn(app);
    for (const name of ['One', 'Two', 'Three', 'Four']) await seedAccount(user, name, 1000);
    await seedAccount(user, 'Five', 999);

    const over = await api.post(
      '/api/holdings/upload-csv',
      { csvData: 'Symbol,Quantity,Buy Price\nITC,1,400\nTCS,1,3000', broker_name: 'Six' },
      user.token,
    );
    expect(over.status).to.equal(403);
    expect(over.body.error).to.equal(
      'You can keep at most 5,000 holdings across all your accounts; this would make 5,001. Delete some holdings or an account first.',
    );
    const stored = await list(user);
    expect(stored).to.have.length(4999);
    expect(stored.some((h) => h.broker_name === 'Six')).to.equal(false);

    // Re-uploading an account replaces it: a file of the same size still fits.
    const fits = await api.post(
      '/api/holdings/upload-csv',
      { csvData: 'Symbol,Quantity,Buy Price\nITC,1,400', broker_name: 'Six' },
      user.token,
    );
    expect(fits.status, fits.body.error).to.equal(201);
    const manual = await api.post(
      '/api/holdings/manual',
      { symbol: 'SBIN', exchange: 'NSE', quantity: 1, average_price: 800 },
      user.token,
    );
    expect(manual.status).to.equal(403);
    expect(manual.body.error).to.match(/^You can keep at most 5,000 holdings across all your accounts/);
  });
});
