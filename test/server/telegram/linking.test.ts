import type { ApiNotificationEndpoint, ApiTelegramConnect } from '@app/common/api/endpoints';
import { expect } from 'chai';
import { createHash } from 'node:crypto';
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { and, eq } from 'drizzle-orm';
import { notificationEndpoints } from '../../../server/src/db/schema.ts';
import { bootApp } from '../../helpers/app.ts';
import { telegramSuite } from '../../helpers/telegram-suite.ts';
import { readShared } from '../../helpers/shared-data.ts';
import { apiClient, request } from '../../helpers/http.ts';
import { connectSocket, connected } from '../../helpers/sockets.ts';
import { signIn, type SignedInUser } from '../../helpers/users.ts';
import { sleep, waitFor } from '../../helpers/wait.ts';

const BASE = '/api/notification-endpoints';
const WELCOME = 'Connected to Portfolio Guard: your alerts will arrive here.';
const BAD_LINK =
  'This link has expired or was already used. Please get a new link from Settings → Notifications → Connect Telegram in Portfolio Guard.';
const TIER = 'Telegram alerts are available on the Advanced tier. Upgrade to connect Telegram.';

let nextChat = 600_000_000 + Math.floor(Math.random() * 1_000_000) * 100;
const newChat = () => ++nextChat;

