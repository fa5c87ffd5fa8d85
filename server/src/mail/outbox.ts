/**
 * The dev outbox: in place of sending, each message is stored in `dev_outbox` (so every
 * instance sees it) and listed at GET /api/dev/outbox in demo mode.
 */
import { desc, eq, sql } from 'drizzle-orm';
import type { Logger } from 'pino';
import type { Database } from '../db/client.ts';
import { devOutbox } from '../db/schema.ts';
import { batchMessage, type MailBatch, type RecipientOutcome } from './batch.ts';
import { MailTransientError, type MailMessage, type Mailer } from './mailer.ts';

export function createOutboxMailer(db: Database, log: Logger): Mailer {
  // Strictly increasing times, so "newest first" is well defined even within one millisecond.
  let lastSentAt = 0;
  const stamp = ({ to, subject, text, html, headers }: MailMessage) => {
    lastSentAt = Math.max(Date.now(), lastSentAt + 1);
    return { to, subject, text, html, headers: headers ?? null, sentAt: new Date(lastSentAt) };
  };
  return {
    kind: 'outbox',
    // One insert per batch; the bound keeps it well under PostgreSQL's 65,535 parameters.
    maxBatch: 1000,
    async send(message: MailMessage) {
      await db.insert(devOutbox).values(stamp(message));
      log.info(
        { to: message.to, subject: message.subject },
        'mail stored in the dev outbox (GET /api/dev/outbox)',
      );
    },
    async sendBatch(batch: MailBatch): Promise<RecipientOutcome[]> {
      if (batch.recipients.length === 0) return [];
      const rows = batch.recipients.map((_, i) => stamp(batchMessage(batch, i)));
      try {
        await db.insert(devOutbox).values(rows);
      } catch (err) {
        // The database is the outbox's provider: unreachable is transient, like a 5xx.
        const error = new MailTransientError('dev outbox not stored', undefined, { cause: err });
        return rows.map(() => ({ kind: 'failed', error }));
      }
      log.info({ messages: rows.length }, 'mail stored in the dev outbox (GET /api/dev/outbox)');
      return rows.map(() => ({ kind: 'sent' }));
    },
    close: () => undefined,
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
    ...(row.headers ? { headers: row.headers } : {}),
    sentAt: row.sentAt.toISOString(),
  }));
}
