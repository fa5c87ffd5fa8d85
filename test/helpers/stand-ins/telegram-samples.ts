/** Stand-ins for the recorded Telegram Bot API answers in `data/samples/telegram/` (nutgram's fixtures). */

const json = (value: unknown) => () => `${JSON.stringify(value, null, 2)}\n`;

export const telegramTooManyRequests = json({
  ok: false,
  error_code: 429,
  description: 'Too Many Requests: retry after 14',
  parameters: { retry_after: 14 },
});

export const telegramUserDeactivated = json({
  ok: false,
  error_code: 403,
  description: 'Forbidden: user is deactivated',
});

export const telegramTooLong = json({
  ok: false,
  error_code: 400,
  description: 'Bad Request: message is too long',
});

export const telegramTextUpdate = json({
  update_id: 123456789,
  message: {
    message_id: 123456,
    from: {
      id: 12345678,
      is_bot: false,
      first_name: 'Mario',
      last_name: 'Bros',
      username: 'MarioLovesPeach',
      language_code: 'it',
    },
    chat: {
      id: 12345678,
      first_name: 'Mario',
      last_name: 'Bros',
      username: 'MarioLovesPeach',
      type: 'private',
    },
    date: 1631818904,
    text: 'aaaaaaaaaa',
  },
});
