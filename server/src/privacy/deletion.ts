/**
 * Deleting an account (DELETE /api/users/me), after the user typed the account's email: the user
 * row goes and with it, by the schema's cascades, everything of theirs (refresh tokens, endpoints,
 * broker accounts, holdings, rules, price alerts, History and its outbox rows, digests,
 * corporate-action adjustments); page views stay without the user (`set null`). After the commit
 * every instance ends the user's sessions and closes their sockets (the `sessions` change), the
 * engines drop their rules, and a last email tells the account's address.
 */
import { ACCOUNT_TEXTS, confirmsEmail } from '@app/common/api/account';
import { eq } from 'drizzle-orm';
import { announceUserGone } from '../auth/sessions.ts';
import type { SessionUser } from '../auth/session-users.ts';
import { retryOnDeadlock } from '../db/deadlock.ts';
import { users } from '../db/schema.ts';
import type { AppDeps } from '../deps.ts';
import { Invalid, NotFound } from '../http/errors.ts';
import { MailPermanentError, MailTransientError } from '../mail/mailer.ts';
import { sendWithRetry } from '../mail/retry.ts';
import { renderAccountDeletedEmail } from '../mail/templates/account-deleted.ts';

type DeletionDeps = Pick<AppDeps, 'db' | 'events' | 'requestRedis' | 'mailer' | 'log'>;

/** Tries for the last email, waited for by the request (the account is gone whatever happens). */
const LAST_EMAIL_RETRY = { attempts: 2, baseDelayMs: 500 };

/**
 * Deletes `user`'s account when `confirmEmail` is its email (Invalid, and nothing deleted,
 * otherwise). Resolves once the deletion is announced and the last email was handed over (or
 * its failure logged).
 */
export async function deleteAccount(
  deps: DeletionDeps,
  { user, confirmEmail }: { user: SessionUser; confirmEmail: string },
): Promise<void> {
  if (!confirmsEmail(confirmEmail, user.email)) throw new Invalid(ACCOUNT_TEXTS.wrongEmail);
  // A job that locked a row of the user's and then names the user (an adjustment, a History
  // row) waits for the user's row while the cascade waits for its row: one of the two is retried.
  const [gone] = await retryOnDeadlock(() =>
    deps.db.delete(users).where(eq(users.id, user.id)).returning({ email: users.email, name: users.name }),
  );
  if (!gone) throw new NotFound('User not found');
  await announceUserGone(deps, { userId: user.id });
  void deps.events.publish([
    { type: 'rules', userId: user.id },
    { type: 'holdings', userId: user.id },
    { type: 'brokers', userId: user.id },
  ]);
  deps.log.info({ userId: user.id }, 'account deleted');
  await sendLastEmail(deps, { userId: user.id, to: gone.email, name: gone.name });
}

async function sendLastEmail(
  deps: DeletionDeps,
  { userId, to, name }: { userId: string; to: string; name: string },
): Promise<void> {
  try {
    await sendWithRetry(
      deps.mailer,
      { to, ...renderAccountDeletedEmail({ userName: name }) },
      LAST_EMAIL_RETRY,
    );
  } catch (err) {
    // The account is gone whatever the mail does: the answer still says so.
    const reason =
      err instanceof MailTransientError || err instanceof MailPermanentError ? err.reason : undefined;
    deps.log.error({ err, userId, reason, mailer: deps.mailer.kind }, 'account-deleted email not sent');
  }
}
