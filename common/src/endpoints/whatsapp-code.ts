/**
 * A WhatsApp number's verification code (docs/notifications.md#whatsapp): six digits sent in a
 * template message, typed into Settings. The sentences the server answers with and the form shows.
 */

export const CODE_LENGTH = 6;
export const CODE_PATTERN = /^\d{6}$/;
/** How long a code works. */
export const CODE_TTL_MINUTES = 10;
/** Wrong codes allowed before a new one is needed. */
export const CODE_MAX_TRIES = 5;

export const CODE_FIELD_LABEL = 'Enter the 6-digit code we sent on WhatsApp';

const resendHint = 'use Resend code for a new one.';

export const CODE_MESSAGES = {
  format: `${CODE_FIELD_LABEL}.`,
  expired: `This code has expired: ${resendHint}`,
  tooManyTries: `Too many wrong codes: ${resendHint}`,
  noCode: `No code has been sent to this number yet: ${resendHint}`,
  notWhatsApp:
    'Only WhatsApp numbers are verified with a code; email addresses are verified by the link we email.',
  notConfigured: 'WhatsApp numbers need no verification yet: WhatsApp is not set up on this server.',
  resendTooSoon: 'Please wait a minute before asking for another code.',
  deferred: "We couldn't send the code on WhatsApp just now. Please try again in a minute.",
  refused:
    'WhatsApp could not deliver a code to this number. Check that the number is on WhatsApp, or delete it and add it again.',
} as const;

/** `That code is not right: 3 tries left.` */
export function wrongCodeMessage(triesLeft: number): string {
  if (triesLeft <= 0) return `That code is not right, and that was the last try: ${resendHint}`;
  return `That code is not right: ${triesLeft} ${triesLeft === 1 ? 'try' : 'tries'} left.`;
}

/** The banner once a code went out. */
export function codeSentNotice(number: string): string {
  return `We sent a 6-digit code on WhatsApp to ${number}. Enter it below within ${CODE_TTL_MINUTES} minutes.`;
}

/** The banner after adding a number whose code could not be sent. */
export const CODE_NOT_SENT_NOTICE = {
  transient:
    "The number was added, but we couldn't send the code on WhatsApp just now. Use Resend code in a minute to try again.",
  permanent:
    'The number was added, but WhatsApp could not deliver a code to it. Check that the number is on WhatsApp, or delete it and add it again.',
} as const;
