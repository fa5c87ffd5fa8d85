/** The user's settings (GET/PUT /api/settings): columns of the user row, one per setting. */
import type { ApiSettings, UpdateSettingsInput } from '@app/common/api/settings';
import { eq, sql } from 'drizzle-orm';
import type { Executor } from '../db/client.ts';
import { users } from '../db/schema.ts';
import { NotFound } from '../http/errors.ts';

const columns = { protectNewHoldings: users.protectNewHoldings, eveningDigest: users.eveningDigest };

function present(row: { protectNewHoldings: boolean; eveningDigest: boolean }): ApiSettings {
  return { protect_new_holdings: row.protectNewHoldings, evening_digest: row.eveningDigest };
}

/** The user's settings. */
export async function getSettings(db: Executor, userId: string): Promise<ApiSettings> {
  const [row] = await db.select(columns).from(users).where(eq(users.id, userId));
  if (!row) throw new NotFound('User not found');
  return present(row);
}

/** Changes the settings named in `change`; answers all of them. */
export async function updateSettings(
  db: Executor,
  { userId, change }: { userId: string; change: UpdateSettingsInput },
): Promise<ApiSettings> {
  const [row] = await db
    .update(users)
    .set({
      ...(change.protect_new_holdings !== undefined
        ? { protectNewHoldings: change.protect_new_holdings }
        : {}),
      ...(change.evening_digest !== undefined ? { eveningDigest: change.evening_digest } : {}),
      updatedAt: sql`now()`,
    })
    .where(eq(users.id, userId))
    .returning(columns);
  if (!row) throw new NotFound('User not found');
  return present(row);
}
