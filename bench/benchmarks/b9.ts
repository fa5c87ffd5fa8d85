/**
 * B9: crash day on every channel (issue #30). B8's crash (50,000 crossings in one tick batch,
 * set-based claims) with every user on the Advanced tier holding a verified email, a Web Push
 * subscription (the tests' fake push service over TLS, which decrypts every payload) and a
 * started Telegram chat (the tests' fake Bot API, every chat started). Measured: every push
 * accepted, one Telegram message per user against the floor Telegram's 30 messages a second
 * sets, every email, each once; and B8's own figures for this run. Baseline, in the same run:
 * the same crash on a copy whose Web Push and Telegram endpoints are off (email only, as B8).
 */
import os from 'node:os';
import { holdingsPerUser } from '../lib/crash-day.ts';
import type { DatabaseProbe } from '../lib/crash-probes.ts';
import { startPhoneFakes, type PhoneMark, type PushTally, type TelegramTally } from '../lib/phone-probes.ts';
import { max, percentile, sleep, until } from '../lib/stats.ts';
import { result, round, type BenchContext, type BenchResult, type Benchmark } from '../lib/types.ts';
import { crashRun, seedTemplate, type CrashRun } from './b8/crash-run.ts';
import { instancesName, runNote, shapeResults } from './b8/results.ts';
import { b8Size, type B8Size } from './b8/size.ts';

/** Telegram's limit for a bot: about 30 messages a second in all (Bots FAQ). */
const TELEGRAM_PER_SECOND = 30;

export interface B9Size extends B8Size {
  /** How long to wait, from the crash, for every push and every Telegram message. */
  phoneWaitS: number;
  /** Once every push and message came: how long to go on watching for a second copy (ms). */
  lateMs: number;
}

/** B9_<X> for each B8_<X> figure B9 takes (B9_SIZE full, mid or quick; B9_RULES, ...). */
const FIGURES = ['SIZE', 'RULES', 'CROSSINGS', 'USERS', 'INSTRUMENTS', 'SOCKETS', 'QUIET_SOCKETS'];

/**
 * The size to run: B8's (full by default: 50,000 crossings over 30,000 users), from B9_SIZE and
 * B9_RULES, B9_CROSSINGS, B9_USERS, ...; one instance (B9_INSTANCES=1,2 for both shapes); the
 * phones' wait 1.5 × Telegram's floor for every user plus a minute (B9_PHONE_WAIT_S).
 */
export function b9Size(quick: boolean, env: NodeJS.ProcessEnv = process.env): B9Size {
  const b8Env: NodeJS.ProcessEnv = {};
  for (const figure of FIGURES)
    if (env[`B9_${figure}`] !== undefined) b8Env[`B8_${figure}`] = env[`B9_${figure}`];
  const base = b8Size(quick, b8Env);
  const instances = quick || !env.B9_INSTANCES ? [1] : env.B9_INSTANCES.split(',').map(Number);
  if (instances.some((n) => n !== 1 && n !== 2)) throw new Error('B9_INSTANCES must list 1 and/or 2');
  const wait = quick ? undefined : env.B9_PHONE_WAIT_S;
  const phoneWaitS =
    wait === undefined ? Math.ceil((1.5 * base.users) / TELEGRAM_PER_SECOND) + 60 : Number(wait);
  if (!Number.isInteger(phoneWaitS) || phoneWaitS <= 0)
    throw new Error(`B9_PHONE_WAIT_S must be a positive integer (not ${wait})`);
  return { ...base, instances, paths: ['set-based'], phoneWaitS, lateMs: quick ? 1000 : 5000 };
}

/** What the phone channels did in a run with every channel on. */
export interface PhoneFigures {
  /** Outbox rows for Web Push, and the Telegram chats the claims wrote rows for. */
  pushRows: number;
  telegramChats: number;
  pushes: PushTally;
  telegram: TelegramTally;
  /** From the crash to the last push accepted, and to the last Telegram message (ms); null when not all came. */
  pushMs: number | null;
  telegramMs: number | null;
  /** From the crash to the median push accepted (ms). */
  pushP50Ms: number | null;
  /** Telegram's floor for these chats: chats ÷ 30 a second (ms). */
  telegramFloorMs: number;
}

export interface B9Run {
  channels: 'every' | 'email';
  run: CrashRun;
  phones?: PhoneFigures;
}

export interface B9Evidence {
  size: B9Size;
  runs: B9Run[];
}

