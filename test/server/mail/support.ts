/** Shared pieces of the mailer tests: a message with both bodies, and what a send rejected with. */
import type { MailMessage } from '../../../server/src/mail/mailer.ts';

/** A message to `to` with a plain (`plain body`) and an HTML (`<p>html body</p>`) body. */
export function messageTo(to: string, subject: string): MailMessage {
  return { to, subject, text: 'plain body', html: '<p>html body</p>' };
}

/** What `promise` rejected with; fails when it resolves. */
export async function rejection(promise: Promise<unknown>): Promise<unknown> {
  try {
    await promise;
  } catch (err) {
    return err;
  }
  throw new Error('expected the promise to reject');
}
