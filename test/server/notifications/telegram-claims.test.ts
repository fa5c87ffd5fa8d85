/**
 * A crash's claims commit in chunks, and a user's notices fall in several of them (users take
 * turns in the claim lanes). Telegram's lane waits for the claims to the end, however long they
 * take, so the chat gets ONE message listing every crossing; the email lane waits only briefly,
 * so an email never sits behind a slow commit. B9 found the miss: a 14.5 s commit past the old
 * shared 10 s wait sent 161 chats two messages.
 */
import { expect } from 'chai';
import { signIn } from '../../helpers/users.ts';
import { sleep } from '../../helpers/wait.ts';
import { telegramSuite } from '../../helpers/telegram-suite.ts';
import { forgetUsers, publishPrices } from '../rules/support.ts';
import { armStop, claimWaitingOnLock, holdRowLock, publish } from '../rules/firing-support.ts';
import { badges, connectTelegram, executionOf } from './e2e-support.ts';

describe('Telegram waits for a crash’s claims to the end: one message per user', function () {
  this.timeout(60_000);
  const FAST_WAIT_MS = 200;
  const { app, fake } = telegramSuite({
    embeddedStreamer: false,
    // One notice a chunk: the user's two notices commit in two transactions.
    rulesEngine: { claimChunkSize: 1 },
    delivery: { pollMs: 50, claimsWaitMs: { fast: FAST_WAIT_MS } },
  });

  it('the second notice’s claim held well past the email lane’s wait: the email of the first goes, Telegram waits and then sends one message listing both', async () => {
    const user = await signIn(app, { tier: 'advanced' });
    try {
      const chat = 760_000_000 + Math.floor(Math.random() * 1_000_000);
      await connectTelegram(app, fake, user, chat);
      const ruleIds: string[] = [];
      await publishPrices(app, { WIPRO: 1000, TECHM: 1000 });
      for (const symbol of ['WIPRO', 'TECHM']) ruleIds.push((await armStop(app, user, symbol)).id);
      const databaseUrl = app.runtime.deps.config.DATABASE_URL!;
      const lock = await holdRowLock(databaseUrl, 'position_rules', ruleIds[1]!);
      let released = false;
      try {
        // Not waited for: the pipeline is idle only once the held claim is done.
        await publish(app, { WIPRO: 900, TECHM: 900 });
        await claimWaitingOnLock({ url: databaseUrl });
        // The first notice committed: its email goes after the fast lane's short wait.
        await executionOf(app, user, 'WIPRO', (e) => badges(e).includes('email sent'), 'WIPRO’s email sent');
        // Ten times the email lane's wait, the paced lane polling every 50 ms: nothing on Telegram.
        await sleep(FAST_WAIT_MS * 10);
        const early = fake.messagesTo(chat).filter((m) => !m.text.startsWith('Connected'));
        expect(early.map((m) => m.text)).to.deep.equal([]);
        released = true;
        await lock.release();
      } finally {
        if (!released) await lock.release();
      }

      for (const symbol of ['WIPRO', 'TECHM'])
        expect(
          badges(await executionOf(app, user, symbol, (e) => badges(e).includes('telegram sent'))),
        ).to.deep.equal(['email sent', 'telegram sent']);
      const alerts = fake.messagesTo(chat).filter((m) => !m.text.startsWith('Connected'));
      expect(alerts).to.have.length(1);
      expect(alerts[0]!.text).to.include('WIPRO stop loss hit').and.to.include('TECHM stop loss hit');
    } finally {
      await forgetUsers(app, [user]);
    }
  });
});