/** Waits for the phones after B8's figures are taken, then tallies them. */
async function measurePhones(
  size: B9Size,
  mark: PhoneMark,
  t0: number,
  probe: DatabaseProbe,
): Promise<PhoneFigures> {
  const pushRows = (await probe.deliveries('webpush')).rows;
  const telegramChats = (await probe.deliveries('telegram')).endpoints;
  const done = () => mark.answered() >= pushRows && mark.telegram().chats >= telegramChats;
  await until(async () => done(), t0 + size.phoneWaitS * 1000, 500);
  // A retry that sends a second time would come a little later.
  await sleep(size.lateMs);
  const pushes = mark.pushes();
  const telegram = mark.telegram();
  const lastPush = pushes.at.length ? max(pushes.at) : null;
  return {
    pushRows,
    telegramChats,
    pushes,
    telegram,
    pushP50Ms: pushes.at.length ? percentile(pushes.at, 50) - t0 : null,
    pushMs: pushes.accepted >= pushRows && lastPush !== null ? lastPush - t0 : null,
    telegramMs:
      telegram.chats >= telegramChats && telegram.lastAt !== undefined ? telegram.lastAt - t0 : null,
    telegramFloorMs: (telegramChats / TELEGRAM_PER_SECOND) * 1000,
  };
}

const seconds = (ms: number | null) => (ms === null ? null : round(ms / 1000, 2));

/** B8's lines for the every-channel run against the email-only one, named B9. */
function crashLines(every: CrashRun, email: CrashRun | undefined, crossings: number): BenchResult[] {
  return shapeResults(every, email, crossings).map((r) => ({
    ...r,
    id: r.id.replace(/^B8-/, 'B9-'),
    name: r.name.replace(
      /\)$/,
      r.id.startsWith('B8-next-batch')
        ? ', every user with email, Web Push and Telegram)'
        : ', every user with email, Web Push and Telegram; baseline column: email only)',
    ),
  }));
}

/** The phone channels' lines of one shape. */
function phoneLines(n: number, run: CrashRun, p: PhoneFigures): BenchResult[] {
  const shape = instancesName(n);
  const push = seconds(p.pushMs);
  const telegram = seconds(p.telegramMs);
  const floor = round(p.telegramFloorMs / 1000, 2);
  const pushLost = p.pushRows - p.pushes.accepted;
  const telegramLost = p.telegramChats - p.telegram.chats;
  const emailLost = Math.max(0, run.expectedEmails - run.emails);
  const emailDoubled = Math.max(0, run.emails - run.expectedEmails);
  const once = (channel: string, lost: number, doubled: number) =>
    result({
      id: `B9-once-${channel.toLowerCase().replace(' ', '')}-${n}`,
      name: `${channel}: lost + doubled (${lost} lost, ${doubled} doubled; ${shape})`,
      value: lost + doubled,
      unit: 'deliveries',
      baseline: null,
      target: '0',
      pass: lost + doubled === 0,
    });
  return [
    result({
      id: `B9-push-${n}`,
      name: `Crossing → the last of ${p.pushRows.toLocaleString('en-US')} pushes accepted by the (fake) push service, decrypted (${shape})`,
      value: push,
      unit: 's',
      baseline: null,
      target: '< 30 s',
      pass: push !== null && push < 30 && p.pushes.undecryptable === 0,
    }),
    result({
      id: `B9-telegram-${n}`,
      name: `Crossing → the last of ${p.telegramChats.toLocaleString('en-US')} Telegram messages (one per user) sent, against Telegram's floor (users ÷ 30 a second, the baseline column) (${shape})`,
      value: telegram,
      unit: 's',
      baseline: floor,
      target: '≤ 1.2 × the floor',
      pass: telegram !== null && telegram <= 1.2 * floor,
    }),
    once('Web Push', pushLost, p.pushes.doubled),
    once('Telegram', telegramLost, p.telegram.doubled + p.telegram.strangers),
    once('Email', emailLost, emailDoubled),
  ];
}

function phoneNote(n: number, p: PhoneFigures): string {
  return (
    `B9 every channel, ${instancesName(n)}: Web Push ${p.pushes.accepted} of ${p.pushRows} accepted and decrypted ` +
    `(${p.pushes.doubled} twice, ${p.pushes.refused} refused, ${p.pushes.undecryptable} undecryptable), p50 ${seconds(p.pushP50Ms)} s, last ${p.pushMs === null ? 'not all within the wait' : `${seconds(p.pushMs)} s`}; ` +
    `Telegram ${p.telegram.messages} messages to ${p.telegram.chats} of ${p.telegramChats} chats ` +
    `(${p.telegram.doubled} beyond one a chat, ${p.telegram.strangers} to unknown chats, ${p.telegram.throttled} refused by the fake's limits), ` +
    `last ${p.telegramMs === null ? 'not all within the wait' : `${seconds(p.telegramMs)} s`} against a floor of ${seconds(p.telegramFloorMs)} s.`
  );
}

