import { appSuite, type BootOptions } from './app.ts';
import { startFakeTelegram, type FakeTelegram, type FakeTelegramOptions } from './fake-telegram.ts';
import { madeBefore } from './made-before.ts';

/**
 * The opening of a suite whose app has a Telegram bot, called in its `describe`: the fake Bot
 * API started first and emptied before each test, the app (`appSuite`, with `options` and the
 * fake's env) on it, and the fake closed after the app.
 */
export function telegramSuite(options: BootOptions = {}, fakeOptions: FakeTelegramOptions = {}) {
  let started: FakeTelegram | undefined;
  const fake = madeBefore('the fake Bot API', () => started);
  before(async () => {
    started = await startFakeTelegram(fakeOptions);
  });
  const { app, api } = appSuite(() => ({
    // A database of its own: another file's app on the run's database would claim this app's
    // outbox rows and, without the channel configured, fail them.
    ownDatabase: true,
    ...options,
    env: { ...started!.env, ...options.env },
  }));
  beforeEach(() => fake.reset());
  after(async () => {
    await started?.close();
  });
  return { app, api, fake };
}
