/**
 * Notification endpoints (docs/notifications.md): the one validation used by the server and the
 * Settings form, the request body schema, and the shapes the API answers with.
 */

import type { Channel, NoticeKind } from '../notifications/channels.ts';

/** The endpoint types the add form takes a typed value for. */
export const ENDPOINT_TYPES = ['email', 'whatsapp'] as const;
export type EndpointType = (typeof ENDPOINT_TYPES)[number];
export type VerificationStatus = 'pending' | 'verified';

/** zod's email pattern (kept here so the form does not load zod). */
const EMAIL_PATTERN =
  /^(?:[A-Za-z0-9_'+-]+\.)*[A-Za-z0-9_'+-]*[A-Za-z0-9_+-]@(?:[A-Za-z0-9][A-Za-z0-9-]*\.)+[A-Za-z]{2,}$/;

/** The phone number shown as an example in the form and in the error message. */
export const PHONE_EXAMPLE = '+919876543210';

/** The refusals, word for word as docs/notifications.md gives them. */
export const ENDPOINT_MESSAGES = {
  blank: 'Please enter a valid endpoint value',
  email: 'Please enter a valid email address',
  phone: `Please enter a valid phone number (e.g., ${PHONE_EXAMPLE})`,
  duplicate: 'This endpoint already exists',
} as const;

/** Optional +, a digit 1-9, then 1 to 14 more digits (at most 15 digits in all). */
const PHONE_PATTERN = /^\+?[1-9]\d{1,14}$/;
const EMAIL_MAX_LENGTH = 254;

function stripSpaces(value: string): string {
  return value.replace(/\s+/g, '');
}

/** The checks of an endpoint value; returns the message to show, or null when valid. */
export function validateEndpoint(type: EndpointType, value: string): string | null {
  const trimmed = value.trim();
  if (!trimmed) return ENDPOINT_MESSAGES.blank;
  if (type === 'email') {
    return trimmed.length <= EMAIL_MAX_LENGTH && EMAIL_PATTERN.test(trimmed) ? null : ENDPOINT_MESSAGES.email;
  }
  return PHONE_PATTERN.test(stripSpaces(trimmed)) ? null : ENDPOINT_MESSAGES.phone;
}

/**
 * The stored form of a valid value and its uniqueness key: an email is trimmed (its key
 * lower-cased), a phone number loses its spaces.
 */
export function normalizeEndpointValue(type: EndpointType, value: string): { value: string; key: string } {
  if (type === 'email') {
    const trimmed = value.trim();
    return { value: trimmed, key: trimmed.toLowerCase() };
  }
  const phone = stripSpaces(value);
  return { value: phone, key: phone };
}

/** One row of GET /api/notification-endpoints. */
export interface ApiNotificationEndpoint {
  id: string;
  type: Channel;
  /** An email address, a phone number, a push subscription's endpoint URL. */
  value: string;
  is_active: boolean;
  verification_status: VerificationStatus;
  created_at: string;
  /** The user's own account email: it cannot be deleted. */
  is_account_email: boolean;
  /** What it receives (Settings' ticks): alerts, the evening digest, corporate actions. */
  notices: NoticeKind[];
  /** What the user knows it as: a device ("Chrome on Android"), a Telegram "@username"; null when the value says it. */
  label: string | null;
  /** Why the channel turned it off ("You blocked the bot in Telegram"), while inactive. */
  inactive_reason: string | null;
}

/**
 * POST /api/notification-endpoints {type: "telegram"} (201): the pending endpoint and the deep
 * link that binds the chat which presses Start on it (single use, until `link_expires_at`).
 */
export interface ApiTelegramConnect extends ApiNotificationEndpoint {
  link: string;
  link_expires_at: string;
}

/** GET /api/telegram: whether Telegram alerts can be connected on this server. */
export interface ApiTelegramStatus {
  configured: boolean;
  /** The bot's username, when configured. */
  bot_username: string | null;
}

/** POST /api/notification-endpoints (201) and POST /:id/resend (200). */
export interface ApiEndpointSendResult extends ApiNotificationEndpoint {
  /** True when a verification email went out with this request. */
  email_sent: boolean;
  /** A sentence for the banner, or null when there is nothing to say. */
  notice: string | null;
}

/** GET /api/notification-endpoints/verify: the endpoint, and whether an earlier click had verified it. */
export interface ApiVerifyResult extends ApiNotificationEndpoint {
  /** True when the link had already been used to verify this endpoint (clicked twice). */
  already_verified: boolean;
}

/** Settings' words for each kind of notice an endpoint can receive. */
export const NOTICE_KIND_LABELS: Record<NoticeKind, string> = {
  alert: 'Alerts',
  digest: 'Evening digest',
  corporate_action: 'Corporate actions',
};

/** What PATCH /api/notification-endpoints/:id answers a `notices` it cannot take with. */
export const NOTICES_MESSAGE =
  'notices: give a list of what this endpoint receives, each one of alert, digest, corporate_action (an empty list for none)';

/** Settings' warning when no endpoint receives alerts. */
export const NO_ALERT_ENDPOINT_WARNING = 'No endpoint receives alerts: stops will only show in the app.';

/** The banner after adding an email or resending (docs/notifications.md). */
export const CHECK_EMAIL_NOTICE =
  'Please check your email and click the verification link to activate notifications.';
