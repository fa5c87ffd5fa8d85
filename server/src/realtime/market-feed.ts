/**
 * Tells every tab where prices come from and how current they are, whatever the user holds
 * (`market:feed`, common/src/market/feed.ts): on connecting, and when a batch moves the feed (a
 * new source or delay, or a newest price at least `MIN_ADVANCE_MS` newer than the last sent).
 * Before the first batch it says the configured source and the newest stored price, so a server
 * started at night still says when the market last traded. Local only: every instance hears
 * every batch.
 */
import { feedAfterBatch, type MarketFeed } from '@app/common/market/feed';
import type { TickBatch } from '@app/common/market/tick-batch';
import { sql } from 'drizzle-orm';
import type { Logger } from 'pino';
import { queryRows, type Executor } from '../db/client.ts';
import type { AppSocket, RealtimeServer } from './socket-server.ts';

/** The header's freshness allows minutes; one message a batch to every socket would be waste. */
const MIN_ADVANCE_MS = 30_000;

export interface MarketFeedRelay {
  /** The pipeline's stage for each batch. */
  deliver(batch: TickBatch): void;
  stop(): void;
}

/** The newest stored price's time and delay: what the feed says before its first batch. */
async function newestStoredQuote(db: Executor): Promise<Pick<MarketFeed, 'asOf' | 'delayMinutes'>> {
  const [row] = await queryRows<{ as_of: Date | string; delay_minutes: number }>(
    db,
    sql`select as_of, delay_minutes from quotes where not stale order by as_of desc limit 1`,
  );
  return row
    ? { asOf: new Date(row.as_of).getTime(), delayMinutes: Number(row.delay_minutes) }
    : { asOf: null, delayMinutes: 0 };
}

/** Relays the feed's state to this instance's sockets; `source` is the configured provider. */
export function relayMarketFeed(
  io: RealtimeServer,
  opts: { db: Executor; source: string; log: Logger },
): MarketFeedRelay {
  let feed: MarketFeed = { source: opts.source, asOf: null, delayMinutes: 0 };
  let sent = feed;
  let batchSeen = false;
  newestStoredQuote(opts.db).then(
    (stored) => {
      if (!batchSeen) feed = sent = { ...feed, ...stored };
    },
    (err: unknown) => opts.log.warn({ err }, 'market feed: newest stored quote not read'),
  );
  const onConnection = (socket: AppSocket) => socket.emit('market:feed', feed);
  io.on('connection', onConnection);
  return {
    deliver(batch) {
      batchSeen = true;
      feed = feedAfterBatch(feed, batch);
      const moved =
        feed.source !== sent.source ||
        feed.delayMinutes !== sent.delayMinutes ||
        (feed.asOf ?? 0) - (sent.asOf ?? 0) >= MIN_ADVANCE_MS ||
        (sent.asOf === null && feed.asOf !== null);
      if (!moved) return;
      sent = feed;
      io.local.emit('market:feed', feed);
    },
    stop: () => void io.off('connection', onConnection),
  };
}
