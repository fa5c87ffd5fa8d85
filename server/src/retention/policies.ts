/**
 * How long each growing table keeps its rows (docs/reliability-and-security.md lists them):
 * one row per table, the condition that makes a row old at `now`. The retention job deletes
 * the old rows in chunks; everything else a user owns stays while the account is open.
 */
import { sql, type SQL } from 'drizzle-orm';

export interface RetentionPolicy {
  table: string;
  /** What the table holds, and how long it is kept (for the log and the docs). */
  keeps: string;
  /** The rows that are old at `now`. */
  old: (now: Date) => SQL;
}

/** The same instant `years` years before `now`. */
function yearsBefore(now: Date, years: number): string {
  const at = new Date(now);
  at.setUTCFullYear(at.getUTCFullYear() - years);
  return at.toISOString();
}

const daysBefore = (now: Date, days: number) => new Date(now.getTime() - days * 86_400_000).toISOString();

/** Alert history: 2 years (the privacy policy's "Alert and rule execution history: 2 years"). */
export const HISTORY_YEARS = 2;

export const RETENTION_POLICIES: readonly RetentionPolicy[] = Object.freeze([
  {
    table: 'rule_executions',
    keeps: 'History (and its outbox rows): 2 years',
    old: (now) => sql`executed_at < ${yearsBefore(now, HISTORY_YEARS)}::timestamptz`,
  },
  {
    table: 'alert_deliveries',
    keeps: 'outbox rows sent or failed for good: 30 days (History keeps the outcome)',
    old: (now) => sql`status in ('SENT', 'FAILED') and created_at < ${daysBefore(now, 30)}::timestamptz`,
  },
  {
    table: 'digests',
    keeps: 'evening digests with their day\u2019s firings: 2 years, as History',
    old: (now) => sql`created_at < ${yearsBefore(now, HISTORY_YEARS)}::timestamptz`,
  },
  {
    table: 'corporate_action_adjustments',
    keeps: 'corporate-action adjustments (the notes on a rule): 2 years, as History',
    old: (now) => sql`created_at < ${yearsBefore(now, HISTORY_YEARS)}::timestamptz`,
  },
  {
    table: 'page_events',
    keeps: 'usage logs: 1 year (the privacy policy)',
    old: (now) => sql`created_at < ${yearsBefore(now, 1)}::timestamptz`,
  },
  {
    table: 'refresh_tokens',
    keeps: 'refresh tokens: until they expire (30 days after issue)',
    old: (now) => sql`expires_at < ${now.toISOString()}::timestamptz`,
  },
  {
    table: 'dev_outbox',
    keeps: 'the demo outbox: 7 days',
    old: (now) => sql`sent_at < ${daysBefore(now, 7)}::timestamptz`,
  },
  {
    table: 'price_bars',
    keeps: 'one-minute price bars: 7 days (daily bars stay)',
    old: (now) => sql`interval = '1m' and bucket < ${daysBefore(now, 7)}::timestamptz`,
  },
]);
