/**
 * B8's crash day (issue #18): a book of exit rules of which a known share crosses in one tick
 * batch when every instrument falls 5–6 %, as on 4 June 2024. The seeding SQL (crash-seed.ts)
 * and the batches here follow the same rules:
 *
 * - Rule r (0 … rules−1) belongs to user ordinal r mod users and sits on that user's holding
 *   k = ⌊r / users⌋ (heldIndexes of market.ts, so it covers a holding the user has).
 * - The `crossings` rules whose md5(r) sorts first cross in the crash batch: a fixed, even
 *   spread over the users (some have several, some none); which ones, the seeding reads back
 *   from the rules as stored (crash-seed.ts), so the bench expects what the data says.
 * - Crossing rules are stops 1–4 % below the previous close (60 % fixed, 40 % trailing); the
 *   others are stops 10–25 % below (45 % fixed, 30 % trailing) or take-profits 3–50 % above
 *   (25 %); one in five is an absolute amount, the rest a percentage. Calm batches move prices
 *   by ±0.2 %, the crash takes 5–6 % off, the batches after it recover by up to 0.2 %: only the
 *   crash batch crosses anything.
 * - Users: four in five on the Basic tier (5 emails a month), seven in ten with a verified
 *   email endpoint (ordinal mod 5 = 0 is Advanced, ordinal mod 10 < 7 has the email).
 */
import type { TickBatch } from '@app/common/market/tick-batch';
import { round2 } from '@app/common/portfolio/position-math';
import { benchBatch } from './market.ts';

export interface CrashPlan {
  /** Distinguishes the seeded users (letters and digits). */
  tag: string;
  users: number;
  rules: number;
  /** Rules that cross in the crash batch. */
  crossings: number;
  /** The instruments (NSE), from plausibleSymbols. */
  symbols: readonly string[];
}

/** Holdings per user: every user holds as many instruments as their most rules. */
export const holdingsPerUser = (plan: Pick<CrashPlan, 'rules' | 'users'>) =>
  Math.ceil(plan.rules / plan.users);

/** Instrument i's previous close (as market.ts's tickBatch). */
export const prevCloseOf = (i: number) => 100 + (i % 900);
/** Instrument i's price after the fall: 5.0–6.0 % below its previous close. */
export const crashPriceOf = (i: number) => round2(prevCloseOf(i) * (1 - (5 + ((i * 7) % 11) / 10) / 100));

export type CrashBatchKind = 'calm' | 'crash' | 'after';

/** One poll over every instrument; `at` is set now (publish it at once). */
export function crashDayBatch(symbols: readonly string[], kind: CrashBatchKind, seq: number): TickBatch {
  return benchBatch(`b8-${kind}-${seq}`, symbols, (i) => {
    const prevClose = prevCloseOf(i);
    const ltp =
      kind === 'calm'
        ? round2(prevClose * (1 + Math.sin(seq + i) / 500))
        : kind === 'crash'
          ? crashPriceOf(i)
          : round2(crashPriceOf(i) * (1 + Math.abs(Math.sin(seq + i)) / 500));
    return { ltp, prevClose };
  });
}
