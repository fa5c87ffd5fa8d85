/**
 * An endpoint's "Send a test" (docs/notifications.md#send-a-test), in the words the server and
 * Settings share: what the test says, why one is refused, and where to look for it.
 */
import type { Channel } from './channels.ts';

/** The execution type of a test's History row: one chosen endpoint, never counted in the quota. */
export const TEST_EXECUTION = 'TEST';

/** What History shows in a test row's symbol column (it names no instrument). */
export const TEST_HISTORY_LABEL = 'Test message';

/** The test's History row's message. */
export const TEST_MESSAGE = 'Sent from Settings to check where alerts arrive.';

/** The test as the phone channels word it (email has its own template). */
export const TEST_NOTICE = {
  title: 'Test from Portfolio Guard',
  body: 'Alerts will arrive here.',
} as const;

/** The sentences `POST /api/notification-endpoints/:id/test` refuses with. */
export const TEST_REFUSALS = {
  pending: 'Verify this endpoint first: a test goes only to an address you have confirmed.',
  turnedOffFallback: 'it receives nothing until it is turned on again.',
  tooSoon: 'You sent this endpoint a test a moment ago. Please wait a minute before sending another.',
  tooMany: 'You can send at most 10 tests an hour. Please try again later.',
} as const;

/** 'This endpoint is turned off: You blocked the bot in Telegram' (the reason the channel gave). */
export function turnedOffRefusal(reason: string | null): string {
  return `This endpoint is turned off: ${reason ?? TEST_REFUSALS.turnedOffFallback}`;
}

const WHERE_TO_LOOK: Record<Channel, string> = {
  email: 'check your inbox',
  webpush: "check this device's notifications",
  telegram: 'check Telegram',
  whatsapp: 'check WhatsApp',
};

/**
 * Settings' note once a test is on its way: 'Test sent — check your inbox'; for a push endpoint
 * of another browser than this one, its label: 'Test sent — check the notifications on Chrome
 * on Android'.
 */
export function testSentNote(channel: Channel, otherDevice?: string | null): string {
  if (channel === 'webpush' && otherDevice) return `Test sent — check the notifications on ${otherDevice}`;
  return `Test sent — ${WHERE_TO_LOOK[channel]}`;
}
