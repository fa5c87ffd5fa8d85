import { expect } from 'chai';
import { ClaimLanes } from '../../../server/src/triggers/claim-lanes.ts';
import type { Crossing } from '../../../server/src/triggers/rule-index.ts';

/** A stop of `userId` on `symbol` that crossed (the fields the lanes read). */
const crossing = (id: string, userId: string, symbol: string, triggerType = 'FIXED_STOP_LOSS'): Crossing =>
  ({ entry: { id, userId, symbol, exchange: 'NSE', triggerType }, ltp: 100 }) as unknown as Crossing;

describe('claim lanes: a notice is claimed in one chunk', () => {
  it("queues a user's crossings of one stock together, at the first one's place, and never splits them", async () => {
    const chunks: string[][] = [];
    const lanes = new ClaimLanes(1, 2, async (chunk) => {
      chunks.push(chunk.map((c) => c.entry.id));
    });
    await lanes.push([
      crossing('a1', 'alice', 'HDFCBANK'),
      crossing('b1', 'bob', 'HDFCBANK'),
      crossing('a2', 'alice', 'INFY'),
      crossing('a3', 'alice', 'HDFCBANK'),
      crossing('a4', 'alice', 'HDFCBANK'),
      crossing('a5', 'alice', 'HDFCBANK', 'TAKE_PROFIT'),
    ]);
    expect(chunks).to.deep.equal([['a1', 'a3', 'a4'], ['b1', 'a2'], ['a5']]);
  });

  it("lets users take turns: one user's many crossings do not queue ahead of everyone else's", async () => {
    const chunks: string[][] = [];
    const lanes = new ClaimLanes(1, 2, async (chunk) => {
      chunks.push(chunk.map((c) => c.entry.id));
    });
    const stocks = ['ITC', 'INFY', 'TCS', 'SBIN', 'LT', 'WIPRO'];
    await lanes.push([
      ...stocks.map((symbol, i) => crossing(`a${i + 1}`, 'alice', symbol)),
      crossing('b1', 'bob', 'ITC'),
      crossing('c1', 'carol', 'ITC'),
    ]);
    expect(chunks).to.deep.equal([
      ['a1', 'b1'],
      ['c1', 'a2'],
      ['a3', 'a4'],
      ['a5', 'a6'],
    ]);
  });
});
