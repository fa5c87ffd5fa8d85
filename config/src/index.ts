/**
 * The one place that reads the environment. `loadConfig()` parses `process.env` once,
 * stops the process with a list naming every bad variable, and returns a frozen object.
 * Tests and tools build their own with `parseConfig(env)`.
 */
import { z } from 'zod';
import { brokerPairIssues, brokersConfig, brokerVariables, type BrokersConfig } from './brokers.ts';
import { feedVariables, POLLING_SOURCES, STREAMING_SOURCES } from './feeds.ts';

export type { BrokersConfig, RedirectBrokerApp } from './brokers.ts';
export { STREAMING_SOURCES } from './feeds.ts';

const bool = z
  .enum(['true', 'false', '1', '0', 'yes', 'no'], { message: 'must be true or false' })
  .transform((v) => v === 'true' || v === '1' || v === 'yes');

const url = (what: string) => z.url({ message: `must be a ${what} URL` });

/** A WhatsApp template as `name:language`: Meta's template names are lower case, digits and underscores. */
const template = z
  .string()
  .regex(/^[a-z0-9_]{1,512}:[A-Za-z]{2,3}(_[A-Za-z]{2,4})?$/, {
    message: 'must be an approved template as name:language (e.g. portfolio_alert:en)',
  })
  .transform((v) => {
    const [name, language] = v.split(':') as [string, string];
    return { name, language };
  });

/** The variables that together turn WhatsApp on: a partial set is a mistake, said in one sentence. */
const WHATSAPP_REQUIRED = [
  'WHATSAPP_TOKEN',
  'WHATSAPP_PHONE_NUMBER_ID',
  'WHATSAPP_APP_SECRET',
  'WHATSAPP_VERIFY_TOKEN',
  'WHATSAPP_ALERT_TEMPLATE',
  'WHATSAPP_CODE_TEMPLATE',
] as const;

