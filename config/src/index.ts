/**
 * The one place that reads the environment. `loadConfig()` parses `process.env` once,
 * stops the process with a list naming every bad variable, and returns a frozen object.
 * Tests and tools build their own with `parseConfig(env)`.
 */
import { z } from 'zod';

const bool = z
  .enum(['true', 'false', '1', '0', 'yes', 'no'], { message: 'must be true or false' })
  .transform((v) => v === 'true' || v === '1' || v === 'yes');

const url = (what: string) => z.url({ message: `must be a ${what} URL` });

const schema = z
  .object({
    NODE_ENV: z.enum(['development', 'production', 'test']).default('development'),
    PORT: z.coerce.number().int().min(0).max(65535).default(3000),
    HOST: z.string().min(1).default('0.0.0.0'),
    /** Trust X-Forwarded-For (behind a load balancer): rate limits then key on the client's address. */
    TRUST_PROXY: bool.default(false),
    APP_URL: url('http(s)').optional(),
    DATA_DIR: z.string().min(1).default('./data'),
    DATABASE_URL: z
      .string()
      .regex(/^postgres(ql)?:\/\//, { message: 'must be a postgres:// URL' })
      .optional(),
    REDIS_URL: z
      .string()
      .regex(/^rediss?:\/\//, { message: 'must be a redis:// URL' })
      .optional(),
    QUOTE_PROVIDER: z.enum(['simulated', 'replay', 'yahoo']).default('simulated'),
    REPLAY_FILE: z.string().min(1).optional(),
    REPLAY_LOOP: bool.default(false),
    QUOTE_INTERVAL_MS: z.coerce.number().int().min(50).max(3_600_000).default(60_000),
    YAHOO_BASE_URL: url('http(s)').optional(),
    DEMO_MODE: bool.optional(),
    GOOGLE_CLIENT_ID: z.string().min(10).optional(),
    GOOGLE_CERTS_URL: url('http(s)').optional(),
    JWT_SECRET: z.string().min(32, { message: 'must be at least 32 characters' }).optional(),
    MAIL_FROM: z.string().min(3).default('Portfolio Guard <alerts@portfolioguard.local>'),
    SENDGRID_API_KEY: z.string().min(1).optional(),
    SENDGRID_API_URL: url('http(s)').optional(),
    SMTP_URL: z
      .string()
      .regex(/^smtps?:\/\//, { message: 'must be an smtp:// URL' })
      .optional(),
    /** Alert emails handed to the mail provider at once (SendGrid takes up to 1,000 a request). */
    MAIL_BATCH_SIZE: z.coerce.number().int().min(1).max(1000).default(1000),
    METRICS_TOKEN: z.string().min(16, { message: 'must be at least 16 characters' }).optional(),
    LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  })
  .superRefine((env, ctx) => {
    if (env.QUOTE_PROVIDER === 'replay' && !env.REPLAY_FILE) {
      ctx.addIssue({
        code: 'custom',
        path: ['REPLAY_FILE'],
        message: 'is required when QUOTE_PROVIDER=replay',
      });
    }
  });

/** The server also needs a token key in production and at least one way to sign in. */
const serverSchema = schema.superRefine((env, ctx) => {
  if (env.NODE_ENV === 'production' && !env.JWT_SECRET) {
    ctx.addIssue({ code: 'custom', path: ['JWT_SECRET'], message: 'is required when NODE_ENV=production' });
  }
  const demo = env.DEMO_MODE ?? (env.NODE_ENV !== 'production' && !env.GOOGLE_CLIENT_ID);
  if (!demo && !env.GOOGLE_CLIENT_ID) {
    ctx.addIssue({
      code: 'custom',
      path: ['GOOGLE_CLIENT_ID'],
      message: 'is required: with DEMO_MODE off there would be no way to sign in',
    });
  }
});

type Env = z.infer<typeof schema>;

export type MailTransport = 'sendgrid' | 'smtp' | 'outbox';

export interface Config extends Readonly<Env> {
  readonly demoMode: boolean;
  readonly appUrl: string;
  readonly mailTransport: MailTransport;
  readonly isProduction: boolean;
}

export class ConfigError extends Error {
  constructor(readonly problems: string[]) {
    super(`Invalid configuration:\n${problems.map((p) => `  - ${p}`).join('\n')}`);
    this.name = 'ConfigError';
  }
}

/** Which process reads the config: sign-in and token rules apply to the server only. */
export type ConfigRole = 'server' | 'streamer';

/** Parses an environment into a frozen Config; throws ConfigError naming every bad variable. */
export function parseConfig(env: Record<string, string | undefined>, role: ConfigRole = 'server'): Config {
  const cleaned = Object.fromEntries(Object.entries(env).filter(([, v]) => v !== undefined && v !== ''));
  const parsed = (role === 'server' ? serverSchema : schema).safeParse(cleaned);
  if (!parsed.success) {
    throw new ConfigError(
      parsed.error.issues.map((issue) => `${issue.path.join('.') || 'environment'} ${issue.message}`),
    );
  }
  const e = parsed.data;
  const demoMode = e.DEMO_MODE ?? (e.NODE_ENV !== 'production' && !e.GOOGLE_CLIENT_ID);
  const mailTransport: MailTransport = e.SENDGRID_API_KEY ? 'sendgrid' : e.SMTP_URL ? 'smtp' : 'outbox';
  return Object.freeze({
    ...e,
    demoMode,
    appUrl: (e.APP_URL ?? `http://localhost:${e.PORT}`).replace(/\/$/, ''),
    mailTransport,
    isProduction: e.NODE_ENV === 'production',
  });
}

let loaded: Config | undefined;

/** The process's configuration, parsed once from process.env; exits listing the problems. */
export function loadConfig(role: ConfigRole = 'server'): Config {
  if (loaded) return loaded;
  try {
    loaded = parseConfig(process.env, role);
    return loaded;
  } catch (err) {
    if (err instanceof ConfigError) {
      console.error(err.message);
      process.exit(1);
    }
    throw err;
  }
}
