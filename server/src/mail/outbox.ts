/**
 * The dev outbox: in place of sending, each message is stored in `dev_outbox` (so every
 * instance sees it) and listed at GET /api/dev/outbox in demo mode.
 */
import { desc, eq, sql } from 'drizzle-orm';
import type { Logger } from 'pino';
import type { Database } from '../db/client.ts';
import { devOutbox } from '../db/schema.ts';
import type { MailMessage, Mailer } from './mailer.ts';

export function createOutboxMailer(db: Database, log: Logger): Mailer {
  // Strictly increasing times, so "newest first" is well defined even within one millisecond.
  let lastSentAt = 0;
  return {
    kind: 'outbox',
    async send(message: MailMessage) {
      const { to, subject, text, html } = message;
      lastSentAt = Math.max(Date.now(), lastSentAt + 1);
      await db.insert(devOutbox).values({ to, subject, text, html, sentAt: new Date(lastSentAt) });
      log.info({ to, subject }, 'mail stored in the dev outbox (GET /api/dev/outbox)');
    },
  };
}

export interface OutboxEntry extends MailMessage {
  sentAt: string;
}

/** Stored messages, newest first; `to` filters by recipient, case-insensitively. */
export async function listOutbox(db: Database, opts: { to?: string; limit: number }): Promise<OutboxEntry[]> {
  const rows = await db
    .select()
    .from(devOutbox)
    .where(opts.to ? eq(sql`lower(${devOutbox.to})`, opts.to.trim().toLowerCase()) : undefined)
    .orderBy(desc(devOutbox.sentAt))
    .limit(opts.limit);
  return rows.map((row) => ({
    to: row.to,
    subject: row.subject,
    text: row.text,
    html: row.html,
    sentAt: row.sentAt.toISOString(),
  }));
}
