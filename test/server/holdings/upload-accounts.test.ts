/**
 * Imports that never surprise (issue 17), through the real server: a row that matches nothing can
 * be left out, the preview lists what the upload adds, changes and removes in which account, the
 * user chooses the account (by id, a new one by name, by the file's client ID, or is asked), the
 * removals happen only once confirmed, and a second copy of the same account is pointed out.
 */
import type { ImportChanges, UploadAccountPlan } from '@app/common/holdings/upload-preview';
import { expect } from 'chai';
import { appSuite } from '../../helpers/app.ts';
import { readShared } from '../../helpers/shared-data.ts';
import { signIn, type SignedInUser } from '../../helpers/users.ts';

const fixture = (name: string) => readShared(`fixtures/brokers/${name}`);
const CONSOLE = fixture('zerodha_console_holdings_Equity_sheet_layout.csv');
const KITE_HEADER =
  '"Instrument","Qty.","Avg. cost","LTP","Invested","Cur. val","P&L","Net chg.","Day chg.",""';
/** A Kite holdings CSV (no client ID) of `symbol,qty,avg` rows. */
const kite = (...rows: string[]) => [KITE_HEADER, ...rows.map((r) => `${r},0,0,0,0,0,0,""`)].join('\n');

interface Preview extends UploadAccountPlan {
  rows: { line: number; symbol: string }[];
  unresolved: { line: number; name: string }[];
  problems: string[];
  skipped_lines: number[];
}
interface Summary {
  account_name: string;
  broker_account_id: string;
  created: number;
  updated: number;
  removed: number;
  skipped: number;
  total: number;
}
interface Holding {
  symbol: string;
  quantity: number;
  broker_account_id: string;
}
interface Account {
  broker_account_id: string;
  display_name: string;
  broker_type: string;
  holdings_count: number;
}

