/** Chooses the mailer from config.mailTransport; nothing else asks which one it got. */
import type { Config } from '@app/config';
import type { Logger } from 'pino';
import type { Database } from '../db/client.ts';
import type { Mailer } from './mailer.ts';
import { createOutboxMailer } from './outbox.ts';
import { createSendGridMailer } from './sendgrid.ts';
import { createSmtpMailer } from './smtp.ts';

export function createMailer(config: Config, db: Database, log: Logger): Mailer {
  switch (config.mailTransport) {
    case 'sendgrid':
      return createSendGridMailer({
        apiKey: config.SENDGRID_API_KEY!,
        apiUrl: config.SENDGRID_API_URL,
        from: config.MAIL_FROM,
      });
    case 'smtp':
      return createSmtpMailer({ url: config.SMTP_URL!, from: config.MAIL_FROM });
    case 'outbox':
      return createOutboxMailer(db, log);
  }
}
