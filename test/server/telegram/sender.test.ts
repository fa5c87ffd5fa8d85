import { parseConfig } from '@app/config';
import { expect } from 'chai';
import { Redis } from 'ioredis';
import { pino } from 'pino';
import type { NoticeText, OutgoingDelivery, SendOutcome } from '../../../server/src/notifications/channel.ts';
import { createTelegramSender } from '../../../server/src/channels/telegram/sender.ts';
import { createTelegramLimiter } from '../../../server/src/channels/telegram/rate-limit.ts';
import { startFakeTelegram, TELEGRAM_ERRORS, type FakeTelegram } from '../../helpers/fake-telegram.ts';
import { captureLog } from '../../helpers/log.ts';
import { testServices } from '../../helpers/root-hooks.ts';

let nextChat = 800_000_000 + Math.floor(Math.random() * 1_000_000) * 100;
const newChat = () => ++nextChat;

function notice(symbol: string, title: string, body: string): NoticeText {
  return {
    kind: 'alert',
    title,
    body,
    url: `https://app.example.in/holdings?symbol=${encodeURIComponent(symbol)}`,
    tag: `rule-${symbol}`,
    protective: true,
    symbol,
  };
}

let nextDelivery = 0;
function delivery(chatId: number, text: NoticeText): OutgoingDelivery {
  nextDelivery++;
  return {
    id: `d-${nextDelivery}`,
    executionId: `e-${nextDelivery}`,
    userId: `u-${chatId}`,
    attempts: 1,
    endpoint: { id: `ep-${chatId}`, value: String(chatId), label: '@asha', meta: null },
    text,
  };
}

const MM = notice('M&M', 'M&M stop loss hit', '₹2,810.40 crossed ₹2,820.00 · 10:41 IST');
const JK = notice('J&KBANK', 'J&KBANK target reached', '₹112.35 crossed ₹110.00 · 10:42 IST');
const INFY = notice('INFY', 'INFY stop loss hit', '₹1,234.50 crossed ₹1,240.00 · 10:41 IST <via NSE>');