describe('holdings upload: skipped rows, the preview of changes, the account choice', function () {
  this.timeout(60_000);
  const { app, api } = appSuite();

  const upload = (user: SignedInUser, body: Record<string, unknown>) =>
    api.post<{ stored: boolean; preview: Preview; summary?: Summary }>(
      '/api/holdings/upload-csv',
      body,
      user.token,
    );
  const preview = async (user: SignedInUser, body: Record<string, unknown>) => {
    const res = await upload(user, { ...body, dry_run: true });
    expect(res.status, res.body.error).to.equal(200);
    return res.body.data!.preview;
  };
  const stored = async (user: SignedInUser, body: Record<string, unknown>) => {
    const res = await upload(user, body);
    expect(res.status, res.body.error).to.equal(201);
    return res.body.data!.summary!;
  };
  const holdings = async (user: SignedInUser) =>
    (await api.get<Holding[]>('/api/holdings', user.token)).body.data!;
  const accounts = async (user: SignedInUser) =>
    (await api.get<Account[]>('/api/brokers', user.token)).body.data!;
  const held = (list: Holding[], accountId: string) =>
    list
      .filter((h) => h.broker_account_id === accountId)
      .map((h) => `${h.symbol}:${h.quantity}`)
      .sort();

  it('leaves out a row that matches no stock, imports the rest and counts it as skipped', async () => {
    const user = await signIn(app);
    const csv = [
      '"Name","Quantity","Avg Price"',
      '"HDFC Bank",4,"831.89"',
      '"Zqxv Unheard Of Industries",7,"12"',
    ].join('\n');
    const first = await preview(user, { csvData: csv });
    expect(first.unresolved).to.deep.equal([{ line: 2, name: 'Zqxv Unheard Of Industries', isin: null }]);
    expect((await upload(user, { csvData: csv })).status).to.equal(400);

    const left = await preview(user, { csvData: csv, skip_lines: [2] });
    expect(left.unresolved).to.deep.equal([]);
    expect(left.problems).to.deep.equal([]);
    expect(left.skipped_lines).to.deep.equal([2]);
    expect(left.changes?.add.map((h) => h.symbol)).to.deep.equal(['HDFCBANK']);

    const summary = await stored(user, { csvData: csv, skip_lines: [2] });
    expect(summary).to.include({ created: 1, skipped: 1, total: 1 });
    expect((await holdings(user)).map((h) => h.symbol)).to.deep.equal(['HDFCBANK']);

    const nowhere = await upload(user, { csvData: csv, skip_lines: [9], dry_run: true });
    expect(nowhere.status).to.equal(400);
    expect(nowhere.body.error).to.equal('The file has no row 9 to leave out; choose the file again.');
  });

  it('previews what a re-upload adds, changes and removes in the chosen account, storing nothing', async () => {
    const user = await signIn(app);
    const first = await stored(user, { csvData: kite('SBIN,15,974.2', 'ITC,10,400', 'TCS,2,3500') });
    expect(first.account_name).to.equal('Zerodha');
    const before = await holdings(user);

    const next = kite('SBIN,15,974.2', 'ITC,12,390', 'INFY,5,1500');
    const p = await preview(user, { csvData: next, account: { id: first.broker_account_id } });
    expect(p.target_account).to.deep.equal({ id: first.broker_account_id, name: 'Zerodha', new: false });
    expect(p.changes).to.deep.equal({
      add: [{ symbol: 'INFY', exchange: 'NSE', quantity: 5, average_price: 1500 }],
      update: [
        {
          symbol: 'ITC',
          exchange: 'NSE',
          from: { quantity: 10, average_price: 400 },
          to: { quantity: 12, average_price: 390 },
        },
      ],
      remove: [{ symbol: 'TCS', exchange: 'NSE', quantity: 2, average_price: 3500 }],
      unchanged: 1,
    } satisfies ImportChanges);
    expect(await holdings(user)).to.deep.equal(before);
  });

  it('asks which account a second file of the same broker goes to, and never wipes the first', async () => {
    const user = await signIn(app);
    const first = await stored(user, { csvData: kite('SBIN,15,974.2', 'ITC,10,400') });
    const second = kite('TCS,2,3500');

    const asked = await preview(user, { csvData: second });
    expect(asked.target_account).to.equal(null);
    expect(asked.changes).to.equal(null);
    expect(asked.account_question).to.equal(
      'You already have a Zerodha account (Zerodha) and this file does not name its client ID. Choose the account this file replaces, or name a new account.',
    );
    expect(asked.account_options.map((o) => [o.name, o.holdings_count, o.same_broker])).to.deep.equal([
      ['Zerodha', 2, true],
    ]);
    expect(asked.suggested_name).to.equal('Zerodha 2');
    const refused = await upload(user, { csvData: second });
    expect(refused.status).to.equal(409);
    expect(refused.body.error).to.equal(asked.account_question);

    // A new account by name: the first keeps its holdings.
    const taken = await upload(user, { csvData: second, account: { new_name: 'zerodha' } });
    expect(taken.status).to.equal(409);
    expect(taken.body.error).to.equal(
      'You already have an account named Zerodha: choose it to replace its holdings, or give the new account another name.',
    );
    const mom = await stored(user, { csvData: second, account: { new_name: 'Zerodha · Mom' } });
    expect(mom).to.include({ account_name: 'Zerodha · Mom', created: 1, removed: 0 });
    const list = await holdings(user);
    expect(held(list, first.broker_account_id)).to.deep.equal(['ITC:10', 'SBIN:15']);
    expect(held(list, mom.broker_account_id)).to.deep.equal(['TCS:2']);

    // An existing account by id: its holdings are replaced (removals confirmed).
    const again = await stored(user, {
      csvData: kite('SBIN,20,980'),
      account: { id: mom.broker_account_id },
      confirm_removals: 1,
    });
    expect(again).to.include({ account_name: 'Zerodha · Mom', created: 1, removed: 1 });
    expect(held(await holdings(user), mom.broker_account_id)).to.deep.equal(['SBIN:20']);
    expect((await accounts(user)).map((a) => a.display_name)).to.deep.equal(['Zerodha', 'Zerodha · Mom']);
  });

  it("sends a file naming a client ID to that broker's account with that ID", async () => {
    const user = await signIn(app);
    await stored(user, { csvData: kite('SBIN,15,974.2') });
    const fresh = await preview(user, { csvData: CONSOLE });
    expect(fresh.target_account).to.deep.equal({ id: null, name: 'Zerodha · AB1234', new: true });
    const console = await stored(user, { csvData: CONSOLE });
    expect(console).to.include({ account_name: 'Zerodha · AB1234', created: 3 });

    const later = CONSOLE.replace(
      ',INFY,INE009A01021,IT - Software,8,',
      ',INFY,INE009A01021,IT - Software,10,',
    );
    const p = await preview(user, { csvData: later });
    expect(p.target_account).to.deep.equal({
      id: console.broker_account_id,
      name: 'Zerodha · AB1234',
      new: false,
    });
    expect(p.account_options.find((o) => o.client_id_match)?.id).to.equal(console.broker_account_id);
    expect(p.changes?.update.map((u) => [u.symbol, u.from.quantity, u.to.quantity])).to.deep.equal([
      ['INFY', 10, 12],
    ]);
    // The result counts as the preview did: one changed, two unchanged.
    expect(await stored(user, { csvData: later })).to.include({
      updated: 1,
      unchanged: 2,
      created: 0,
      removed: 0,
    });
  });

  it('replaces holdings only when the request confirms as many removals as the preview showed', async () => {
    const user = await signIn(app);
    const first = await stored(user, { csvData: kite('SBIN,15,974.2', 'ITC,10,400', 'TCS,2,3500') });
    const body = { csvData: kite('SBIN,15,974.2'), account: { id: first.broker_account_id } };
    expect((await preview(user, body)).changes?.remove.map((h) => h.symbol)).to.deep.equal(['ITC', 'TCS']);
    for (const confirm of [undefined, 1, 3]) {
      const res = await upload(user, { ...body, confirm_removals: confirm });
      expect(res.status).to.equal(409);
      expect(res.body.error).to.equal(
        'This upload would remove 2 holdings from Zerodha (ITC, TCS) that the file no longer lists. Preview the upload and confirm the removals to go ahead.',
      );
    }
    expect(held(await holdings(user), first.broker_account_id)).to.have.length(3);
    expect(await stored(user, { ...body, confirm_removals: 2 })).to.include({ removed: 2, total: 1 });
    expect(held(await holdings(user), first.broker_account_id)).to.deep.equal(['SBIN:15']);
  });

  it('warns when another account already holds the same instruments and quantities', async () => {
    const user = await signIn(app);
    const console = await stored(user, { csvData: CONSOLE });
    const sameAccount = kite('INFY,10,1450.5', 'GOLDIAM,336,310.25', 'NIFTYBEES,50,260');
    const warning = {
      account_id: console.broker_account_id,
      account_name: 'Zerodha · AB1234',
      message:
        'This looks like the same holdings as Zerodha · AB1234 — choose that account to replace them instead of adding a second copy.',
    };
    const asked = await preview(user, { csvData: sameAccount });
    expect(asked.target_account).to.equal(null);
    expect(asked.account_options.map((o) => o.name)).to.deep.equal(['Zerodha · AB1234']);
    expect(asked.duplicate).to.deep.equal(warning);
    expect(
      (await preview(user, { csvData: sameAccount, account: { new_name: 'Zerodha' } })).duplicate,
    ).to.deep.equal(warning);
    const chosen = await preview(user, { csvData: sameAccount, account: { id: console.broker_account_id } });
    expect(chosen.duplicate).to.equal(null);
    expect(chosen.changes).to.deep.include({ add: [], update: [], remove: [], unchanged: 3 });
    expect(
      (await preview(user, { csvData: kite('INFY,8,1450.5', 'TCS,1,3000', 'ITC,1,400') })).duplicate,
    ).to.equal(null);
  });

  it("refuses the manual account and another user's account as an upload's target", async () => {
    const user = await signIn(app);
    const other = await signIn(app);
    const manual = await api.post(
      '/api/holdings/manual',
      { symbol: 'ITC', exchange: 'NSE', quantity: 1, average_price: 400 },
      user.token,
    );
    expect(manual.status).to.equal(201);
    const manualId = (await accounts(user)).find((a) => a.broker_type === 'USER_ADDED')!.broker_account_id;
    const theirs = await stored(other, { csvData: kite('SBIN,1,900') });
    const intoManual = await upload(user, { csvData: kite('SBIN,1,900'), account: { id: manualId } });
    expect(intoManual.status).to.equal(400);
    expect(intoManual.body.error).to.equal(
      'A file cannot replace the holdings you added by hand: choose an import account or a new one.',
    );
    const intoTheirs = await upload(user, {
      csvData: kite('SBIN,1,900'),
      account: { id: theirs.broker_account_id },
    });
    expect(intoTheirs.status).to.equal(404);
    expect((await holdings(other)).map((h) => h.symbol)).to.deep.equal(['SBIN']);
  });
});
