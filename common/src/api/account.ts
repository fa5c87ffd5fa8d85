/**
 * The user's own data (docs/privacy.md): GET /api/users/me/export, a JSON file of everything the
 * account holds, and DELETE /api/users/me, which removes it after the user types their email.
 */
import { z } from 'zod';

/** DELETE /api/users/me: the account's email, typed by the user to confirm. */
export const deleteAccountBody = z.object({
  confirm_email: z
    .string({ error: 'Type your account email to confirm' })
    .trim()
    .min(1, { error: 'Type your account email to confirm' })
    .max(320, { error: 'Type your account email to confirm' }),
});
export type DeleteAccountInput = z.infer<typeof deleteAccountBody>;

/** Whether `typed` is the account's email (case and surrounding spaces do not matter). */
export function confirmsEmail(typed: string, accountEmail: string): boolean {
  return typed.trim().toLowerCase() === accountEmail.trim().toLowerCase();
}

export const ACCOUNT_TEXTS = {
  wrongEmail: "The email you typed is not this account's email, so nothing was deleted.",
  deleted: 'Your account and all its data were deleted.',
} as const;

/** `portfolio-guard-export-2026-11-27.json`: the export's file name, for the IST day `day`. */
export function exportFileName(day: string): string {
  return `portfolio-guard-export-${day}.json`;
}
