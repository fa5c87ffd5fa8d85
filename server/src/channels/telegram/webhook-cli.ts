/**
 * `npm run telegram:webhook`: tells Telegram where the bot's webhook is (docs/notifications.md#telegram):
 * `setWebhook` with url `<APP_URL>/api/telegram/webhook`, the secret Telegram will send in
 * X-Telegram-Bot-Api-Secret-Token, and the two kinds of update the server reads. Run once per
 * deploy (or when APP_URL or the secret changes); calling it again is harmless.
 */
import { loadConfig } from '@app/config';
import { createBotApi } from './bot-api.ts';

const config = loadConfig();
if (!config.telegramConfigured || !config.TELEGRAM_BOT_TOKEN) {
  console.error(
    'telegram:webhook: set TELEGRAM_BOT_TOKEN, TELEGRAM_BOT_USERNAME and TELEGRAM_WEBHOOK_SECRET first (docs/notifications.md#telegram)',
  );
  process.exit(2);
}
if (!config.APP_URL) {
  console.error('telegram:webhook: set APP_URL to the public https address Telegram will call');
  process.exit(2);
}
const url = `${config.appUrl}/api/telegram/webhook`;
const answer = await createBotApi({ apiUrl: config.TELEGRAM_API_URL, token: config.TELEGRAM_BOT_TOKEN })(
  'setWebhook',
  {
    url,
    secret_token: config.TELEGRAM_WEBHOOK_SECRET,
    allowed_updates: ['message', 'my_chat_member'],
  },
);
if (answer.ok) {
  console.log(`Telegram will send @${config.TELEGRAM_BOT_USERNAME}'s updates to ${url}`);
} else {
  console.error(`telegram:webhook: Telegram answered ${answer.errorCode}: ${answer.description}`);
  process.exitCode = 1;
}
