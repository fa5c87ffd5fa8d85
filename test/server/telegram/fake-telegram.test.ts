/**
 * The fake Bot API answers as Telegram does (test/helpers/fake-telegram.ts): the recorded answers
 * in `data/samples/telegram/`, its strict HTML, its limits, its envelope for JSON, form and query
 * parameters. The other Telegram tests trust it.
 */
import { expect } from 'chai';
import { readShared } from '../../helpers/shared-data.ts';
import { startFakeTelegram, type FakeTelegram } from '../../helpers/fake-telegram.ts';

const sample = (name: string) => JSON.parse(readShared(`data/samples/telegram/${name}`)) as unknown;

describe('the fake Telegram Bot API', () => {
  let fake: FakeTelegram;
  let chat = 900_000_000 + Math.floor(Math.random() * 1_000_000) * 100;
  before(async () => {
    fake = await startFakeTelegram();
  });
  after(() => fake.close());
  beforeEach(() => fake.reset());

  async function call(method: string, params: Record<string, unknown>, token = fake.token) {
    const res = await fetch(`${fake.url}/bot${token}/${method}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(params),
    });
    return { status: res.status, body: (await res.json()) as Record<string, unknown> };
  }
  const started = () => {
    chat++;
    fake.setChat(chat, 'active');
    return chat;
  };

  it("answers 429 and a deleted account's 403 word for word as recorded, with the status equal to error_code", async () => {
    const a = started();
    fake.inject({ status: 429, retryAfter: 14 });
    expect(await call('sendMessage', { chat_id: a, text: 'x' })).to.deep.equal({
      status: 429,
      body: sample('nutgram_Responses_too_many_requests.json'),
    });
    fake.setChat(a, 'deactivated');
    expect(await call('sendMessage', { chat_id: a, text: 'x' })).to.deep.equal({
      status: 403,
      body: sample('nutgram_Responses_user_deactivated.json'),
    });
    const b = started();
    expect(await call('sendMessage', { chat_id: b, text: 'x'.repeat(4097) })).to.deep.equal({
      status: 400,
      body: sample('nutgram_Responses_too_long.json'),
    });
  });

  it('parses HTML strictly: a bare & or an unknown tag is a parse error, escaped text arrives plain', async () => {
    const a = started();
    const refused = async (text: string) =>
      (await call('sendMessage', { chat_id: a, text, parse_mode: 'HTML' })).body;
    expect(await refused('M&M stop loss hit')).to.deep.equal({
      ok: false,
      error_code: 400,
      description: `Bad Request: can't parse entities: unescaped "&" at byte offset 1`,
    });
    expect((await refused('<blink>INFY</blink>')).description).to.equal(
      `Bad Request: can't parse entities: Unsupported start tag "blink" at byte offset 0`,
    );
    expect((await refused('₹ <b>INFY')).description).to.equal(
      `Bad Request: can't parse entities: Can't find end of the entity starting at byte offset 4`,
    );
    expect((await refused('1 < 2')).description).to.match(/^Bad Request: can't parse entities: /);
    const ok = await call('sendMessage', {
      chat_id: a,
      text: '<b>M&amp;M &lt;NSE&gt;</b> &#8377;2,810',
      parse_mode: 'HTML',
    });
    expect(ok.status).to.equal(200);
    const result = ok.body.result as { text: string; entities: unknown[] };
    expect(result.text).to.equal('M&M <NSE> ₹2,810');
    expect(result.entities).to.deep.equal([{ type: 'bold', offset: 0, length: 9 }]);
  });

  it('takes form and query parameters and any case of the method name; a wrong token is 401', async () => {
    const a = started();
    const form = await fetch(`${fake.url}/bot${fake.token}/SENDMESSAGE`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ chat_id: String(a), text: 'hello' }),
    });
    expect(form.status).to.equal(200);
    expect(fake.messagesTo(a).map((m) => m.text)).to.deep.equal(['hello']);
    const me = await fetch(`${fake.url}/bot${fake.token}/getme`);
    expect(((await me.json()) as { result: { username: string } }).result.username).to.equal(fake.username);
    expect(await call('getMe', {}, '123:wrong')).to.deep.equal({
      status: 401,
      body: { ok: false, error_code: 401, description: 'Unauthorized' },
    });
  });

  it("keeps Telegram's limits: a second message to a chat within a second, or a 31st in a second, is 429", async () => {
    const a = started();
    expect((await call('sendMessage', { chat_id: a, text: 'one' })).status).to.equal(200);
    expect(await call('sendMessage', { chat_id: a, text: 'two' })).to.deep.equal({
      status: 429,
      body: {
        ok: false,
        error_code: 429,
        description: 'Too Many Requests: retry after 1',
        parameters: { retry_after: 1 },
      },
    });
    const chats = Array.from({ length: 30 }, started);
    const statuses = await Promise.all(chats.map((c) => call('sendMessage', { chat_id: c, text: 'x' })));
    expect(statuses.filter((s) => s.status === 429)).to.have.length(1);
    expect(fake.throttled).to.have.length(2);
  });

  it('refuses getUpdates while a webhook is set', async () => {
    expect((await call('setWebhook', { url: 'https://a.example/api/telegram/webhook' })).body).to.include({
      ok: true,
      result: true,
    });
    expect((await call('getUpdates', {})).body).to.deep.equal({
      ok: false,
      error_code: 409,
      description:
        "Conflict: can't use getUpdates method while webhook is active; use deleteWebhook to delete the webhook first",
    });
    await call('deleteWebhook', {});
    expect((await call('getUpdates', {})).body).to.deep.equal({ ok: true, result: [] });
  });
});