describe('Telegram: Connect, the webhook, blocking', function () {
  this.timeout(60_000);
  // With Redis: the update_id dedupe, the rate limits and the reply's send slots are the shared ones.
  const { app, fake } = telegramSuite({ withRedis: true, env: { APP_URL: 'https://app.example.test' } });

  async function connect(user: SignedInUser) {
    return apiClient(app.url).post<ApiTelegramConnect>(BASE, { type: 'telegram' }, user.token);
  }
  async function connectOk(user: SignedInUser): Promise<{ endpoint: ApiTelegramConnect; token: string }> {
    const res = await connect(user);
    expect(res.status, String(res.body.error)).to.equal(201);
    const endpoint = res.body.data!;
    return { endpoint, token: new URL(endpoint.link).searchParams.get('start')! };
  }
  async function telegramEndpoints(user: SignedInUser): Promise<ApiNotificationEndpoint[]> {
    const res = await apiClient(app.url).get<ApiNotificationEndpoint[]>(BASE, user.token);
    return res.body.data!.filter((e) => e.type === 'telegram');
  }
  const rowsOf = (user: SignedInUser) =>
    app.runtime.deps.db
      .select()
      .from(notificationEndpoints)
      .where(and(eq(notificationEndpoints.userId, user.id), eq(notificationEndpoints.type, 'telegram')));
  const repliesTo = (chat: number) =>
    waitFor(`a reply in chat ${chat}`, () => fake.messagesTo(chat)[0]?.text);

  it('Connect on Advanced: 201, the endpoint pending and a single-use t.me link whose hash alone is stored', async () => {
    const user = await signIn(app, { tier: 'advanced' });
    const before = Date.now();
    const { endpoint, token } = await connectOk(user);
    expect(endpoint).to.include({
      type: 'telegram',
      value: '',
      label: null,
      is_active: true,
      verification_status: 'pending',
      is_account_email: false,
      inactive_reason: null,
    });
    expect(endpoint.link).to.match(/^https:\/\/t\.me\/PortfolioGuardTestBot\?start=[A-Za-z0-9_-]{43}$/);
    const ttl = Date.parse(endpoint.link_expires_at) - before;
    expect(ttl).to.be.within(9.9 * 60_000, 10.1 * 60_000);
    const [row, ...more] = await rowsOf(user);
    expect(more).to.have.length(0);
    expect(row!.tokenHash).to.equal(createHash('sha256').update(token).digest('hex'));
    expect(JSON.stringify(row)).not.to.contain(token);
  });

  it('a second Connect replaces the pending link: one pending row, and the old link binds nothing', async () => {
    const user = await signIn(app, { tier: 'advanced' });
    const first = await connectOk(user);
    const second = await connectOk(user);
    expect(await telegramEndpoints(user)).to.have.length(1);
    const chat = newChat();
    const res = await fake.simulateStart(app.url, { chatId: chat, token: first.token, username: 'asha_k' });
    expect(res.status).to.equal(200);
    expect(await repliesTo(chat)).to.equal(BAD_LINK);
    const [only] = await telegramEndpoints(user);
    expect(only).to.include({ id: second.endpoint.id, verification_status: 'pending' });
  });

  it('Basic: 403 with the tier sentence, nothing stored', async () => {
    const user = await signIn(app);
    const res = await connect(user);
    expect(res.status).to.equal(403);
    expect(res.body).to.deep.equal({ success: false, error: TIER });
    expect(await rowsOf(user)).to.deep.equal([]);
  });

  it('/start with a good token binds the chat, says welcome and tells the open Settings page', async () => {
    const user = await signIn(app, { tier: 'advanced' });
    const { endpoint, token } = await connectOk(user);
    const socket = connectSocket(app.url, user.token);
    try {
      await connected(socket);
      const changed = new Promise<void>((resolve) => socket.once('endpoints:changed', () => resolve()));
      const chat = newChat();
      const res = await fake.simulateStart(app.url, { chatId: chat, token, username: 'asha_k' });
      expect(res.status).to.equal(200);
      await changed;
      const [bound] = await telegramEndpoints(user);
      expect(bound).to.include({
        id: endpoint.id,
        value: String(chat),
        label: '@asha_k',
        verification_status: 'verified',
        is_active: true,
      });
      expect(await repliesTo(chat)).to.equal(WELCOME);
      const [row] = await rowsOf(user);
      expect(row).to.include({ tokenHash: null, tokenExpiresAt: null });
    } finally {
      socket.close();
    }
  });

  it('labels a chat without a username by its first name', async () => {
    const user = await signIn(app, { tier: 'advanced' });
    const { token } = await connectOk(user);
    const chat = newChat();
    await fake.simulateStart(app.url, { chatId: chat, token, firstName: 'Ravi' });
    expect(await repliesTo(chat)).to.equal(WELCOME);
    expect((await telegramEndpoints(user))[0]).to.include({ label: 'Ravi', value: String(chat) });
  });

  it('a used token and an expired token get the polite reply and bind nothing', async () => {
    const user = await signIn(app, { tier: 'advanced' });
    const { token } = await connectOk(user);
    const chat = newChat();
    await fake.simulateStart(app.url, { chatId: chat, token });
    expect(await repliesTo(chat)).to.equal(WELCOME);
    const intruder = newChat();
    await fake.simulateStart(app.url, { chatId: intruder, token });
    expect(await repliesTo(intruder)).to.equal(BAD_LINK);
    expect((await telegramEndpoints(user)).map((e) => e.value)).to.deep.equal([String(chat)]);

    const late = await signIn(app, { tier: 'advanced' });
    const pending = await connectOk(late);
    await app.runtime.deps.db
      .update(notificationEndpoints)
      .set({ tokenExpiresAt: new Date(Date.now() - 1000) })
      .where(eq(notificationEndpoints.id, pending.endpoint.id));
    const lateChat = newChat();
    await fake.simulateStart(app.url, { chatId: lateChat, token: pending.token });
    expect(await repliesTo(lateChat)).to.equal(BAD_LINK);
    expect((await telegramEndpoints(late))[0]).to.include({ verification_status: 'pending', value: '' });
  });

  it('refuses an update without the right secret header (401) and changes nothing', async () => {
    const user = await signIn(app, { tier: 'advanced' });
    const { token } = await connectOk(user);
    const chat = newChat();
    const update = {
      update_id: 1,
      message: {
        message_id: 1,
        from: { id: chat, is_bot: false, first_name: 'Eve' },
        chat: { id: chat, first_name: 'Eve', type: 'private' },
        date: 1,
        text: `/start ${token}`,
      },
    };
    for (const secret of [null, 'wrong-secret', `${fake.secret}x`, fake.secret.slice(0, -1)]) {
      const res = await fake.postUpdate(app.url, update, secret);
      expect(res.status, String(secret)).to.equal(401);
      expect(res.body).to.deep.equal({ success: false, error: 'The secret token is wrong' });
    }
    await sleep(200);
    expect(fake.calls).to.deep.equal([]);
    expect((await telegramEndpoints(user))[0]).to.include({ verification_status: 'pending' });
  });

  it('blocking the bot turns the endpoint off with the reason; unblocking turns it back on', async () => {
    const user = await signIn(app, { tier: 'advanced' });
    const { token } = await connectOk(user);
    const chat = newChat();
    await fake.simulateStart(app.url, { chatId: chat, token, username: 'asha_k' });
    await repliesTo(chat);
    const blocked = await fake.simulateBlock(app.url, { chatId: chat });
    expect(blocked.status, JSON.stringify(blocked.body)).to.equal(200);
    expect((await telegramEndpoints(user))[0]).to.include({
      is_active: false,
      inactive_reason: 'You blocked the bot in Telegram',
    });
    // Telegram resends an update it thinks was lost: the same update_id changes nothing more.
    expect((await fake.simulateBlock(app.url, { chatId: chat, updateId: blocked.updateId })).status).to.equal(
      200,
    );
    expect((await fake.simulateUnblock(app.url, { chatId: chat })).status).to.equal(200);
    expect((await telegramEndpoints(user))[0]).to.include({ is_active: true, inactive_reason: null });
  });

  it('a repeated update_id is handled once: one welcome', async () => {
    const user = await signIn(app, { tier: 'advanced' });
    const { token } = await connectOk(user);
    const chat = newChat();
    const first = await fake.simulateStart(app.url, { chatId: chat, token });
    const again = await fake.simulateStart(app.url, { chatId: chat, token, updateId: first.updateId });
    expect([first.status, again.status]).to.deep.equal([200, 200]);
    await repliesTo(chat);
    await sleep(300);
    expect(fake.messagesTo(chat).map((m) => m.text)).to.deep.equal([WELCOME]);
  });

  it('Reconnect after blocking: the same chat comes back on its old endpoint, no second one', async () => {
    const user = await signIn(app, { tier: 'advanced' });
    const first = await connectOk(user);
    const chat = newChat();
    await fake.simulateStart(app.url, { chatId: chat, token: first.token, username: 'asha_k' });
    await repliesTo(chat);
    await fake.simulateBlock(app.url, { chatId: chat });
    const second = await connectOk(user);
    expect(await telegramEndpoints(user)).to.have.length(2);
    fake.reset();
    await fake.simulateStart(app.url, { chatId: chat, token: second.token, username: 'asha_new' });
    expect(await repliesTo(chat)).to.equal(WELCOME);
    const list = await telegramEndpoints(user);
    expect(list).to.have.length(1);
    expect(list[0]).to.include({
      id: first.endpoint.id,
      label: '@asha_new',
      is_active: true,
      inactive_reason: null,
      verification_status: 'verified',
    });
  });

  it('answers 200 to updates it ignores: a group, other text, an edited message, a recorded text message', async () => {
    const chat = newChat();
    const updates = [
      {
        update_id: 11,
        message: { message_id: 1, chat: { id: -chat, type: 'group' }, date: 1, text: '/start abc' },
      },
      {
        update_id: 12,
        message: { message_id: 2, chat: { id: chat, type: 'private' }, date: 1, text: 'hello' },
      },
      {
        update_id: 13,
        edited_message: { message_id: 3, chat: { id: chat, type: 'private' }, date: 1, text: 'x' },
      },
    ];
    // A recorded text message from a private chat, as Telegram posts it.
    const recorded = JSON.parse(readShared('data/samples/telegram/nutgram_Updates_text.json')) as Record<
      string,
      unknown
    >;
    for (const update of [...updates, recorded]) {
      expect((await fake.postUpdate(app.url, update)).status).to.equal(200);
    }
    await sleep(200);
    expect(fake.messages).to.deep.equal([]);
  });

  it('limits Connect to 5 links a minute per user', async () => {
    const user = await signIn(app, { tier: 'advanced' });
    const statuses: number[] = [];
    for (let i = 0; i < 6; i++) statuses.push((await connect(user)).status);
    expect(statuses).to.deep.equal([201, 201, 201, 201, 201, 429]);
    expect(await telegramEndpoints(user)).to.have.length(1);
  });

  it('GET /api/telegram says it is configured, and names the bot', async () => {
    const user = await signIn(app);
    const res = await apiClient(app.url).get(`/api/telegram`, user.token);
    expect(res.body.data).to.deep.equal({ configured: true, bot_username: 'PortfolioGuardTestBot' });
    expect((await request(app.url, 'GET', '/api/telegram')).status).to.equal(401);
  });

  it('npm run telegram:webhook sets the webhook with the secret and the two update kinds', async () => {
    await promisify(execFile)('npx', ['tsx', 'server/src/channels/telegram/webhook-cli.ts'], {
      env: { ...process.env, ...fake.env, APP_URL: 'https://alerts.example.in', NODE_ENV: 'test' },
    });
    expect(fake.webhook).to.deep.equal({
      url: 'https://alerts.example.in/api/telegram/webhook',
      secret_token: fake.secret,
      allowed_updates: ['message', 'my_chat_member'],
    });
  });
});

describe('Telegram not configured', () => {
  it('Connect answers 503 with a sentence, and the webhook does not exist', async () => {
    const app = await bootApp();
    try {
      const user = await signIn(app, { tier: 'advanced' });
      const res = await apiClient(app.url).post(BASE, { type: 'telegram' }, user.token);
      expect(res.status).to.equal(503);
      expect(res.body.error).to.equal(
        'Telegram alerts are not set up on this server yet. Please use email or this device for now.',
      );
      expect((await apiClient(app.url).get('/api/telegram', user.token)).body.data).to.deep.equal({
        configured: false,
        bot_username: null,
      });
      expect((await request(app.url, 'POST', '/api/telegram/webhook', {})).status).to.equal(404);
    } finally {
      await app.close();
    }
  });
});
