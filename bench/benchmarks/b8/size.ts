/** B8's sizes (full, mid, quick; each figure overridable from the environment) and its two claim paths. */
export interface B8Size {
  rules: number;
  crossings: number;
  users: number;
  instruments: number;
  /** Sockets of users with crossing rules (one each), and of users without. */
  crossingSockets: number;
  quietSockets: number;
  /** Calm batches before the crash (the first is not counted in the normal latency). */
  warmup: number;
  /** The streamer's pace: one batch every intervalMs, before and after the crash. */
  intervalMs: number;
  /**
   * Batches after the crash (then the market pauses until the run ends): the same in every
   * run, so the database commits of two runs count the same batches.
   */
  afterBatches: number;
  /** How long to wait, from the crash, for every execution and for every email. */
  claimWaitS: number;
  emailWaitS: number;
  /** After the last execution, how long alerts still on their way may take. */
  alertGraceS: number;
  /** Idle wait for the servers' statistics to reach pg_stat_database before counting commits. */
  statsSettleMs: number;
  /** Socket client processes per run. */
  clients: number;
  /** The shapes measured: 1 and 2 instances. */
  instances: number[];
  /** The paths run for each shape (both by default; B8_PATHS=set-based skips the baseline while tuning). */
  paths: ClaimPath[];
}

/** What every size shares: both shapes and both paths. */
const EVERY_SIZE = { instances: [1, 2], paths: ['set-based', 'baseline'] } satisfies Partial<B8Size>;

/** Full and mid differ only in scale: the pace, sockets and waits of a busy market day. */
const MARKET_DAY = {
  ...EVERY_SIZE,
  instruments: 2000,
  crossingSockets: 150,
  quietSockets: 100,
  warmup: 5,
  intervalMs: 1000,
  afterBatches: 10,
  alertGraceS: 10,
  statsSettleMs: 11_000,
  clients: 2,
} satisfies Partial<B8Size>;

export const B8_SIZES: Record<'full' | 'mid' | 'quick', B8Size> = {
  full: {
    ...MARKET_DAY,
    rules: 200_000,
    crossings: 50_000,
    users: 30_000,
    // Today's path needed 138–167 s for 50,000 claims on a quiet machine (issue #18); the waits
    // keep a full run (four runs) under 20 minutes.
    claimWaitS: 200,
    emailWaitS: 200,
  },
  mid: {
    ...MARKET_DAY,
    rules: 50_000,
    crossings: 12_500,
    users: 7500,
    claimWaitS: 180,
    emailWaitS: 120,
  },
  quick: {
    ...EVERY_SIZE,
    rules: 1000,
    crossings: 200,
    users: 150,
    instruments: 200,
    crossingSockets: 10,
    quietSockets: 5,
    warmup: 3,
    intervalMs: 250,
    afterBatches: 3,
    claimWaitS: 60,
    emailWaitS: 60,
    alertGraceS: 5,
    statsSettleMs: 1200,
    clients: 1,
  },
};

const ENV_KEYS: Record<string, keyof B8Size> = {
  B8_RULES: 'rules',
  B8_CROSSINGS: 'crossings',
  B8_USERS: 'users',
  B8_INSTRUMENTS: 'instruments',
  B8_SOCKETS: 'crossingSockets',
  B8_QUIET_SOCKETS: 'quietSockets',
  B8_INTERVAL_MS: 'intervalMs',
  B8_AFTER_BATCHES: 'afterBatches',
  B8_CLAIM_WAIT_S: 'claimWaitS',
  B8_EMAIL_WAIT_S: 'emailWaitS',
};

/**
 * The size to run: `--quick` gives the quick one; else B8_SIZE (full, mid or quick; full by
 * default), each figure overridable (B8_RULES=100000, B8_INSTANCES=1, ...).
 */
export function b8Size(quick: boolean, env: NodeJS.ProcessEnv = process.env): B8Size {
  const preset = quick ? 'quick' : (env.B8_SIZE ?? 'full');
  if (!(preset in B8_SIZES)) throw new Error(`B8_SIZE must be full, mid or quick (not ${preset})`);
  const size: B8Size = { ...B8_SIZES[preset as keyof typeof B8_SIZES] };
  if (quick) return size;
  for (const [name, key] of Object.entries(ENV_KEYS)) {
    const raw = env[name];
    if (raw === undefined) continue;
    const n = Number(raw);
    if (!Number.isInteger(n) || n <= 0) throw new Error(`${name} must be a positive integer (not ${raw})`);
    (size[key] as number) = n;
  }
  if (env.B8_INSTANCES) size.instances = env.B8_INSTANCES.split(',').map(Number);
  if (env.B8_PATHS) size.paths = env.B8_PATHS.split(',') as ClaimPath[];
  if (size.paths.some((p) => p !== 'set-based' && p !== 'baseline'))
    throw new Error('B8_PATHS must list set-based and/or baseline');
  if (size.crossings > size.rules) throw new Error('B8_CROSSINGS cannot exceed B8_RULES');
  return size;
}

export type ClaimPath = 'set-based' | 'baseline';

/**
 * The baseline: the firing path before issue #18, as server/src/triggers/engine.ts names it (one
 * transaction per crossing in 8 lanes, the pipeline waiting on the claims, every instance
 * claiming and storing every batch). The set-based runs take the defaults.
 */
export const PRE_18_PATH = {
  rulesEngine: { claimChunkSize: 1, claimConcurrency: 8, pipelineWaitsOnClaims: true },
  batchOwner: { everyInstance: true },
};
