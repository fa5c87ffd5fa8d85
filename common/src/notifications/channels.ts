/**
 * The notification layer's vocabulary (docs/notifications.md), typed once: the channels a notice
 * goes out on, the kinds of notice an endpoint can choose to receive, and the statuses a
 * delivery is shown with in History.
 */

/** Where a notice can go: an email address, a browser's push subscription, a Telegram chat, a WhatsApp number. */
export const CHANNELS = ['email', 'webpush', 'telegram', 'whatsapp'] as const;
export type Channel = (typeof CHANNELS)[number];

/** The channels of messaging apps: the spec puts them on the Advanced tier. */
export const MESSAGING_CHANNELS: ReadonlySet<Channel> = new Set(['telegram', 'whatsapp']);

/**
 * The channels whose sender sends all of an endpoint's notices in a slice as one message (a
 * Telegram chat gets one message listing a crash's stops): the workers claim such an endpoint's
 * due rows together, and a slice never splits them.
 */
export const ONE_MESSAGE_PER_ENDPOINT: readonly Channel[] = ['telegram'];

/**
 * The channels whose sender keeps a pace (Telegram: 30 messages a second, one a second a chat,
 * waiting for its slots): their rows are claimed and sent by a delivery lane of their own, so
 * their pace never holds the next batch of email, push and WhatsApp.
 */
export const PACED_CHANNELS: readonly Channel[] = ['telegram'];

/**
 * What an endpoint receives, chosen per endpoint in Settings: alerts (rules and price alerts
 * that fired), the evening digest, corporate-action adjustments.
 */
export const NOTICE_KINDS = ['alert', 'digest', 'corporate_action'] as const;
export type NoticeKind = (typeof NOTICE_KINDS)[number];

/**
 * A delivery as History shows it: queued (not yet handed over), sent (the provider took it:
 * email, Telegram), accepted (a push service or WhatsApp took it for later delivery), delivered
 * and read (WhatsApp's receipts), failed.
 */
export const DELIVERY_STATUSES = ['queued', 'sent', 'accepted', 'delivered', 'read', 'failed'] as const;
export type DeliveryStatus = (typeof DELIVERY_STATUSES)[number];

const CHANNEL_NAMES: Record<Channel, string> = {
  email: 'Email',
  webpush: 'Web Push',
  telegram: 'Telegram',
  whatsapp: 'WhatsApp',
};

/** A channel as a sentence names it: 'Email', 'Web Push', 'Telegram', 'WhatsApp'. */
export function channelName(channel: Channel): string {
  return CHANNEL_NAMES[channel];
}