export const b9: Benchmark<B9Evidence> = {
  id: 'B9',
  title: 'Crash day on every channel: 50,000 crossings to email, Web Push and Telegram',
  async run(ctx: BenchContext) {
    const size = b9Size(ctx.quick);
    if (!ctx.postgresUrl) {
      return {
        results: size.instances.flatMap((n) =>
          (
            [
              ['push', 'Crossing → the last push accepted', 's'],
              ['telegram', 'Crossing → the last Telegram message sent', 's'],
              ['once-webpush', 'Web Push: lost + doubled', 'deliveries'],
              ['once-telegram', 'Telegram: lost + doubled', 'deliveries'],
              ['once-email', 'Email: lost + doubled', 'deliveries'],
            ] as const
          ).map(([m, name, unit]) =>
            result({
              id: `B9-${m}-${n}`,
              name,
              value: null,
              unit,
              baseline: null,
              target: 'not measured: needs PostgreSQL',
              pass: false,
            }),
          ),
        ),
        notes: ['B9: not measured (needs a PostgreSQL server, as B8).'],
        evidence: { size, runs: [] },
      };
    }
    const load = os.loadavg()[0]!.toFixed(2);
    const fakes = await startPhoneFakes(size.users, { telegram: true });
    const runs: B9Run[] = [];
    try {
      const seeded = await seedTemplate(ctx, size, {
        tag: 'b9',
        endpoints: { email: true, telegram: true, webpush: fakes.subscriptions },
      });
      try {
        for (const n of size.instances)
          for (const channels of ['every', 'email'] as const) {
            const started = Date.now();
            const mark = fakes.mark();
            let phones: PhoneFigures | undefined;
            const run = await crashRun(ctx, size, seeded, 'set-based', n, {
              name: `B9 ${channels === 'every' ? 'every channel' : 'email only'}`,
              env: fakes.env,
              pushCa: fakes.pushCa,
              emailOnly: channels === 'email',
              measure: async (t0, probe) => {
                if (channels === 'every') phones = await measurePhones(size, mark, t0, probe);
              },
            });
            runs.push({ channels, run, ...(phones ? { phones } : {}) });
            ctx.log(b9RunNote(channels, run));
            if (phones) ctx.log(phoneNote(n, phones));
            ctx.log(
              `B9 ${channels}, ${instancesName(n)}: done in ${Math.round((Date.now() - started) / 1000)} s`,
            );
          }
      } finally {
        await seeded.template.drop();
      }
    } finally {
      await fakes.close();
    }
    const find = (channels: B9Run['channels'], n: number) =>
      runs.find((r) => r.channels === channels && r.run.instances === n);
    const results = size.instances.flatMap((n) => {
      const every = find('every', n)!;
      return [
        ...phoneLines(n, every.run, every.phones!),
        ...crashLines(every.run, find('email', n)?.run, size.crossings),
      ];
    });
    return {
      results,
      notes: [
        `B9: B8's crash on PostgreSQL and one Redis, set-based claims: ${size.rules} active rules over ${size.users} users ` +
          `(${holdingsPerUser(size)} holdings each, every user Advanced with a verified email, a Web Push subscription and a started Telegram chat) ` +
          `and ${size.instruments} instruments; ${size.crossings} cross in the crash batch; the fake push service (TLS, decrypting) and the fake Bot API ` +
          `in the bench process; baseline = the same crash with the Web Push and Telegram endpoints off (email only); ` +
          `waits ${size.phoneWaitS} s for the phones from the crash; load average ${load} at B9's start, ${os.loadavg()[0]!.toFixed(2)} at its end.`,
        ...runs.flatMap((r) => [
          b9RunNote(r.channels, r.run),
          ...(r.phones ? [phoneNote(r.run.instances, r.phones)] : []),
        ]),
      ],
      evidence: { size, runs },
    };
  },
};

/** B8's note for a B9 run, named for its channels. */
function b9RunNote(channels: B9Run['channels'], run: CrashRun): string {
  return runNote(run).replace(/^B8 set-based/, channels === 'every' ? 'B9 every channel' : 'B9 email only');
}
