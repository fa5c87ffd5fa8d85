/** The add-endpoint request schema; the zod-free rules and texts live in endpoints/validation.ts and endpoints/webpush.ts. */
import { z } from 'zod';
import {
  ENDPOINT_MESSAGES,
  NOTICES_MESSAGE,
  validateEndpoint,
  type EndpointType,
} from '../endpoints/validation.ts';
import { NOTICE_KINDS } from '../notifications/channels.ts';
import { CODE_MESSAGES, CODE_PATTERN } from '../endpoints/whatsapp-code.ts';
import {
  isAuthSecret,
  isHttpsEndpoint,
  isUncompressedP256Key,
  PUSH_LABEL_MAX_LENGTH,
  PUSH_MESSAGES,
} from '../endpoints/webpush.ts';

export * from '../endpoints/validation.ts';

/** An email address or a WhatsApp number, typed into the form. */
const typedValueBody = (type: EndpointType) =>
  z
    .object({ type: z.literal(type), value: z.string({ message: ENDPOINT_MESSAGES.blank }) })
    .superRefine((body, ctx) => {
      const message = validateEndpoint(body.type, body.value);
      if (message) ctx.addIssue({ code: 'custom', path: ['value'], message });
    });

/** Connect Telegram: no value, the chat is the one that presses Start on the link (docs/notifications.md#telegram). */
const telegramBody = z.object({ type: z.literal('telegram') });

/** A browser's `PushSubscription.toJSON()` (docs/notifications.md#web-push); `expirationTime` is ignored. */
const pushSubscription = z.object(
  {
    endpoint: z.string({ message: PUSH_MESSAGES.endpoint }).refine(isHttpsEndpoint, PUSH_MESSAGES.endpoint),
    keys: z.object(
      {
        p256dh: z
          .string({ message: PUSH_MESSAGES.p256dh })
          .refine(isUncompressedP256Key, PUSH_MESSAGES.p256dh),
        auth: z.string({ message: PUSH_MESSAGES.auth }).refine(isAuthSecret, PUSH_MESSAGES.auth),
      },
      { message: PUSH_MESSAGES.subscription },
    ),
  },
  { message: PUSH_MESSAGES.subscription },
);

/** This browser's push subscription: verified by being created. */
const webpushEndpointBody = z.object({
  type: z.literal('webpush'),
  subscription: pushSubscription,
  label: z
    .string({ message: PUSH_MESSAGES.label })
    .trim()
    .max(PUSH_LABEL_MAX_LENGTH, { message: PUSH_MESSAGES.label })
    .optional()
    .transform((label) => label || undefined),
});

/** No `type` is an email, as in the form. */
const emailByDefault = (body: unknown) =>
  typeof body === 'object' && body !== null && !Array.isArray(body) && !('type' in body)
    ? { ...body, type: 'email' }
    : body;

/**
 * POST /api/notification-endpoints: an email, a WhatsApp number, a Telegram link to make, or this
 * browser's push subscription.
 */
export const addEndpointBody = z.preprocess(
  emailByDefault,
  z.discriminatedUnion(
    'type',
    [typedValueBody('email'), typedValueBody('whatsapp'), telegramBody, webpushEndpointBody],
    { error: 'Please choose Email or WhatsApp' },
  ),
);

export type AddEndpointInput = z.infer<typeof addEndpointBody>;
export type AddPushEndpointInput = Extract<AddEndpointInput, { type: 'webpush' }>;
export type AddValueEndpointInput = Extract<AddEndpointInput, { type: 'email' | 'whatsapp' }>;

/**
 * PATCH /api/notification-endpoints/:id: what the endpoint receives, a subset of NOTICE_KINDS
 * (repeats dropped, in NOTICE_KINDS' order; empty for none).
 */
export const endpointNoticesBody = z
  .strictObject(
    {
      notices: z
        .array(z.enum(NOTICE_KINDS, { error: NOTICES_MESSAGE }), { error: NOTICES_MESSAGE })
        .max(NOTICE_KINDS.length * 2, NOTICES_MESSAGE),
    },
    {
      error: (issue) =>
        issue.code === 'unrecognized_keys'
          ? 'Only notices can be changed: send {"notices": ["alert", "digest"]}.'
          : NOTICES_MESSAGE,
    },
  )
  .transform(({ notices }) => ({ notices: NOTICE_KINDS.filter((kind) => notices.includes(kind)) }));

export type EndpointNoticesInput = z.infer<typeof endpointNoticesBody>;

/** GET /api/notification-endpoints/verify?token=: any string, so a missing or malformed token gets the same sentence as an unknown one. */
export const verifyEndpointQuery = z.object({ token: z.string().catch('') });
export type VerifyEndpointQuery = z.infer<typeof verifyEndpointQuery>;

/** POST /api/notification-endpoints/:id/verify: a WhatsApp number's six-digit code. */
export const verifyCodeBody = z.object({
  code: z
    .string({ message: CODE_MESSAGES.format })
    .transform((code) => code.replace(/\s+/g, ''))
    .refine((code) => CODE_PATTERN.test(code), { message: CODE_MESSAGES.format }),
});
export type VerifyCodeInput = z.infer<typeof verifyCodeBody>;

/** GET /api/push/vapid-public-key: the application server key a browser subscribes with. */
export interface ApiVapidPublicKey {
  /** base64url of the uncompressed P-256 point (65 bytes). */
  public_key: string;
}
