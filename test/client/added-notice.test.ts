/** What the Holdings page says after an upload or a manual add, with what Price Guard protected. */
import { expect } from 'chai';
import { addedNotice, uploadedNotice } from '../../client/src/routes/holdings/addedNotice.ts';
import { filterByProtection, protectionFilterOf } from '../../client/src/routes/holdings/holdingsView.ts';

describe('client: upload and manual-add notices, and the unprotected filter', () => {
  const summary = {
    created: 3,
    updated: 2,
    unchanged: 0,
    removed: 0,
    rules_removed: [] as string[],
    skipped: 0,
    total: 5,
    account_name: 'Zerodha · AB1234',
    price_guard: null,
  };

  it('adds how many new holdings Price Guard protected, and nothing while the setting is off', () => {
    expect(uploadedNotice(summary)).to.equal(
      'Uploaded 5 holdings to Zerodha · AB1234: 3 new, 2 changed, 0 removed.',
    );
    expect(
      uploadedNotice({ ...summary, price_guard: { protected: 3, no_price: 0, over_limit: 0 } }),
    ).to.equal(
      'Uploaded 5 holdings to Zerodha · AB1234: 3 new, 2 changed, 0 removed. 3 new holdings protected by Price Guard.',
    );
    expect(addedNotice(1, { protected: 0, no_price: 1, over_limit: 0 })).to.equal(
      '1 holding was added. 1 new holding not protected yet: no price for it yet; it gets its rule with its first price.',
    );
    expect(addedNotice(2, null)).to.equal('2 holdings were added.');
    // Every new holding already had a rule: nothing more to say.
    expect(addedNotice(1, { protected: 0, no_price: 0, over_limit: 0 })).to.equal('1 holding was added.');
  });

  it("repeats the preview's counts and names the exit rules that went with removed holdings", () => {
    expect(
      uploadedNotice({
        ...summary,
        created: 0,
        updated: 1,
        unchanged: 7,
        removed: 1,
        total: 8,
        rules_removed: ['SBIN stop', 'SBIN target'],
      }),
    ).to.equal(
      'Uploaded 8 holdings to Zerodha · AB1234: 0 new, 1 changed, 7 unchanged, 1 removed. 2 exit rules removed: SBIN stop, SBIN target.',
    );
  });

  it('reads ?filter=unprotected and keeps the rows some account of which has no active rule', () => {
    expect(protectionFilterOf('unprotected')).to.equal('unprotected');
    expect(protectionFilterOf(null)).to.equal('all');
    expect(protectionFilterOf('bogus')).to.equal('all');
    const rows = [
      { symbol: 'ITC', accounts: [{ active_rules_count: 1 }] },
      { symbol: 'TCS', accounts: [{ active_rules_count: 1 }, { active_rules_count: 0 }] },
      { symbol: 'SBIN', accounts: [{ active_rules_count: 0 }] },
    ] as never[];
    const symbols = (filter: 'all' | 'unprotected') =>
      filterByProtection(rows, filter).map((r) => (r as { symbol: string }).symbol);
    expect(symbols('unprotected')).to.deep.equal(['TCS', 'SBIN']);
    expect(symbols('all')).to.deep.equal(['ITC', 'TCS', 'SBIN']);
  });
});
