/**
 * What every broker stream shares (streamer/src/streams/{backoff,watchdog,subscriptions}.ts):
 * reconnect delays (used by every broker's connection), the heartbeat watchdog, subscription diffs
 * and the spread over connections.
 */
import { expect } from 'chai';
import { backoffDelay } from '../../../streamer/src/streams/backoff.ts';
import { diffSubscriptions, placedOn, planConnections } from '../../../streamer/src/streams/subscriptions.ts';
import { startHeartbeatWatchdog } from '../../../streamer/src/streams/watchdog.ts';
import { sleep } from '../helpers.ts';

describe('streams: reconnect back-off (every broker connection)', () => {
  it('doubles its ceiling from the base up to the cap', () => {
    const highest = (attempt: number) => backoffDelay(attempt, 1000, 30_000, () => 0.999999);
    expect(Array.from({ length: 8 }, (_, attempt) => highest(attempt))).to.deep.equal([
      1000, 2000, 4000, 8000, 16_000, 30_000, 30_000, 30_000,
    ]);
  });

  it('waits between half and all of the ceiling, spread over that range', () => {
    const delays = Array.from({ length: 200 }, () => backoffDelay(5, 1000, 30_000));
    expect(Math.min(...delays))
      .to.be.at.least(15_000)
      .and.below(18_000);
    expect(Math.max(...delays))
      .to.be.above(27_000)
      .and.at.most(30_000);
  });
});

describe('streams: heartbeat watchdog', () => {
  it('fires once after the silence, not while frames keep coming', async () => {
    const fired: number[] = [];
    const dog = startHeartbeatWatchdog({ silenceMs: 100, onSilence: (ms) => fired.push(ms) });
    for (let i = 0; i < 6; i++) {
      await sleep(40);
      dog.feed();
    }
    expect(fired, 'frames every 40 ms keep it quiet').to.deep.equal([]);
    await sleep(200);
    expect(fired).to.have.length(1);
    expect(fired[0]).to.be.at.least(100);
    await sleep(150);
    expect(fired, 'once').to.have.length(1);
  });

  it('never fires once stopped', async () => {
    let fired = false;
    const dog = startHeartbeatWatchdog({ silenceMs: 50, onSilence: () => (fired = true) });
    dog.stop();
    await sleep(120);
    expect(fired).to.equal(false);
  });
});

describe('streams: subscription diffs and connection plans', () => {
  it('subscribes what is new and unsubscribes what went, in messages of at most the maximum', () => {
    const diff = diffSubscriptions([1, 2, 3, 4], [3, 4, 5, 6, 7, 8, 9], 2);
    expect(diff.subscribe).to.deep.equal([[5, 6], [7, 8], [9]]);
    expect(diff.unsubscribe).to.deep.equal([[1, 2]]);
    expect(diffSubscriptions(['a'], ['a'], 100)).to.deep.equal({ subscribe: [], unsubscribe: [] });
  });

  it('spreads instruments over the connections allowed, the rest overflowing', () => {
    const items = Array.from({ length: 7 }, (_, i) => `K${i}`);
    const plan = planConnections(items, { perConnection: 3, connections: 2 }, (k) => k);
    expect(plan.connections).to.deep.equal([
      ['K0', 'K1', 'K2'],
      ['K3', 'K4', 'K5'],
    ]);
    expect(plan.overflow).to.deep.equal(['K6']);
    expect(planConnections([], { perConnection: 3, connections: 2 }, (k) => k)).to.deep.equal({
      connections: [],
      overflow: [],
    });
  });

  it('keeps an instrument on its connection when the set changes', () => {
    const limits = { perConnection: 2, connections: 3 };
    const first = planConnections(['A', 'B', 'C'], limits, (k) => k);
    expect(first.connections).to.deep.equal([['A', 'B'], ['C']]);
    // A goes; D and E come: B and C stay where they were, the newcomers fill the gaps.
    const second = planConnections(['B', 'C', 'D', 'E'], limits, (k) => k, placedOn(first.connections));
    expect(second.connections).to.deep.equal([
      ['B', 'D'],
      ['C', 'E'],
    ]);
    expect(second.overflow).to.deep.equal([]);
  });
});
