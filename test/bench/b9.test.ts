import { expect } from 'chai';
import { b9, b9Size } from '../../bench/benchmarks/b9.ts';
import { expectWellFormed, quickContext } from './helpers.ts';

describe('bench B9 (quick): crash day on every channel', function () {
  // Two crash runs of a server process with three channels: minutes on a loaded 2-core machine.
  this.timeout(600_000);

  it("reads its size from the environment: B8's figures under B9_ names, one instance, the phones' wait", () => {
    const mid = b9Size(false, { B9_SIZE: 'mid', B9_USERS: '100', B9_CROSSINGS: '2000' });
    expect(mid).to.include({ users: 100, crossings: 2000, rules: 50_000, phoneWaitS: 65 });
    expect(mid.instances).to.deep.equal([1]);
    expect(mid.paths).to.deep.equal(['set-based']);
    // Full: 30,000 users at 30 messages a second is a 1,000 s floor; the wait is 1.5 × it and a minute.
    expect(b9Size(false, {}).phoneWaitS).to.equal(1560);
    expect(b9Size(false, { B9_INSTANCES: '1,2' }).instances).to.deep.equal([1, 2]);
    expect(() => b9Size(false, { B9_INSTANCES: '3' })).to.throw('B9_INSTANCES must list 1 and/or 2');
    expect(() => b9Size(false, { B9_PHONE_WAIT_S: 'long' })).to.throw(
      'B9_PHONE_WAIT_S must be a positive integer',
    );
  });

  it("pushes, messages on Telegram and emails every alert once, and still meets B8's checks", async () => {
    const ctx = await quickContext();
    const { results, evidence } = await b9.run(ctx);
    const ids = ['push', 'telegram', 'once-webpush', 'once-telegram', 'once-email'].map((m) => `B9-${m}-1`);
    const crash = ['lost', 'alert-p99', 'executions', 'emails', 'next-batch', 'loop-p99', 'health'].map(
      (m) => `B9-${m}-1`,
    );
    expectWellFormed(results, [...ids, ...crash]);
    expect(evidence.runs.map((r) => r.channels)).to.deep.equal(['every', 'email']);
    for (const { channels, run } of evidence.runs) {
      expect([run.executions, run.rulesFired, run.wrongRulesFired], channels).to.deep.equal([200, 200, 0]);
      expect([run.lostAlerts, run.duplicateAlerts, run.unexpectedAlerts], channels).to.deep.equal([0, 0, 0]);
      expect(run.expectedEmails, channels).to.be.greaterThan(0);
      expect(run.emails, channels).to.equal(run.expectedEmails);
      expect(run.nextReached, channels).to.equal(run.sockets);
      expect(run.healthFailures, channels).to.equal(0);
    }
    const every = evidence.runs[0]!.phones!;
    const emailOnly = evidence.runs[1]!;
    expect(emailOnly.phones).to.equal(undefined);
    // Every user with a crossing has a push per alert and one Telegram chat; each arrived once.
    expect(every.telegramChats).to.be.greaterThan(0);
    expect(every.pushRows).to.be.at.least(every.telegramChats);
    expect(every.pushes).to.include({ accepted: every.pushRows, doubled: 0, refused: 0, undecryptable: 0 });
    // Every chat reached, no stranger, one message each: a chat's notices are claimed together.
    expect(every.telegram).to.include({ chats: every.telegramChats, strangers: 0 });
    expect(every.telegram.messages).to.equal(every.telegramChats);
    expect(every.pushMs).to.be.a('number');
    expect(every.telegramMs).to.be.a('number');
    const once = results.filter((r) => r.id.startsWith('B9-once-'));
    expect(once.map((r) => [r.id, r.value])).to.deep.equal(once.map((r) => [r.id, 0]));
  });
});
