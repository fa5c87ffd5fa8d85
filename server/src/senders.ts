/**
 * The senders registry (docs/notifications.md#adding-a-channel): one line per channel, a sender
 * when the channel is configured on this server and null when not. Email is always there. At
 * the composition root with runtime.ts: each channel's folder (server/src/channels) builds on
 * the notification layer, so the layer cannot import them.
 */
import type { AppDeps } from './deps.ts';
import { createEmailSender } from './channels/email/sender.ts';
import { createTelegramSender } from './channels/telegram/sender.ts';
import { createWebPushSender } from './channels/webpush/sender.ts';
import { createWhatsAppSender } from './channels/whatsapp/sender.ts';
import type { ChannelSender } from './notifications/channel.ts';
import type { Senders } from './notifications/senders.ts';

/** What the senders are made from (everything in AppDeps but the senders themselves). */
export type SenderDeps = Omit<AppDeps, 'senders'>;

/** The senders of this server's configuration. */
export function createSenders(deps: SenderDeps): Senders {
  const table: Array<ChannelSender | null> = [
    createEmailSender(deps),
    createWebPushSender({
      vapid: deps.vapid,
      log: deps.log,
      allowPrivateEndpoints: deps.config.WEBPUSH_ALLOW_PRIVATE_ENDPOINTS,
    }),
    deps.config.telegramConfigured ? createTelegramSender(deps) : null,
    deps.config.whatsapp ? createWhatsAppSender({ whatsapp: deps.config.whatsapp, log: deps.log }) : null,
  ];
  return new Map(table.filter((s): s is ChannelSender => s !== null).map((s) => [s.channel, s]));
}
