/**
 * The end-to-end channel tests' steps (e2e-*.test.ts): a browser subscription made by the fake
 * push service and added through the API, the app's Web Push sender trusting the fake's CA, a
 * stop armed at ₹1,000 and crossed by a published batch, and what History and Settings show.
 */
import type { ApiNotificationEndpoint, ApiTelegramConnect } from '@app/common/endpoints/validation';
import type { ApiRuleExecution } from '@app/common/rules/responses';
import { expect } from 'chai';
import { createWebPushSender } from '../../../server/src/channels/webpush/sender.ts';
import type { RuntimeOptions } from '../../../server/src/runtime.ts';
import type { TestApp } from '../../helpers/app.ts';
import type { FakePushService, FakeSubscription } from '../../helpers/fake-push-service.ts';
import type { FakeTelegram } from '../../helpers/fake-telegram.ts';
import { apiClient } from '../../helpers/http.ts';
import type { SignedInUser } from '../../helpers/users.ts';
import { waitFor } from '../../helpers/wait.ts';
import { addHolding, createRule, listExecutions, publishPrices } from '../rules/support.ts';

/** The app's own Web Push sender (its VAPID keys), trusting the fake push service's certificate. */
export function pushSenderFor(fake: () => FakePushService): NonNullable<RuntimeOptions['senders']> {
  return (deps) => [
    createWebPushSender({ vapid: deps.vapid, log: deps.log, allowPrivateEndpoints: true, ca: fake().ca }),
  ];
}

/** A browser subscription made with the app's VAPID key and added as the user's endpoint. */
export async function enablePush(
  app: TestApp,
  fake: FakePushService,
  user: SignedInUser,
): Promise<{ subscription: FakeSubscription; endpoint: ApiNotificationEndpoint }> {
  const api = apiClient(app.url);
  const key = await api.get<{ public_key: string }>('/api/push/vapid-public-key', user.token);
  const subscription = fake.subscribe(key.body.data!.public_key);
  const res = await api.post<ApiNotificationEndpoint>(
    '/api/notification-endpoints',
    {
      type: 'webpush',
      subscription: { endpoint: subscription.endpoint, expirationTime: null, keys: subscription.keys },
      label: 'Chrome on Android',
    },
    user.token,
  );
  expect(res.status, res.body.error).to.be.oneOf([200, 201]);
  return { subscription, endpoint: res.body.data! };
}

/** Settings' list of the user's endpoints. */
export async function listEndpoints(app: TestApp, user: SignedInUser): Promise<ApiNotificationEndpoint[]> {
  const res = await apiClient(app.url).get<ApiNotificationEndpoint[]>(
    '/api/notification-endpoints',
    user.token,
  );
  expect(res.status, res.body.error).to.equal(200);
  return res.body.data!;
}

/** Arms a 5 % stop loss on a holding of `symbol` bought at ₹1,000 (its quote published at 1,000). */
export async function armStopAt1000(app: TestApp, user: SignedInUser, symbol: string): Promise<void> {
  await publishPrices(app, { [symbol]: 1000 });
  await addHolding(app, user, symbol);
  const rule = await createRule(app, user, { symbol, trigger_type: 'FIXED_STOP_LOSS', trigger_value: 5 });
  expect(rule.status, rule.body.error).to.equal(201);
}

/** The user's execution of `symbol` once `done` says its deliveries are where the test wants them. */
export function executionOf(
  app: TestApp,
  user: SignedInUser,
  symbol: string,
  done: (execution: ApiRuleExecution) => boolean,
  what = `the ${symbol} execution to settle`,
): Promise<ApiRuleExecution> {
  return waitFor(
    what,
    async () => {
      const execution = (await listExecutions(app, user)).find((e) => e.symbol === symbol);
      return execution && done(execution) ? execution : undefined;
    },
    15_000,
  );
}

/** The deliveries of an execution as History's badges read them: `channel status`, sorted. */
export const badges = (execution: ApiRuleExecution) =>
  execution.deliveries.map((d) => `${d.channel} ${d.status}`).sort();

/** An Advanced user's Telegram endpoint bound to `chat` by pressing Start on its Connect link. */
export async function connectTelegram(
  app: TestApp,
  fake: FakeTelegram,
  user: SignedInUser,
  chat: number,
): Promise<ApiNotificationEndpoint> {
  const res = await apiClient(app.url).post<ApiTelegramConnect>(
    '/api/notification-endpoints',
    { type: 'telegram' },
    user.token,
  );
  expect(res.status, res.body.error).to.equal(201);
  const token = new URL(res.body.data!.link).searchParams.get('start')!;
  const start = await fake.simulateStart(app.url, { chatId: chat, token, username: 'asha_k' });
  expect(start.status).to.equal(200);
  const endpoint = (await listEndpoints(app, user)).find((e) => e.type === 'telegram')!;
  expect(endpoint).to.deep.include({ verification_status: 'verified', is_active: true });
  return endpoint;
}
