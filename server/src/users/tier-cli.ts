/**
 * `npm run user:tier -- EMAIL advanced|basic` sets a user's subscription tier (users/set-tier.ts):
 * an operator's tool, there is no billing. Prints what changed; exits 2 with the usage for a
 * wrong tier or missing arguments, 1 for an email no user has. With PGlite, run it while the
 * server is stopped (one process owns the files).
 */
import { loadConfig } from '@app/config';
import type { SubscriptionTier } from '@app/common/rules/index';
import { openDatabase } from '../db/client.ts';
import { fail } from '../util/cli.ts';
import { BASIC_TIER_REASON, setUserTier, TIERS, UnknownUser } from './set-tier.ts';

const USAGE = 'usage: npm run user:tier -- EMAIL advanced|basic';

const [email, tier, ...extra] = process.argv.slice(2);
if (!email || !tier || extra.length > 0) fail(USAGE, 2);
if (!TIERS.includes(tier as SubscriptionTier))
  fail(`Unknown tier "${tier}": the tiers are ${TIERS.join(' and ')}.\n${USAGE}`, 2);

const config = loadConfig();
const database = await openDatabase({ databaseUrl: config.DATABASE_URL, dataDir: config.DATA_DIR });
try {
  const change = await setUserTier(database.db, { email, tier: tier as SubscriptionTier });
  console.log(
    change.from === change.to
      ? `${change.email} was already on the ${change.to} tier.`
      : `${change.email}: ${change.from} → ${change.to}. It holds within a second; the user sees it on their next page load.`,
  );
  if (change.endpointsChanged > 0)
    console.log(
      change.to === 'basic'
        ? `${change.endpointsChanged} WhatsApp or Telegram endpoint(s) turned off ("${BASIC_TIER_REASON}").`
        : `${change.endpointsChanged} WhatsApp or Telegram endpoint(s) turned back on.`,
    );
} catch (err) {
  if (err instanceof UnknownUser) fail(`${err.message} Nothing was changed.`);
  throw err;
} finally {
  await database.close();
}
