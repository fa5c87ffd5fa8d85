import { BROKER_TEXTS } from '@app/common/api/brokers';
import { expect } from 'chai';
import { appSuite } from '../../helpers/app.ts';
import { signIn, type SignedInUser } from '../../helpers/users.ts';

interface Holding {
  id: string;
  symbol: string;
  quantity: number;
  average_price: number;
  broker_type: string;
  broker_account_id: string;
  company_name: string;
}

describe('holdings: manual entry, edit, delete, ownership', () => {
  const { app, api } = appSuite();

  const addManual = (
    user: SignedInUser,
    symbol: string,
    quantity: number | string = 10,
    price: number | string = 100,
  ) =>
    api.post<{ id: string }>(
      '/api/holdings/manual',
      { symbol, exchange: 'NSE', quantity, average_price: price },
      user.token,
    );

  it('adds a manual holding with its company name, and refuses the same one twice', async () => {
    const user = await signIn(app);
    expect((await addManual(user, 'reliance', '100', '2500.00')).status).to.equal(201);
    const dup = await addManual(user, 'RELIANCE');
    expect(dup.status).to.equal(409);
    expect(dup.body.error).to.equal('RELIANCE (NSE) already exists');
    const list = await api.get<Holding[]>('/api/holdings/user-added', user.token);
    expect(list.body.data).to.have.length(1);
    expect(list.body.data![0]).to.include({
      symbol: 'RELIANCE',
      quantity: 100,
      average_price: 2500,
      broker_type: 'USER_ADDED',
    });
    expect(list.body.data![0]!.company_name).to.match(/Reliance Industries/i);
  });

  it('resolves a renamed symbol to the current one', async () => {
    const user = await signIn(app);
    await app.runtime.deps.db.execute(
      "insert into symbol_renames (exchange, old_symbol, new_symbol) values ('NSE','ZOMATO','ETERNAL') on conflict do nothing",
    );
    await app.runtime.deps.instruments.reload();
    const res = await addManual(user, 'ZOMATO');
    expect(res.status).to.equal(201);
    expect(res.body.data).to.include({ symbol: 'ETERNAL' });
  });

  it('edits quantity and buy price of a manual holding inline', async () => {
    const user = await signIn(app);
    const { body } = await addManual(user, 'TCS', 10, 3500);
    const res = await api.put<Holding>(`/api/holdings/${body.data!.id}`, { quantity: 12 }, user.token);
    expect(res.status).to.equal(200);
    expect(res.body.data).to.include({ quantity: 12, average_price: 3500 });
    const bad = await api.put(`/api/holdings/${body.data!.id}`, { average_price: 0 }, user.token);
    expect(bad.status).to.equal(400);
    expect(bad.body.error).to.equal('Buy price must be a positive number');
  });

  it('refuses to edit an imported holding with a sentence (403)', async () => {
    const user = await signIn(app);
    await api.post(
      '/api/holdings/upload-csv',
      { csvData: 'Symbol,Quantity,Buy Price\nSBIN,15,974.2\n' },
      user.token,
    );
    const [holding] = (await api.get<Holding[]>('/api/holdings', user.token)).body.data!;
    const res = await api.put(`/api/holdings/${holding!.id}`, { quantity: 1 }, user.token);
    expect(res.status).to.equal(403);
    expect(res.body.error).to.match(/Only holdings you added manually can be edited/);
  });

  it("never shows, edits or deletes another user's holdings or accounts (404)", async () => {
    const alice = await signIn(app);
    const bob = await signIn(app);
    const { body } = await addManual(alice, 'INFY', 5, 1500);
    const id = body.data!.id;
    const [holding] = (await api.get<Holding[]>('/api/holdings', alice.token)).body.data!;
    const accountId = holding!.broker_account_id;

    expect((await api.get<Holding[]>('/api/holdings', bob.token)).body.data).to.deep.equal([]);
    expect((await api.put(`/api/holdings/${id}`, { quantity: 1 }, bob.token)).status).to.equal(404);
    expect((await api.delete(`/api/holdings/${id}`, bob.token)).status).to.equal(404);
    expect((await api.get(`/api/brokers/holdings/account/${accountId}`, bob.token)).status).to.equal(404);
    expect((await api.delete(`/api/brokers/${accountId}`, bob.token)).status).to.equal(404);
    expect((await api.get<unknown[]>('/api/brokers', bob.token)).body.data).to.deep.equal([]);
    await api.delete('/api/holdings/all', bob.token);

    const still = await api.get<Holding[]>('/api/holdings', alice.token);
    expect(still.body.data!.map((h) => [h.id, h.quantity])).to.deep.equal([[id, 5]]);
  });

  it('answers 401 without a token and 404 for malformed ids', async () => {
    const user = await signIn(app);
    expect((await api.get('/api/holdings')).status).to.equal(401);
    expect((await api.delete('/api/holdings/not-a-uuid', user.token)).status).to.equal(404);
  });

  it('deletes one holding, a whole account, then everything', async () => {
    const user = await signIn(app);
    const a = await addManual(user, 'ITC', 10, 400);
    await addManual(user, 'WIPRO', 10, 250);
    await api.post(
      '/api/holdings/upload-csv',
      { csvData: 'Symbol,Quantity,Buy Price\nSBIN,15,974.2\n', broker_name: 'Groww' },
      user.token,
    );
    expect((await api.delete(`/api/holdings/${a.body.data!.id}`, user.token)).status).to.equal(200);
    const brokers = await api.get<
      { broker_account_id: string; broker_name: string; holdings_count: number }[]
    >('/api/brokers', user.token);
    const groww = brokers.body.data!.find((b) => b.broker_name === 'Groww')!;
    expect(groww.holdings_count).to.equal(1);
    expect((await api.delete(`/api/brokers/${groww.broker_account_id}`, user.token)).status).to.equal(200);
    expect(
      (await api.get<Holding[]>('/api/holdings', user.token)).body.data!.map((h) => h.symbol),
    ).to.deep.equal(['WIPRO']);
    const all = await api.delete<{ deleted: number }>('/api/holdings/all', user.token);
    expect(all.body.data?.deleted).to.equal(1);
    expect((await api.get<Holding[]>('/api/holdings', user.token)).body.data).to.deep.equal([]);
  });

  it('refuses to connect a broker whose keys are not set, and to sync a manual account', async () => {
    const user = await signIn(app);
    const res = await api.post('/api/brokers/connect', { broker: 'kite' }, user.token);
    expect(res.status).to.equal(400);
    expect(res.body.error).to.equal(BROKER_TEXTS.notConfigured('Zerodha'));
    await addManual(user, 'ITC', 10, 400);
    const [account] = (await api.get<{ broker_account_id: string }[]>('/api/brokers', user.token)).body.data!;
    const sync = await api.post(`/api/brokers/${account!.broker_account_id}/sync`, {}, user.token);
    expect(sync.status).to.equal(400);
  });

  it("lists one of the owner's accounts with only that account's holdings", async () => {
    const user = await signIn(app);
    await addManual(user, 'ITC', 10, 400);
    const upload = await api.post(
      '/api/holdings/upload-csv',
      { csvData: 'Symbol,Quantity,Buy Price\nSBIN,15,974.2\nTCS,2,3500\n', broker_name: 'Zerodha · AB1234' },
      user.token,
    );
    expect(upload.status).to.equal(201);
    const brokers = (
      await api.get<{ broker_account_id: string; broker_name: string }[]>('/api/brokers', user.token)
    ).body.data!;
    const zerodha = brokers.find((b) => b.broker_name === 'Zerodha')!;
    const res = await api.get<Holding[]>(
      `/api/brokers/holdings/account/${zerodha.broker_account_id}`,
      user.token,
    );
    expect(res.status).to.equal(200);
    expect(
      res.body.data!.map((h) => [h.symbol, h.quantity, h.average_price, h.broker_account_id]),
    ).to.deep.equal([
      ['SBIN', 15, 974.2, zerodha.broker_account_id],
      ['TCS', 2, 3500, zerodha.broker_account_id],
    ]);
    const manual = brokers.find((b) => b.broker_name !== 'Zerodha')!;
    const own = await api.get<Holding[]>(
      `/api/brokers/holdings/account/${manual.broker_account_id}`,
      user.token,
    );
    expect(own.body.data!.map((h) => [h.symbol, h.broker_type])).to.deep.equal([['ITC', 'USER_ADDED']]);
  });
});
