/**
 * The change feed's one consumer table (server/src/events/consumers.ts): what each change does
 * to this instance's engine, caches, watch set and sockets, here and when it came from another
 * instance. The targets record what they are asked to do.
 */
import type { ApiRuleExecution } from '@app/common/api/rules';
import { expect } from 'chai';
import { createChangeFeed } from '../../../server/src/events/change-feed.ts';
import { applyChanges, consumeChanges, type ChangeTargets } from '../../../server/src/events/consumers.ts';

function recordingTargets() {
  const calls: string[] = [];
  const note =
    (name: string) =>
    (...args: unknown[]) =>
      void calls.push(
        [name, ...args.map((a) => (typeof a === 'object' ? JSON.stringify(a) : String(a)))].join(' '),
      );
  const targets: ChangeTargets = {
    engine: {
      userChanged: note('engine.reload'),
      firedElsewhere: note('engine.drop'),
      resync: note('engine.resync'),
    },
    holdings: { invalidate: note('holdings.drop'), clear: note('holdings.clear') },
    sessions: {
      ended: note('sessions.end'),
      revoked: note('sessions.revoke'),
      clear: note('sessions.clear'),
    },
    watchers: { refresh: note('watchers.refresh'), refreshAll: note('watchers.refreshAll') },
    watchSet: { userChanged: note('watchSet.diff'), rebuild: note('watchSet.rebuild') },
    feedCredentials: { refresh: note('feedCredentials.refresh') },
    sockets: {
      emit: note('push'),
      disconnectUser: note('disconnect.user'),
      disconnectSession: note('disconnect.session'),
      resyncAll: note('push.resync'),
    },
    log: { error: note('error') },
  };
  return { calls, targets };
}

const fired = {
  id: 'e1',
  rule_id: 'r1',
  price_alert_id: null,
  executed_at: '2024-06-04T04:00:00.000Z',
} as ApiRuleExecution;

describe('change feed: the consumer table', () => {
  it('a holdings change drops the cached list, reloads the watchers and pushes; the watch set once, where it committed', () => {
    const here = recordingTargets();
    applyChanges([{ type: 'holdings', userId: 'u1' }], here.targets, 'local');
    expect(here.calls).to.deep.equal([
      'holdings.drop u1',
      'watchers.refresh u1',
      'watchSet.diff u1',
      'push u1 holdings:changed',
    ]);
    const there = recordingTargets();
    applyChanges([{ type: 'holdings', userId: 'u1' }], there.targets, 'remote');
    expect(there.calls).to.deep.equal([
      'holdings.drop u1',
      'watchers.refresh u1',
      'push u1 holdings:changed',
    ]);
  });

  it('a rules change reloads the engine and pushes rules:changed', () => {
    const there = recordingTargets();
    applyChanges([{ type: 'rules', userId: 'u1' }], there.targets, 'remote');
    expect(there.calls).to.deep.equal(['engine.reload u1', 'watchers.refresh u1', 'push u1 rules:changed']);
  });

  it('a firing pushes one alert and reloads nothing; another instance drops the fired entry', () => {
    const here = recordingTargets();
    applyChanges([{ type: 'executions', userId: 'u1', fired }], here.targets, 'local');
    expect(here.calls).to.deep.equal([`push u1 alert ${JSON.stringify({ execution: fired })}`]);
    const there = recordingTargets();
    applyChanges([{ type: 'executions', userId: 'u1', fired }], there.targets, 'remote');
    expect(there.calls).to.deep.equal([
      `engine.drop r1 ${Date.parse(fired.executed_at)}`,
      `push u1 alert ${JSON.stringify({ execution: fired })}`,
    ]);
  });

  it('a settled email pushes its status only', () => {
    const there = recordingTargets();
    applyChanges(
      [{ type: 'executions', userId: 'u1', settled: { id: 'e1', status: 'SUCCESS' } }],
      there.targets,
      'remote',
    );
    expect(there.calls).to.deep.equal(['push u1 execution:status {"id":"e1","status":"SUCCESS"}']);
  });

  it('a logout ends that session here; logout-all every session of the user', () => {
    const t = recordingTargets();
    applyChanges(
      [
        { type: 'sessions', userId: 'u1', sessionId: 's1' },
        { type: 'sessions', userId: 'u2' },
        { type: 'endpoints', userId: 'u3' },
      ],
      t.targets,
      'remote',
    );
    expect(t.calls).to.deep.equal([
      'sessions.end u1 s1',
      'disconnect.session s1',
      'sessions.revoke u2',
      'disconnect.user u2',
      'push u3 endpoints:changed',
    ]);
  });

  it("a broker connection's change republishes the feed's token once, where it committed", () => {
    const here = recordingTargets();
    applyChanges([{ type: 'brokers', userId: 'u1' }], here.targets, 'local');
    expect(here.calls).to.deep.equal(['feedCredentials.refresh']);
    const there = recordingTargets();
    applyChanges([{ type: 'brokers', userId: 'u1' }], there.targets, 'remote');
    expect(there.calls).to.deep.equal([]);
  });

  it('one change failing does not stop the rest of its message', () => {
    const t = recordingTargets();
    t.targets.holdings.invalidate = () => {
      throw new Error('boom');
    };
    applyChanges(
      [
        { type: 'holdings', userId: 'u1' },
        { type: 'endpoints', userId: 'u2' },
      ],
      t.targets,
      'local',
    );
    expect(t.calls.at(-1)).to.equal('push u2 endpoints:changed');
    expect(t.calls.some((c) => c.startsWith('error'))).to.equal(true);
  });

  it('through a feed without Redis: a publish reaches the table before it returns', () => {
    const feed = createChangeFeed();
    const t = recordingTargets();
    consumeChanges(feed, t.targets);
    void feed.publish([
      { type: 'rules', userId: 'u1' },
      { type: 'holdings', userId: 'u1' },
    ]);
    expect(t.calls).to.include('engine.reload u1').and.to.include('holdings.drop u1');
  });
});
