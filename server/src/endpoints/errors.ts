/** The sentences the endpoint routes answer with, and the errors for a verification email not sent. */
import { AppError } from '../http/errors.ts';

export const ENDPOINT_ERRORS = {
  notFound: 'Notification endpoint not found',
  accountEmail:
    'Your account email cannot be deleted: it is where Portfolio Guard sends your alerts by default.',
  whatsappTier: 'WhatsApp alerts are available on the Advanced tier. Upgrade to add a WhatsApp number.',
  telegramTier: 'Telegram alerts are available on the Advanced tier. Upgrade to connect Telegram.',
  telegramNotConfigured:
    'Telegram alerts are not set up on this server yet. Please use email or this device for now.',
  notEmail:
    'Verification emails are only sent to email endpoints. WhatsApp numbers need no verification yet.',
  alreadyVerified: 'This endpoint is already verified',
  resendTooSoon: 'Please wait a minute before requesting another verification email.',
  invalidLink: 'This verification link is invalid or has already been used.',
  expiredLink: 'This verification link has expired. Please request a new one from Settings.',
} as const;

/** The notice after adding an email endpoint whose verification email could not be sent. */
export const NOT_SENT_NOTICE = {
  transient:
    "The endpoint was added, but we couldn't send the verification email just now. Use Resend Email in a minute to try again.",
  permanent:
    "The endpoint was added, but we couldn't send a verification email to this address. Check the address, or delete it and add it again.",
} as const;

/** Connect Telegram on a server without a bot (TELEGRAM_* unset): 503, and no retry will help. */
export class TelegramNotConfigured extends AppError {
  constructor() {
    super(ENDPOINT_ERRORS.telegramNotConfigured, 503, true);
  }
}

/** The mail provider is failing for now (429, 5xx, network): 503, try again in a minute. */
export class VerificationMailDeferred extends AppError {
  constructor() {
    super("We couldn't send the verification email just now. Please try again in a minute.", 503, true, {
      'Retry-After': '60',
    });
  }
}

/** The mail provider refused the message: 502, retrying will not help. */
export class VerificationMailRefused extends AppError {
  constructor() {
    super(
      "We couldn't send a verification email to this address. Check the address, or delete it and add it again.",
      502,
      true,
    );
  }
}
