/**
 * The channels this server sends on, as the layer sees them: a sender per configured channel
 * (the table that builds them is server/src/senders.ts, at the composition root, since each
 * channel's folder builds on this one).
 */
import type { Channel } from '@app/common/notifications/channels';
import type { ChannelSender } from './channel.ts';

/** Each configured channel's sender. */
export type Senders = ReadonlyMap<Channel, ChannelSender>;

/** The channels a notice may be recorded for on this server. */
export function configuredChannels(senders: Senders): ReadonlySet<Channel> {
  return new Set(senders.keys());
}
