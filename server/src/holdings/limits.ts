/**
 * Holdings a user may keep: MAX_HOLDINGS_PER_ACCOUNT in one account and MAX_HOLDINGS_IN_ALL across
 * them, so that no user's data grows without bound (the watch set, the rule index, every page).
 */
import {
  holdingsLimitMessage,
  MAX_HOLDINGS_IN_ALL,
  MAX_HOLDINGS_PER_ACCOUNT,
} from '@app/common/holdings/messages';
import { sql } from 'drizzle-orm';
import { queryRows, type Tx } from '../db/client.ts';
import { Forbidden } from '../http/errors.ts';
import { lockUserTier } from '../users/tier.ts';

export interface HoldingsRoomCheck {
  userId: string;
  accountId: string;
  /** The account as the user sees it, for the message ("Zerodha · AB1234"). */
  accountName: string;
  /** How many holdings the account would keep after the change. */
  accountAfter: number;
}

/**
 * Refuses (403) a change that would leave the account or the user above the limits. Locks the
 * user's row first, so two uploads at once cannot both pass; call inside the change's transaction.
 */
export async function assertHoldingsRoom(tx: Tx, check: HoldingsRoomCheck): Promise<void> {
  await lockUserTier(tx, check.userId);
  if (check.accountAfter > MAX_HOLDINGS_PER_ACCOUNT) {
    throw new Forbidden(holdingsLimitMessage.account(check.accountName, check.accountAfter));
  }
  const [row] = await queryRows<{ others: number }>(
    tx,
    sql`select count(*)::int as others from holdings
        where user_id = ${check.userId} and broker_account_id <> ${check.accountId}`,
  );
  const total = (row?.others ?? 0) + check.accountAfter;
  if (total > MAX_HOLDINGS_IN_ALL) throw new Forbidden(holdingsLimitMessage.total(total));
}
