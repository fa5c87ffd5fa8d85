import { expect } from 'chai';
import { DraftStore } from '../../client/src/routes/holdings/rules/draftStore.ts';
import { newDraft } from '../../client/src/routes/holdings/rules/ruleDrafts.ts';

const a = newDraft({ symbol: 'A', exchange: 'NSE', accountId: '1' });
const b = newDraft({ symbol: 'B', exchange: 'NSE', accountId: '1' });

describe('client: draft store', () => {
  it('holds one draft per row, replaced (not mutated) on change, and notifies', () => {
    const store = new DraftStore();
    let calls = 0;
    store.subscribe(() => (calls += 1));
    store.add([a, b]);
    store.add([{ ...a, triggerValue: '9' }]);
    expect(store.get(a.key)?.triggerValue).to.equal('7');
    const before = store.get(a.key);
    const list = store.list();
    expect(store.list()).to.equal(list);
    store.update(a.key, { triggerValue: '12.5', error: 'x' });
    expect(store.get(a.key)).to.not.equal(before);
    expect(store.get(a.key)).to.include({ triggerValue: '12.5', error: 'x', saving: false });
    expect(store.get(b.key)).to.equal(list[1]);
    expect(store.list()).to.not.equal(list);
    store.keepOnly((draft) => draft.symbol === 'B');
    expect(store.list().map((d) => d.key)).to.deep.equal([b.key]);
    expect(calls).to.equal(3);
  });

  it('highlights rows until cleared', () => {
    const store = new DraftStore();
    store.highlight([a.key]);
    expect(store.isHighlighted(a.key)).to.equal(true);
    expect(store.isHighlighted(b.key)).to.equal(false);
    store.clearHighlight();
    expect(store.isHighlighted(a.key)).to.equal(false);
  });
});