describe('Telegram sender against the fake Bot API', function () {
  this.timeout(60_000);
  let fake: FakeTelegram;
  const config = () => parseConfig({ NODE_ENV: 'test', ...fake.env });
  const sender = (options: Parameters<typeof createTelegramSender>[1] = {}) =>
    createTelegramSender({ config: config(), log: pino({ level: 'silent' }) }, options);

  before(async () => {
    fake = await startFakeTelegram();
  });
  after(() => fake.close());
  beforeEach(() => fake.reset());

  it('sends a chat one HTML message listing all its notices, M&M and J&KBANK arriving as written', async () => {
    const chat = newChat();
    fake.setChat(chat, 'active');
    const outcomes = await sender().send([delivery(chat, MM), delivery(chat, JK), delivery(chat, INFY)]);
    const [message, ...more] = fake.messagesTo(chat);
    expect(more).to.have.length(0);
    expect(message!.parseMode).to.equal('HTML');
    expect(message!.text).to.equal(
      'M&M stop loss hit\n₹2,810.40 crossed ₹2,820.00 · 10:41 IST\n\n' +
        'J&KBANK target reached\n₹112.35 crossed ₹110.00 · 10:42 IST\n\n' +
        'INFY stop loss hit\n₹1,234.50 crossed ₹1,240.00 · 10:41 IST <via NSE>',
    );
    expect(
      message!.entities.filter((e) => e.type === 'bold').map((e) => message!.text.substr(e.offset, e.length)),
    ).to.deep.equal(['M&M stop loss hit', 'J&KBANK target reached', 'INFY stop loss hit']);
    expect(message!.linkPreviewDisabled).to.equal(true);
    expect(message!.replyMarkup!.inline_keyboard!.flat()).to.deep.equal([
      { text: 'Open M&M', url: MM.url },
      { text: 'Open J&KBANK', url: JK.url },
      { text: 'Open INFY', url: INFY.url },
    ]);
    const sent: SendOutcome = { kind: 'sent', providerMessageId: String(message!.messageId) };
    expect(outcomes).to.deep.equal([sent, sent, sent]);
  });

  it('one notice gets one "Open" button to its page', async () => {
    const chat = newChat();
    fake.setChat(chat, 'active');
    await sender().send([delivery(chat, MM)]);
    const [message] = fake.messagesTo(chat);
    expect(message!.text).to.equal('M&M stop loss hit\n₹2,810.40 crossed ₹2,820.00 · 10:41 IST');
    expect(message!.replyMarkup!.inline_keyboard).to.deep.equal([[{ text: 'Open', url: MM.url }]]);
  });

  it('a batch for three chats is three messages, each outcome its own chat message id', async () => {
    const [a, b, c] = [newChat(), newChat(), newChat()];
    for (const chat of [a, b, c]) fake.setChat(chat, 'active');
    const outcomes = await sender().send([
      delivery(a, MM),
      delivery(b, JK),
      delivery(a, INFY),
      delivery(c, MM),
    ]);
    expect(fake.messages).to.have.length(3);
    const id = (chat: number) => String(fake.messagesTo(chat)[0]!.messageId);
    expect(outcomes.map((o) => (o.kind === 'sent' ? o.providerMessageId : o.kind))).to.deep.equal([
      id(a),
      id(b),
      id(a),
      id(c),
    ]);
  });

  it('splits a list over 4,096 characters into several messages, a second apart, every notice once', async () => {
    const chat = newChat();
    fake.setChat(chat, 'active');
    const notices = Array.from({ length: 40 }, (_, i) =>
      notice(
        `SYM${i}`,
        `SYM${i} stop loss hit`,
        `₹${i},234.50 crossed ₹${i},240.00 · 10:41 IST ${'·'.repeat(120)}`,
      ),
    );
    const outcomes = await sender().send(notices.map((n) => delivery(chat, n)));
    const messages = fake.messagesTo(chat);
    expect(messages.length).to.be.at.least(2);
    for (const m of messages) expect(m.text.length).to.be.at.most(4096);
    const titles = messages.flatMap((m) =>
      m.text.split('\n').filter((line) => line.endsWith('stop loss hit')),
    );
    expect(titles).to.deep.equal(notices.map((n) => n.title));
    expect(messages[1]!.at - messages[0]!.at).to.be.at.least(1000);
    expect(fake.throttled).to.deep.equal([]);
    expect(new Set(outcomes.map((o) => o.kind))).to.deep.equal(new Set(['sent']));
  });

  it('a 429 is a throttled retry after exactly parameters.retry_after seconds', async () => {
    const chat = newChat();
    fake.setChat(chat, 'active');
    fake.inject({ status: 429, retryAfter: 7, chatId: String(chat) });
    const outcomes = await sender().send([delivery(chat, MM), delivery(chat, JK)]);
    const retry: SendOutcome = {
      kind: 'retry',
      reason: `Telegram 429: ${TELEGRAM_ERRORS.tooManyRequests(7)}`,
      afterMs: 7000,
      throttled: true,
    };
    expect(outcomes).to.deep.equal([retry, retry]);
    expect(fake.messagesTo(chat)).to.deep.equal([]);
  });

  it("a blocked, deleted, never started or unknown chat is gone, with Telegram's words", async () => {
    const cases = [
      ['blocked', TELEGRAM_ERRORS.blocked, 403],
      ['deactivated', TELEGRAM_ERRORS.deactivated, 403],
      ['never_started', TELEGRAM_ERRORS.cantInitiate, 403],
      ['unknown', TELEGRAM_ERRORS.chatNotFound, 400],
    ] as const;
    for (const [state, description, code] of cases) {
      const chat = newChat();
      fake.setChat(chat, state);
      const outcomes = await sender().send([delivery(chat, MM)]);
      expect(outcomes, state).to.deep.equal([{ kind: 'gone', reason: `Telegram ${code}: ${description}` }]);
    }
  });

  it('a parse error is resent once as plain text; a second one fails for good', async () => {
    const chat = newChat();
    fake.setChat(chat, 'active');
    const parseError = 'Bad Request: can\'t parse entities: Unsupported start tag "x" at byte offset 4';
    fake.inject({ status: 400, description: parseError, chatId: String(chat) });
    const [outcome] = await sender().send([delivery(chat, MM)]);
    const sends = fake.sendsTo(chat);
    expect(sends.map((c) => c.params.parse_mode)).to.deep.equal(['HTML', undefined]);
    const [message] = fake.messagesTo(chat);
    expect(message!.text).to.equal('M&M stop loss hit\n₹2,810.40 crossed ₹2,820.00 · 10:41 IST');
    expect(outcome).to.deep.equal({ kind: 'sent', providerMessageId: String(message!.messageId) });

    const other = newChat();
    fake.setChat(other, 'active');
    fake.inject(
      { status: 400, description: parseError, chatId: String(other) },
      { status: 400, description: parseError, chatId: String(other) },
    );
    expect(await sender().send([delivery(other, JK)])).to.deep.equal([
      { kind: 'failed', reason: `Telegram 400: ${parseError}` },
    ]);
    expect(fake.sendsTo(other)).to.have.length(2);
  });

  it('a wrong token fails for good and is logged as configuration', async () => {
    const chat = newChat();
    fake.setChat(chat, 'active');
    const { log, lines } = captureLog();
    const wrong = createTelegramSender({
      config: parseConfig({ NODE_ENV: 'test', ...fake.env, TELEGRAM_BOT_TOKEN: '7000000001:AAWrongToken' }),
      log,
    });
    expect(await wrong.send([delivery(chat, MM)])).to.deep.equal([
      { kind: 'failed', reason: 'Telegram 401: Unauthorized' },
    ]);
    expect(lines.some((l) => l.level >= 50 && /TELEGRAM_BOT_TOKEN/.test(l.msg))).to.equal(true);
  });

  it('a 5xx, and no answer within the timeout, are retried later', async () => {
    const chat = newChat();
    fake.setChat(chat, 'active');
    fake.inject({ status: 502, chatId: String(chat) });
    const [five] = await sender().send([delivery(chat, MM)]);
    expect(five).to.deep.equal({ kind: 'retry', reason: 'Telegram 502: Internal Server Error' });
    fake.inject({ status: 200, delayMs: 1500, chatId: String(chat) });
    const [slow] = await sender({ timeoutMs: 300 }).send([delivery(chat, MM)]);
    expect(slow).to.deep.equal({ kind: 'retry', reason: 'Telegram: no answer within 0.3 s' });
  });

  describe('limits across instances', () => {
    let redis: Redis;
    before(() => {
      redis = new Redis(testServices().redisUrl);
    });
    after(() => redis.quit());

    it('two senders sharing Redis keep 1 a second per chat and 30 a second in all', async () => {
      const one = sender({ limiter: createTelegramLimiter({ redis, botId: 'limits-shared' }) });
      const two = sender({ limiter: createTelegramLimiter({ redis, botId: 'limits-shared' }) });
      const chats = Array.from({ length: 40 }, newChat);
      for (const chat of chats) fake.setChat(chat, 'active');
      const shared = chats[0]!;
      const started = Date.now();
      const [a, b] = await Promise.all([
        one.send([...chats.slice(0, 20).map((c) => delivery(c, MM))]),
        two.send([...chats.slice(20).map((c) => delivery(c, JK)), delivery(shared, INFY)]),
      ]);
      expect(fake.throttled).to.deep.equal([]);
      expect([...a, ...b].every((o) => o.kind === 'sent')).to.equal(true);
      expect(fake.messages).to.have.length(41);
      // 41 messages at most 28 a second: at least 40 gaps of 1/28 s.
      expect(Date.now() - started).to.be.at.least(Math.floor((40 * 1000) / 28) - 5);
      const [first, second] = fake.messagesTo(shared);
      expect(second!.at - first!.at).to.be.at.least(1000);
    });

    it('a slot further than the sender will wait is a throttled retry with the wait', async () => {
      const limiter = createTelegramLimiter({ redis, botId: `limits-wait-${Date.now()}` });
      const chat = newChat();
      fake.setChat(chat, 'active');
      const patient = sender({ limiter });
      const hasty = sender({ limiter, maxSlotWaitMs: 200 });
      await patient.send([delivery(chat, MM)]);
      const [outcome] = await hasty.send([delivery(chat, JK)]);
      expect(outcome!.kind).to.equal('retry');
      const retry = outcome as Extract<SendOutcome, { kind: 'retry' }>;
      expect(retry.throttled).to.equal(true);
      expect(retry.afterMs).to.be.within(800, 1100);
      expect(fake.messagesTo(chat)).to.have.length(1);
    });

    it('the fake catches senders that do not share their limits', async () => {
      const one = sender({ limiter: createTelegramLimiter({ botId: 'own-1' }) });
      const two = sender({ limiter: createTelegramLimiter({ botId: 'own-2' }) });
      const chat = newChat();
      fake.setChat(chat, 'active');
      const outcomes = await Promise.all([one.send([delivery(chat, MM)]), two.send([delivery(chat, JK)])]);
      expect(fake.throttled).to.have.length(1);
      expect(
        outcomes
          .flat()
          .map((o) => o.kind)
          .sort(),
      ).to.deep.equal(['retry', 'sent']);
    });
  });
});