const schema = z
  .object({
    NODE_ENV: z.enum(['development', 'production', 'test']).default('development'),
    PORT: z.coerce.number().int().min(0).max(65535).default(3000),
    HOST: z.string().min(1).default('0.0.0.0'),
    /** Trust X-Forwarded-For (behind a load balancer): rate limits then key on the client's address. */
    TRUST_PROXY: bool.default(false),
    /** A request whose whole body has not arrived this long after it began is answered 408 and closed. */
    HTTP_REQUEST_TIMEOUT_MS: z.coerce.number().int().min(100).max(3_600_000).default(30_000),
    /** The same for its headers (at most HTTP_REQUEST_TIMEOUT_MS). */
    HTTP_HEADERS_TIMEOUT_MS: z.coerce.number().int().min(100).max(3_600_000).default(10_000),
    /** Open connections (HTTP and sockets) past which new ones are closed; default: the descriptor limit less a reserve. */
    HTTP_MAX_CONNECTIONS: z.coerce.number().int().min(1).optional(),
    /** A Socket.IO connection that has not signed in to the app within this is closed. */
    SOCKET_HANDSHAKE_TIMEOUT_MS: z.coerce.number().int().min(100).max(600_000).default(10_000),
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
    QUOTE_PROVIDER: z.enum([...POLLING_SOURCES, ...STREAMING_SOURCES]).default('simulated'),
    REPLAY_FILE: z.string().min(1).optional(),
    REPLAY_LOOP: bool.default(false),
    QUOTE_INTERVAL_MS: z.coerce.number().int().min(50).max(3_600_000).default(60_000),
    /** The least time between two writes of stored quotes and bars; batches that come sooner are merged. */
    QUOTE_STORE_MS: z.coerce.number().int().min(0).max(60_000).default(2000),
    YAHOO_BASE_URL: url('http(s)').optional(),
    DEMO_MODE: bool.optional(),
    /** The operator's word that DEMO_MODE=true in production is a public demo (anyone signs in as any address). */
    DEMO_MODE_PUBLIC_OK: bool.default(false),
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
    /** Reads (GET and HEAD) one signed-in user may make a minute, across every route and instance. */
    USER_READS_PER_MINUTE: z.coerce.number().int().min(10).max(1_000_000).default(3000),
    /** WhatsApp Business Cloud API (docs/notifications.md#whatsapp): all of the first six, or none. */
    WHATSAPP_TOKEN: z.string().min(20, { message: 'must be a Meta access token' }).optional(),
    WHATSAPP_PHONE_NUMBER_ID: z
      .string()
      .regex(/^\d{5,20}$/, { message: 'must be the phone number id (digits) from WhatsApp Manager' })
      .optional(),
    WHATSAPP_APP_SECRET: z.string().min(16, { message: 'must be the Meta app secret' }).optional(),
    WHATSAPP_VERIFY_TOKEN: z.string().min(16, { message: 'must be at least 16 characters' }).optional(),
    /** The approved utility template alerts go out as, `name:language` (portfolio_alert:en). */
    WHATSAPP_ALERT_TEMPLATE: template.optional(),
    /** The approved utility template carrying a number's 6-digit verification code, `name:language`. */
    WHATSAPP_CODE_TEMPLATE: template.optional(),
    WHATSAPP_API_URL: url('http(s)').default('https://graph.facebook.com/v24.0'),
    /** The bot's token from BotFather (`123456:ABC-…`); with the username and secret, Telegram alerts are on. */
    TELEGRAM_BOT_TOKEN: z
      .string()
      .regex(/^\d+:[A-Za-z0-9_-]+$/, {
        message: 'must be a bot token from BotFather (digits, a colon, then letters)',
      })
      .optional(),
    /** The bot's username without the @ (the t.me link names it). */
    TELEGRAM_BOT_USERNAME: z
      .string()
      .regex(/^@?[A-Za-z][A-Za-z0-9_]{3,31}$/, {
        message: 'must be the bot username BotFather gave (e.g. PortfolioGuardBot)',
      })
      .transform((v) => v.replace(/^@/, ''))
      .optional(),
    /** Sent by Telegram in X-Telegram-Bot-Api-Secret-Token with every webhook request. */
    TELEGRAM_WEBHOOK_SECRET: z
      .string()
      .regex(/^[A-Za-z0-9_-]{1,256}$/, { message: 'must be 1 to 256 characters of A-Z, a-z, 0-9, _ and -' })
      .optional(),
    /** The Bot API's address (tests point it at a local fake). */
    TELEGRAM_API_URL: url('http(s)').default('https://api.telegram.org'),
    /**
     * The VAPID key pair push services know the app by (docs/notifications.md#web-push), base64url
     * as `npx web-push generate-vapid-keys` prints them: both or neither (then one is generated
     * once into DATA_DIR).
     */
    WEBPUSH_VAPID_PUBLIC_KEY: z
      .string()
      .regex(/^[A-Za-z0-9_-]{87}$/, { message: 'must be a base64url P-256 public key (65 bytes)' })
      .optional(),
    WEBPUSH_VAPID_PRIVATE_KEY: z
      .string()
      .regex(/^[A-Za-z0-9_-]{43}$/, { message: 'must be a base64url P-256 private key (32 bytes)' })
      .optional(),
    /** Who push services may contact about the app: a mailto: or https URL (default: MAIL_FROM's address). */
    WEBPUSH_SUBJECT: z
      .string()
      .regex(/^(mailto:[^\s@]+@[^\s@]+|https:\/\/\S+)$/, { message: 'must be a mailto: or https: URL' })
      .optional(),
    /** Let push subscriptions name private or local addresses (tests' local push service only). */
    WEBPUSH_ALLOW_PRIVATE_ENDPOINTS: bool.default(false),
    METRICS_TOKEN: z.string().min(16, { message: 'must be at least 16 characters' }).optional(),
    LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
    ...brokerVariables,
    ...feedVariables,
  })
  .superRefine((env, ctx) => {
    if (env.HTTP_HEADERS_TIMEOUT_MS > env.HTTP_REQUEST_TIMEOUT_MS) {
      ctx.addIssue({
        code: 'custom',
        path: ['HTTP_HEADERS_TIMEOUT_MS'],
        message: 'must be at most HTTP_REQUEST_TIMEOUT_MS',
      });
    }
    const whatsappSet = WHATSAPP_REQUIRED.filter((name) => env[name] !== undefined);
    if (whatsappSet.length > 0 && whatsappSet.length < WHATSAPP_REQUIRED.length) {
      const missing = WHATSAPP_REQUIRED.filter((name) => env[name] === undefined);
      ctx.addIssue({
        code: 'custom',
        path: [missing[0]!],
        message: `is required with ${whatsappSet.join(', ')}: WhatsApp needs all of ${WHATSAPP_REQUIRED.join(', ')} (missing: ${missing.join(', ')}), or none of them to leave it off`,
      });
    }
    const telegram = {
      TELEGRAM_BOT_TOKEN: env.TELEGRAM_BOT_TOKEN,
      TELEGRAM_BOT_USERNAME: env.TELEGRAM_BOT_USERNAME,
      TELEGRAM_WEBHOOK_SECRET: env.TELEGRAM_WEBHOOK_SECRET,
    };
    const telegramSet = Object.keys(telegram).filter((k) => telegram[k as keyof typeof telegram]);
    if (telegramSet.length > 0 && telegramSet.length < 3) {
      for (const missing of Object.keys(telegram).filter((k) => !telegramSet.includes(k))) {
        ctx.addIssue({
          code: 'custom',
          path: [missing],
          message: `is required with ${telegramSet.join(' and ')}: set all three to turn Telegram alerts on, or none`,
        });
      }
    }
    if (!env.WEBPUSH_VAPID_PUBLIC_KEY !== !env.WEBPUSH_VAPID_PRIVATE_KEY) {
      ctx.addIssue({
        code: 'custom',
        path: [env.WEBPUSH_VAPID_PUBLIC_KEY ? 'WEBPUSH_VAPID_PRIVATE_KEY' : 'WEBPUSH_VAPID_PUBLIC_KEY'],
        message: 'is required with the other VAPID key (set both, or neither to have one generated)',
      });
    }
    if (env.QUOTE_PROVIDER === 'replay' && !env.REPLAY_FILE) {
      ctx.addIssue({
        code: 'custom',
        path: ['REPLAY_FILE'],
        message: 'is required when QUOTE_PROVIDER=replay',
      });
    }
  });

