/**
 * The `state` a broker login carries there and back (docs/holdings.md#connect-a-broker): random,
 * single-use, valid ten minutes, bound to the user who asked for it. Kept in the database by its
 * sha256 (it works without Redis and across instances; a database read yields no usable state).
 */
import { createHash, randomBytes } from 'node:crypto';
import type { BrokerId } from '@app/common/api/brokers';
import { and, eq, gt, isNull } from 'drizzle-orm';
import type { Executor } from '../db/client.ts';
import { brokerLoginStates } from '../db/schema.ts';

/** How long a login may take, from "Connect" to the broker's redirect back. */
export const LOGIN_STATE_TTL_MS = 10 * 60_000;

const hashOf = (state: string) => createHash('sha256').update(state).digest('hex');

/** A new state for the user's login at `brokerId`. */
export async function createLoginState(
  db: Executor,
  cmd: { userId: string; brokerId: BrokerId; at: Date },
): Promise<string> {
  const state = randomBytes(24).toString('base64url');
  await db.insert(brokerLoginStates).values({
    stateHash: hashOf(state),
    userId: cmd.userId,
    brokerId: cmd.brokerId,
    createdAt: cmd.at,
    expiresAt: new Date(cmd.at.getTime() + LOGIN_STATE_TTL_MS),
  });
  return state;
}

/** Uses up the state: its user, or null when it is unknown, for another broker, expired or used. */
export async function consumeLoginState(
  db: Executor,
  cmd: { state: string; brokerId: BrokerId; at: Date },
): Promise<string | null> {
  const [row] = await db
    .update(brokerLoginStates)
    .set({ usedAt: cmd.at })
    .where(
      and(
        eq(brokerLoginStates.stateHash, hashOf(cmd.state)),
        eq(brokerLoginStates.brokerId, cmd.brokerId),
        isNull(brokerLoginStates.usedAt),
        gt(brokerLoginStates.expiresAt, cmd.at),
      ),
    )
    .returning({ userId: brokerLoginStates.userId });
  return row?.userId ?? null;
}
