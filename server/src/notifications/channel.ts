/**
 * The seam every channel plugs into (docs/notifications.md#adding-a-channel): the delivery worker
 * hands a channel's due outbox rows to its sender as one batch and records the one outcome per
 * row that comes back. A sender never writes the outbox itself.
 */
import type { Channel, NoticeKind } from '@app/common/notifications/channels';

/**
 * A notice as the phone channels word it (email keeps its richer templates): "INFY stop loss
 * hit" / "₹1,234.50 crossed ₹1,240.00 · 10:41 IST", and the page a tap opens.
 */
export interface NoticeText {
  kind: NoticeKind | 'test';
  title: string;
  body: string;
  /** Absolute URL a tap opens (the holding, or History for a digest). */
  url: string;
  /** One per rule or price alert (per user for a digest): a newer notice replaces an unread older one. */
  tag: string;
  /** A stop loss: the alert that protects money; a channel may ask for more attention. */
  protective: boolean;
  /** The stock, when the notice is about one ('M&M'), for channels that list several notices in one message. */
  symbol: string | null;
}

/** One claimed outbox row, with where it goes and what it says. */
export interface OutgoingDelivery {
  id: string;
  executionId: string;
  userId: string;
  /** Attempts including this one. */
  attempts: number;
  endpoint: {
    id: string;
    /** The outbox row's destination: an email address, a push endpoint URL, a chat id, a phone number. */
    value: string;
    label: string | null;
    meta: Record<string, unknown> | null;
  };
  text: NoticeText;
}

/** What became of one delivery. */
export type SendOutcome =
  /** The provider took it and will not report more (email, Telegram). */
  | { kind: 'sent'; providerMessageId?: string | undefined }
  /** The provider took it for later delivery (a push service, WhatsApp, which may report more). */
  | { kind: 'accepted'; providerMessageId?: string | undefined }
  /**
   * Try again later: after `afterMs` when the provider said when (Retry-After, retry_after), else
   * with the worker's back-off. `throttled`: a rate limit, which does not use up an attempt.
   */
  | { kind: 'retry'; reason: string; afterMs?: number | undefined; throttled?: boolean | undefined }
  /** Never to be retried (a bad request, a payload too large): logged, the row FAILED. */
  | { kind: 'failed'; reason: string }
  /** The endpoint cannot be reached again (a blocked bot, an expired subscription): it is turned off. */
  | { kind: 'gone'; reason: string };

export interface ChannelSender {
  readonly channel: Channel;
  /** The most deliveries it takes in one call. */
  readonly maxBatch: number;
  /** One outcome per delivery, in order; never throws for a delivery's own failure. */
  send(deliveries: readonly OutgoingDelivery[]): Promise<SendOutcome[]>;
}
