/**
 * Seeds B8's crash day inside a server process (set-based SQL): the users and their holdings
 * (seed.ts), tiers and verified endpoints (B8's email mix, or B9's and B10's phones), and the
 * rule book of crash-day.ts, whose formulas this SQL repeats.
 */
import { sql } from 'drizzle-orm';
import { queryRows, type Database } from '../../server/src/db/client.ts';
import { holdingsPerUser, type CrashPlan } from './crash-day.ts';
import { seedUsers, type SeededUser } from './seed.ts';

/** A browser's push subscription, as the fake push service made it. */
export interface PushKeys {
  endpoint: string;
  p256dh: string;
  auth: string;
}

/**
 * B9's and B10's endpoints instead of B8's mix: every user on the Advanced tier (Telegram is an
 * Advanced channel), a verified email each when `email`, a started Telegram chat each when
 * `telegram` (chat id TELEGRAM_CHAT_BASE + ordinal), and user _n_'s Web Push subscription
 * `webpush[n]` (none past the list's end).
 */
export interface PhoneEndpoints {
  email: boolean;
  telegram: boolean;
  webpush: PushKeys[];
}

/** User _n_'s Telegram chat id is this plus n. */
export const TELEGRAM_CHAT_BASE = 500_000_000;

export interface CrashDayUser extends SeededUser {
  /** The user's rules that the crash batch crosses, read back from the rules as stored. */
  crossing: string[];
}

/**
 * Seeds the plan; returns every user with the rules of theirs that cross at the crash
 * prices (stops whose level is at or above the instrument's crash price), which must be
 * exactly `plan.crossings` rules.
 */
export async function seedCrashDay(
  db: Database,
  plan: CrashPlan,
  phones?: PhoneEndpoints,
): Promise<CrashDayUser[]> {
  const perUser = holdingsPerUser(plan);
  const users = await seedUsers(db, { tag: plan.tag, count: plan.users, perUser, symbols: plan.symbols });
  const like = `${plan.tag}-%`;
  const ordinal = sql`split_part(google_sub, '-', 2)::int`;
  if (phones) await seedPhones(db, like, phones);
  else {
    // seedUsers makes everyone Advanced; four in five are Basic (5 emails a month).
    await db.execute(
      sql`update users set subscription_tier = 'basic' where google_sub like ${like} and ${ordinal} % 5 <> 0`,
    );
    await db.execute(sql`insert into notification_endpoints
        (user_id, type, value, value_key, is_active, verification_status, verified_at)
      select id, 'email', email, lower(email), true, 'verified', now() from users
      where google_sub like ${like} and ${ordinal} % 10 < 7`);
  }
  const n = plan.symbols.length;
  await db.execute(sql`
    with r as (
      select g as r, g % ${plan.users}::int as u, g / ${plan.users}::int as k,
        row_number() over (order by md5(g::text)) <= ${plan.crossings}::int as crossing,
        ((g::bigint * 2654435761) % 4294967296)::float8 / 4294967296 as d,
        ((g::bigint * 40503 + 12345) % 65536)::float8 / 65536 as e,
        g % 5 = 0 as absolute
      from generate_series(0, ${plan.rules - 1}::int) g
    ), typed as (
      select r.*,
        case when crossing then (case when d < 0.6 then 'FIXED_STOP_LOSS' else 'TRAILING_STOP_LOSS' end)
             when d < 0.45 then 'FIXED_STOP_LOSS' when d < 0.75 then 'TRAILING_STOP_LOSS'
             else 'TAKE_PROFIT' end as trigger_type,
        (u * 37 + k * 101) % ${n}::int as i
      from r
    ), priced as (
      select typed.*, 100 + i % 900 as ref,
        case when crossing then 1 + 3 * e when trigger_type = 'TAKE_PROFIT' then 3 + 47 * e
             else 10 + 15 * e end as pct
      from typed
    ), valued as (
      select priced.*,
        case when absolute then round((ref * pct / 100)::numeric, 2) else round(pct::numeric, 2) end as value
      from priced
    )
    insert into position_rules (id, user_id, symbol, exchange, rule_name, rule_scope, action_type,
      trigger_type, trigger_value, value_type, reference_price, peak_price, computed_trigger_price)
    select ('00000000-0000-4000-8000-' || lpad(to_hex(v.r), 12, '0'))::uuid, u.id, s.sym, 'NSE',
      'Crash-day rule ' || v.r, 'all_holdings', 'ALERT', v.trigger_type, v.value,
      case when v.absolute then 'ABSOLUTE' else 'PERCENT' end, v.ref,
      case when v.trigger_type = 'TRAILING_STOP_LOSS' then v.ref end,
      case when v.trigger_type = 'TAKE_PROFIT'
           then (case when v.absolute then v.ref + v.value else round(v.ref * (1 + v.value / 100), 2) end)
           else (case when v.absolute then v.ref - v.value else round(v.ref * (1 - v.value / 100), 2) end) end
    from valued v
    join users u on u.google_sub = ${plan.tag}::text || '-' || v.u
    join unnest(string_to_array(${plan.symbols.join(',')}::text, ',')) with ordinality as s(sym, ord)
      on s.ord - 1 = v.i`);
  await db.execute(sql`analyze`);
  // The crash price of crash-day.ts, per instrument.
  const crossing = await queryRows<{ ordinal: number; ids: string[] }>(
    db,
    sql`with crash as (
      select s.sym, round((100 + (s.ord - 1) % 900) * (1 - (5 + ((s.ord - 1) * 7 % 11) / 10.0) / 100), 2) as ltp
      from unnest(string_to_array(${plan.symbols.join(',')}::text, ',')) with ordinality as s(sym, ord))
    select split_part(u.google_sub, '-', 2)::int as ordinal, array_agg(p.id::text order by p.id) as ids
    from position_rules p join crash c on c.sym = p.symbol join users u on u.id = p.user_id
    where p.trigger_type <> 'TAKE_PROFIT' and p.computed_trigger_price >= c.ltp and u.google_sub like ${like}
    group by u.google_sub`,
  );
  const byOrdinal = new Map(crossing.map((c) => [Number(c.ordinal), c.ids]));
  const total = crossing.reduce((n, c) => n + c.ids.length, 0);
  if (total !== plan.crossings)
    throw new Error(`${total} rules cross at the crash prices, not ${plan.crossings}`);
  return users.map((u) => ({ ...u, crossing: byOrdinal.get(u.ordinal) ?? [] }));
}