/** The server also needs a token key in production, a way to sign in, and broker keys in pairs. */
const serverSchema = schema.superRefine((env, ctx) => {
  // The server connects investors' accounts (key and secret); a streamer needs only the key.
  for (const issue of brokerPairIssues(env)) {
    ctx.addIssue({ code: 'custom', path: [issue.path], message: issue.message });
  }
  if (env.NODE_ENV === 'production' && !env.JWT_SECRET) {
    ctx.addIssue({ code: 'custom', path: ['JWT_SECRET'], message: 'is required when NODE_ENV=production' });
  }
  const demo = env.DEMO_MODE ?? (env.NODE_ENV !== 'production' && !env.GOOGLE_CLIENT_ID);
  if (env.NODE_ENV === 'production' && demo && !env.DEMO_MODE_PUBLIC_OK) {
    ctx.addIssue({
      code: 'custom',
      path: ['DEMO_MODE'],
      message:
        'must not be true in production unless DEMO_MODE_PUBLIC_OK=true says this is a public demo (anyone can sign in as any email address)',
    });
  }
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

/** A WhatsApp template: its name and language code as approved in WhatsApp Manager. */
export interface WhatsAppTemplate {
  readonly name: string;
  readonly language: string;
}

/** WhatsApp, when every one of its variables is set (docs/notifications.md#whatsapp). */
export interface WhatsAppConfig {
  readonly token: string;
  readonly phoneNumberId: string;
  readonly appSecret: string;
  readonly verifyToken: string;
  readonly alertTemplate: WhatsAppTemplate;
  readonly codeTemplate: WhatsAppTemplate;
  /** The Graph API with its version, no trailing slash. */
  readonly apiUrl: string;
}

export interface Config extends Readonly<Env> {
  readonly demoMode: boolean;
  /** Null when WhatsApp is not configured: numbers are stored and nothing is sent. */
  readonly whatsapp: WhatsAppConfig | null;
  readonly appUrl: string;
  readonly mailTransport: MailTransport;
  readonly isProduction: boolean;
  /** The bot token, username and webhook secret are all set. */
  readonly telegramConfigured: boolean;
  /** The broker apps investors can connect through (null: not available on this server). */
  readonly brokers: BrokersConfig;
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
    whatsapp: whatsappConfig(e),
    telegramConfigured: Boolean(e.TELEGRAM_BOT_TOKEN && e.TELEGRAM_BOT_USERNAME && e.TELEGRAM_WEBHOOK_SECRET),
    brokers: brokersConfig(e),
  });
}

function whatsappConfig(e: Env): WhatsAppConfig | null {
  const token = e.WHATSAPP_TOKEN;
  const phoneNumberId = e.WHATSAPP_PHONE_NUMBER_ID;
  const appSecret = e.WHATSAPP_APP_SECRET;
  const verifyToken = e.WHATSAPP_VERIFY_TOKEN;
  const alertTemplate = e.WHATSAPP_ALERT_TEMPLATE;
  const codeTemplate = e.WHATSAPP_CODE_TEMPLATE;
  if (!token || !phoneNumberId || !appSecret || !verifyToken || !alertTemplate || !codeTemplate) return null;
  const apiUrl = e.WHATSAPP_API_URL.replace(/\/+$/, '');
  return Object.freeze({ token, phoneNumberId, appSecret, verifyToken, alertTemplate, codeTemplate, apiUrl });
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
