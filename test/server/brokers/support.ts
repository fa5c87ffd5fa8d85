/**
 * The opening of a broker test suite: the fake Kite Connect started first, the app on it (its
 * clock movable, so a state or a token can be made to expire), and helpers that walk a user
 * through "Connect Zerodha" as the browser would.
 */
import { expect } from 'chai';
import type { ApiBrokerAccount } from '@app/common/api/brokers';
import type { BootOptions, TestApp } from '../../helpers/app.ts';
import { startFakeKite, type FakeKite } from '../../helpers/fake-brokers/kite.ts';
import { apiClient } from '../../helpers/http.ts';
import { madeBefore } from '../../helpers/made-before.ts';
import type { SignedInUser } from '../../helpers/users.ts';
import { rulesSuite } from '../rules/support.ts';

export function kiteSuite(suiteOptions: BootOptions | (() => BootOptions) = {}) {
  let started: FakeKite | undefined;
  let offsetMs = 0;
  const fake = madeBefore('the fake Kite', () => started);
  before(async () => {
    started = await startFakeKite();
  });
  const { app, users } = rulesSuite(() => {
    const options = typeof suiteOptions === 'function' ? suiteOptions() : suiteOptions;
    return {
      ...options,
      now: () => new Date(Date.now() + offsetMs),
      env: { ...started!.env, ...options.env },
    };
  });
  before(() => {
    started!.script.redirectUrl = `${app.url}/api/brokers/callback/kite`;
  });
  beforeEach(() => {
    fake.reset();
    offsetMs = 0;
  });
  after(async () => {
    await started?.close();
  });
  return {
    app,
    fake,
    users,
    advance: (ms: number) => {
      offsetMs += ms;
    },
    /** Sets the app's clock to `at` (moving on from there). */
    setClock: (at: Date) => {
      offsetMs = at.getTime() - Date.now();
    },
  };
}

/** POST /api/brokers/connect {broker: kite}: the login URL. */
export async function kiteLoginUrl(app: TestApp, user: SignedInUser): Promise<string> {
  const res = await apiClient(app.url).post<{ login_url: string }>(
    '/api/brokers/connect',
    { broker: 'kite' },
    user.token,
  );
  expect(res.status, res.body.error).to.equal(200);
  return res.body.data!.login_url;
}

/** Follows a redirect back from the broker as the browser does: where the app sends it next. */
export async function followCallback(callbackUrl: string): Promise<string> {
  const res = await fetch(callbackUrl, { redirect: 'manual' });
  expect(res.status).to.equal(302);
  return res.headers.get('location') ?? '';
}

/** Connects the user's Zerodha through the fake's login page; where the browser lands. */
export async function connectKite(app: TestApp, fake: FakeKite, user: SignedInUser): Promise<string> {
  return followCallback(await fake.loginRedirect(await kiteLoginUrl(app, user)));
}

/** The `broker_error` sentence of a redirect to Settings. */
export function brokerError(location: string): string | null {
  return new URL(location, 'http://x').searchParams.get('broker_error');
}

/** GET /api/brokers: the user's accounts. */
export async function accounts(app: TestApp, user: SignedInUser): Promise<ApiBrokerAccount[]> {
  const res = await apiClient(app.url).get<ApiBrokerAccount[]>('/api/brokers', user.token);
  expect(res.status).to.equal(200);
  return res.body.data!;
}

/** The holdings of one account. */
export async function holdingsOf(app: TestApp, user: SignedInUser, accountId: string) {
  const res = await apiClient(app.url).get<{ symbol: string; exchange: string; quantity: number }[]>(
    `/api/brokers/holdings/account/${accountId}`,
    user.token,
  );
  expect(res.status, res.body.error).to.equal(200);
  return res.body.data!;
}