/** B9's and B10's endpoints (PhoneEndpoints); everyone stays Advanced, as seedUsers made them. */
async function seedPhones(db: Database, like: string, phones: PhoneEndpoints): Promise<void> {
  const ordinal = sql`split_part(google_sub, '-', 2)::int`;
  if (phones.email)
    await db.execute(sql`insert into notification_endpoints
        (user_id, type, value, value_key, is_active, verification_status, verified_at)
      select id, 'email', email, lower(email), true, 'verified', now() from users where google_sub like ${like}`);
  if (phones.telegram)
    await db.execute(sql`insert into notification_endpoints
        (user_id, type, value, value_key, label, is_active, verification_status, verified_at)
      select id, 'telegram', chat, chat, '@bench' || ${ordinal}, true, 'verified', now()
      from (select id, google_sub, (${TELEGRAM_CHAT_BASE}::bigint + ${ordinal})::text as chat
            from users where google_sub like ${like}) u`);
  if (phones.webpush.length) {
    const column = (key: keyof PushKeys) => phones.webpush.map((p) => p[key]).join(',');
    await db.execute(sql`insert into notification_endpoints
        (user_id, type, value, value_key, label, meta, is_active, verification_status, verified_at)
      select u.id, 'webpush', s.endpoint, s.endpoint, 'Chrome on Android',
        jsonb_build_object('keys', jsonb_build_object('p256dh', s.p256dh, 'auth', s.auth)), true, 'verified', now()
      from unnest(string_to_array(${column('endpoint')}::text, ','), string_to_array(${column('p256dh')}::text, ','),
                  string_to_array(${column('auth')}::text, ',')) with ordinality as s(endpoint, p256dh, auth, n)
      join users u on u.google_sub = ${like.slice(0, -1)}::text || (s.n - 1)`);
  }
}
