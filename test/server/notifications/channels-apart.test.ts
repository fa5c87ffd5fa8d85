/**
 * A slow channel never holds back a fast one: the worker records each channel's outcomes as soon
 * as that channel's sender answers (server/src/deliveries/send.ts). On a crash day Telegram sends
 * 30 messages a second; the email and the push of the same batch must not wait for it.
 */
import { expect } from 'chai';
import type {
  ChannelSender,
  OutgoingDelivery,
  SendOutcome,
} from '../../../server/src/notifications/channel.ts';
import { waitFor } from '../../helpers/wait.ts';
import {
  addHolding,
  createRule,
  crossStop,
  listExecutions,
  publishPrices,
  rulesSuite,
} from '../rules/support.ts';
import { addEndpoint, emailEndpointOf, outboxOf, setNotices } from './support.ts';

/** A Telegram sender that answers only when the test lets it. */
function heldTelegram() {
  let release: () => void = () => undefined;
  const released = new Promise<void>((resolve) => (release = resolve));
  const handed: OutgoingDelivery[] = [];
  const sender: ChannelSender = {
    channel: 'telegram',
    maxBatch: 100,
    async send(deliveries) {
      handed.push(...deliveries);
      await released;
      return deliveries.map((): SendOutcome => ({ kind: 'sent', providerMessageId: '7' }));
    },
  };
  return { sender, handed, release };
}

describe('delivery worker: a slow channel never holds back a fast one', () => {
  const telegram = heldTelegram();
  const { app, users } = rulesSuite({
    ownDatabase: true,
    delivery: { pollMs: 50 },
    senders: () => [telegram.sender],
  });

  it('the email is SENT while Telegram is still sending; the alert settles once Telegram answers', async () => {
    const user = await users.make('advanced');
    await addEndpoint(app, user, 'telegram', { label: '@asha' });
    await crossStop(app, user, 'INFY');
    await waitFor('Telegram to be handed the alert', () => telegram.handed.length > 0);
    const [execution] = await listExecutions(app, user);
    const rows = await waitFor('the email to be recorded', async () => {
      const all = await outboxOf(app, execution!.id);
      return all.find((r) => r.channel === 'email')?.status === 'SENT' ? all : undefined;
    });
    expect(rows.find((r) => r.channel === 'telegram')!.status).to.equal('SENDING');
    expect((await listExecutions(app, user))[0]!.status).to.equal('PENDING');

    telegram.release();
    const settled = await waitFor('the alert to settle', async () => {
      const [e] = await listExecutions(app, user);
      return e?.status === 'PENDING' ? undefined : e;
    });
    expect(settled.status).to.equal('SUCCESS');
    expect((await outboxOf(app, execution!.id)).map((r) => [r.channel, r.status]).sort()).to.deep.equal([
      ['email', 'SENT'],
      ['telegram', 'SENT'],
    ]);
  });
});

/**
 * Telegram's pace (30 messages a second, a sender waiting for its slots) never holds the next
 * batch of the other channels: its rows are claimed and sent by a lane of their own (B9's
 * missed targets: the last push 848 s after a crash, emails waiting on Telegram's batches).
 * One row-pair a batch and one lane, so a lane that waited for Telegram would stall.
 */
for (const withRedis of [false, true])
  describe(`delivery worker: Telegram's pace never holds the next batch (${withRedis ? 'BullMQ' : 'polling'})`, () => {
    const telegram = heldTelegram();
    const { app, users } = rulesSuite(
      {
        ownDatabase: true,
        withRedis,
        delivery: { pollMs: 50, batchSize: 2, concurrency: 1 },
        senders: () => [telegram.sender],
      },
      () => Promise.resolve(telegram.release()),
    );

    it("another user's alert is emailed while Telegram still holds the first user's", async () => {
      const asha = await users.make('advanced');
      await addEndpoint(app, asha, 'telegram', { label: '@asha' });
      await crossStop(app, asha, 'INFY');
      await waitFor('Telegram to be handed the alert', () => telegram.handed.length > 0);

      const ravi = await users.make('basic');
      await crossStop(app, ravi, 'TCS');
      const [alert] = await waitFor('the alert of the second user', () =>
        listExecutions(app, ravi).then((l) => l.length > 0 && l),
      );
      const rows = await waitFor(
        "the second user's email to be SENT",
        async () => {
          const all = await outboxOf(app, alert!.id);
          return all.every((r) => r.status === 'SENT') && all;
        },
        10_000,
      );
      expect(rows.map((r) => r.channel)).to.deep.equal(['email']);
      const [held] = await listExecutions(app, asha);
      expect((await outboxOf(app, held!.id)).find((r) => r.channel === 'telegram')!.status).to.equal(
        'SENDING',
      );

      telegram.release();
      const settled = await waitFor('the first alert to settle', async () => {
        const [e] = await listExecutions(app, asha);
        return e?.status === 'PENDING' ? undefined : e;
      });
      expect(settled.status).to.equal('SUCCESS');
    });
  });

describe("delivery worker: one chat's notices in one slice of its sender", () => {
  const calls: OutgoingDelivery[][] = [];
  // Two rows a call: a chat's notices split over calls would be two Telegram messages.
  const sender: ChannelSender = {
    channel: 'telegram',
    maxBatch: 2,
    send(deliveries) {
      calls.push([...deliveries]);
      return Promise.resolve(deliveries.map((): SendOutcome => ({ kind: 'sent', providerMessageId: '7' })));
    },
  };
  const { app, users } = rulesSuite({ ownDatabase: true, delivery: { pollMs: 50 }, senders: () => [sender] });

  it('two users with two stops each crossed in one batch: each call of the sender holds one chat', async () => {
    const people = [await users.make('advanced'), await users.make('advanced')];
    const chats: string[] = [];
    await publishPrices(app, { INFY: 1000, TCS: 1000 });
    for (const user of people) {
      chats.push((await addEndpoint(app, user, 'telegram')).value);
      await setNotices(app, (await emailEndpointOf(app, user)).id, []);
      for (const symbol of ['INFY', 'TCS']) {
        await addHolding(app, user, symbol);
        const rule = await createRule(app, user, {
          symbol,
          trigger_type: 'FIXED_STOP_LOSS',
          trigger_value: 5,
        });
        expect(rule.status, rule.body.error).to.equal(201);
      }
    }
    await publishPrices(app, { INFY: 900, TCS: 900 });
    await waitFor('four Telegram rows handed over', () =>
      calls.flat().filter((d) => chats.includes(d.endpoint.value)).length === 4 ? true : undefined,
    );
    const ours = calls
      .map((call) => call.filter((d) => chats.includes(d.endpoint.value)))
      .filter((call) => call.length > 0);
    expect(ours.map((call) => new Set(call.map((d) => d.endpoint.value)).size)).to.deep.equal([1, 1]);
  });
});
