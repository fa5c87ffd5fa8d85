/**
 * A local stand-in for Meta's WhatsApp Cloud API (the Graph API's `POST /v24.0/{phone_number_id}/messages`)
 * that answers as Meta does, then reports each accepted message's statuses to the app the way Meta
 * does: signed webhooks, later. Where each answer's shape comes from (Meta's Cloud API reference and
 * error-codes page as quoted in the team's research on alert channels; the recorded status bodies
 * in ../shared/data/samples/whatsapp, read through shared-data.ts):
 * - 200 `{messaging_product, contacts:[{input, wa_id}], messages:[{id:"wamid.…", message_status:"accepted"}]}`;
 * - errors as `{error:{message:"(#code) title", type:"OAuthException", code, error_data:{messaging_product,
 *   details}, fbtrace_id}}` (no `error_subcode`: Meta dropped it in v16): 401 code 190 without the
 *   right Bearer token, 400 code 100 without `messaging_product`, 400 132001 for a template that is
 *   not approved, 400 132000 when the parameter count is not the template's; scripted 130429,
 *   131056, 131057, 131026 (400) and 190 (401), or any other code;
 * - status webhooks: the recorded bodies with this message's wamid, recipient, time and
 *   `biz_opaque_callback_data`, POSTed with `X-Hub-Signature-256: sha256=<HMAC-SHA256 hex of the
 *   exact bytes under the app secret>`: sent → delivered → read, or sent → failed with `errors[]`;
 *   on request with duplicates, in reverse order, or read without delivered.
 * It records every request (a test reads the verification code a number was sent from there).
 */
import { createHmac, randomBytes } from 'node:crypto';
import { once } from 'node:events';
import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import { appSuite, type BootOptions } from './app.ts';
import { madeBefore } from './made-before.ts';
import { readShared } from './shared-data.ts';

export const WHATSAPP_SAMPLES = 'data/samples/whatsapp/pywa_tests_data_updates_message_status.json';

/** What a test's app is configured with; the fake checks requests against it. */
export const FAKE_WHATSAPP = {
  token: 'EAAGfake-whatsapp-permanent-token',
  phoneNumberId: '106540352242922',
  appSecret: 'fake-whatsapp-app-secret-0123456789',
  verifyToken: 'fake-whatsapp-verify-token',
  alertTemplate: { name: 'portfolio_alert', language: 'en', parameters: 3 },
  codeTemplate: { name: 'portfolio_code', language: 'en', parameters: 1 },
} as const;

/** The WHATSAPP_* variables of an app that sends through `fake` (at `url`). */
export function whatsappEnv(url: string): Record<string, string> {
  return {
    WHATSAPP_TOKEN: FAKE_WHATSAPP.token,
    WHATSAPP_PHONE_NUMBER_ID: FAKE_WHATSAPP.phoneNumberId,
    WHATSAPP_APP_SECRET: FAKE_WHATSAPP.appSecret,
    WHATSAPP_VERIFY_TOKEN: FAKE_WHATSAPP.verifyToken,
    WHATSAPP_ALERT_TEMPLATE: `${FAKE_WHATSAPP.alertTemplate.name}:${FAKE_WHATSAPP.alertTemplate.language}`,
    WHATSAPP_CODE_TEMPLATE: `${FAKE_WHATSAPP.codeTemplate.name}:${FAKE_WHATSAPP.codeTemplate.language}`,
    WHATSAPP_API_URL: `${url}/v24.0`,
  };
}

/** Meta's titles and details for the codes the tests script (details wording varies: never assert on it). */
const META_ERRORS: Record<number, { status: number; title: string; details: string }> = {
  100: { status: 400, title: 'Invalid parameter', details: 'The parameter messaging_product is required.' },
  190: { status: 401, title: 'Invalid OAuth access token - Cannot parse access token', details: '' },
  130429: { status: 400, title: 'Rate limit hit', details: 'Cloud API message throughput has been reached.' },
  131000: { status: 500, title: 'Something went wrong', details: 'Something went wrong' },
  131026: { status: 400, title: 'Message Undeliverable', details: 'Message Undeliverable.' },
  131049: {
    status: 400,
    title: 'This message was not delivered to maintain healthy ecosystem engagement.',
    details: 'In order to maintain a healthy ecosystem engagement, the message failed to be delivered.',
  },
  131056: {
    status: 400,
    title: '(Business Account, Consumer Account) pair rate limit hit',
    details:
      'Message failed to send because there were too many messages sent from this phone number to the same phone number in a short period of time.',
  },
  131057: {
    status: 400,
    title: 'Business Account is in maintenance mode',
    details: 'Business Account is in maintenance mode',
  },
  132018: {
    status: 400,
    title: 'There was an issue with the parameters in your template.',
    details: 'Param text cannot have new-line/tab characters or more than 4 consecutive spaces',
  },
  132000: {
    status: 400,
    title: 'Number of parameters does not match the expected number of params',
    details: 'body: number of localizable_params does not match the expected number of params',
  },
  132001: {
    status: 400,
    title: 'Template name does not exist in the translation',
    details: 'template name does not exist in the translation',
  },
};

/** Meta's error body for `code` (a title of its own for codes it does not list). */
export function metaErrorBody(code: number, details?: string) {
  const known = META_ERRORS[code] ?? { status: 400, title: `Error ${code}`, details: '' };
  return {
    error: {
      message: `(#${code}) ${known.title}`,
      type: 'OAuthException',
      code,
      error_data: { messaging_product: 'whatsapp', details: details ?? known.details },
      fbtrace_id: randomBytes(9).toString('base64url'),
    },
  };
}

/** What happens to an accepted message afterwards. */
export interface StatusPlan {
  /** The last status Meta reports (`failed` after `sent`); `none` reports nothing. */
  end: 'sent' | 'delivered' | 'read' | 'failed' | 'none';
  /** For `failed`: Meta's code and title (default 131026 Message undeliverable). */
  failure?: { code: number; title: string };
  /** Every webhook twice. */
  duplicates?: boolean;
  /** The webhooks in reverse order (read before delivered before sent). */
  reversed?: boolean;
  /** `read` without a `delivered` before it (Meta may skip it when both come at once). */
  skipDelivered?: boolean;
  /** All statuses in one POST (several `statuses[]`) instead of one POST each. */
  oneBody?: boolean;
}

export interface RecordedMessage {
  headers: IncomingHttpHeaders;
  body: Record<string, unknown>;
  to: string;
  template: string;
  parameters: string[];
  callbackData: string | undefined;
  /** The status the fake answered with, and the wamid when 200. */
  status: number;
  wamid?: string;
}

export interface WebhookPost {
  status: number;
  statuses: string[];
}

export interface FakeWhatsApp {
  /** The Graph API origin (WHATSAPP_API_URL is this + `/v24.0`). */
  url: string;
  messages: RecordedMessage[];
  webhookPosts: WebhookPost[];
  /** Where status webhooks go (the app's `/api/whatsapp/webhook`); until then none are sent. */
  deliverWebhooksTo(url: string): void;
  /** Milliseconds between a message's acceptance and its first webhook, and between webhooks (default 20). */
  setStatusDelay(ms: number): void;
  /** The plan for messages to `to` ('+' optional); `defaultPlan` (sent, delivered, read) otherwise. */
  planFor(to: string, plan: StatusPlan): void;
  /** The next requests (to `to`, when given) are refused with Meta's error `code`. */
  failNext(code: number, options?: { to?: string; times?: number }): void;
  /** The last verification code sent to `number` ('+' optional). */
  codeSentTo(number: string): string | undefined;
  /**
   * Meta's subscribe handshake against the app's webhook (as when the operator saves the callback
   * URL): `GET ?hub.mode=subscribe&hub.challenge=…&hub.verify_token=…`; whether the app answered
   * the challenge back, raw, with 200.
   */
  subscribe(verifyToken: string): Promise<{ status: number; confirmed: boolean }>;
  /** Resolves when every scheduled webhook has been answered. */
  settled(): Promise<void>;
  reset(): void;
  close(): Promise<void>;
}

type Samples = Record<
  'sent' | 'delivered' | 'read' | 'failed',
  { entry: Array<{ changes: Array<{ value: Record<string, unknown> }> }> }
>;

/** The signature header Meta sends for these exact bytes. */
export function hubSignature(appSecret: string, bytes: Buffer | string): string {
  return `sha256=${createHmac('sha256', appSecret).update(bytes).digest('hex')}`;
}

const DEFAULT_PLAN: StatusPlan = { end: 'read' };

const digits = (number: string) => number.replace(/^\+/, '');

export async function startFakeWhatsApp(): Promise<FakeWhatsApp> {
  const samples = JSON.parse(readShared(WHATSAPP_SAMPLES)) as Samples;
  const messages: RecordedMessage[] = [];
  const webhookPosts: WebhookPost[] = [];
  const plans = new Map<string, StatusPlan>();
  let failures: Array<{ code: number; to?: string }> = [];
  const pending = new Set<Promise<void>>();
  let serial = 0;
  let webhookUrl: string | undefined;
  let statusDelayMs = 20;

  /** One status of one message, as the recorded body of that status carries it. */
  const statusOf = (
    message: RecordedMessage,
    status: 'sent' | 'delivered' | 'read' | 'failed',
    plan: StatusPlan,
    at: number,
  ) => {
    const sample = structuredClone(samples[status].entry[0]!.changes[0]!.value) as {
      statuses: Array<Record<string, unknown>>;
    };
    const recorded = sample.statuses[0]!;
    const entry: Record<string, unknown> = {
      ...recorded,
      id: message.wamid,
      status,
      timestamp: String(at),
      recipient_id: message.to,
      ...(message.callbackData ? { biz_opaque_callback_data: message.callbackData } : {}),
    };
    if (status === 'failed') {
      const failure = plan.failure ?? { code: 131026, title: 'Message undeliverable' };
      const error = (recorded.errors as Array<Record<string, unknown>>)[0]!;
      entry.errors = [{ ...error, code: failure.code, title: failure.title, message: failure.title }];
    }
    return entry;
  };

  const bodyOf = (statuses: Array<Record<string, unknown>>, to: string) => {
    const body = structuredClone(samples.sent) as unknown as {
      entry: Array<{ id: string; changes: Array<{ value: Record<string, unknown> }> }>;
    };
    const value = body.entry[0]!.changes[0]!.value;
    value.metadata = { display_phone_number: '15550783881', phone_number_id: FAKE_WHATSAPP.phoneNumberId };
    value.contacts = [{ profile: { name: 'Investor' }, wa_id: to }];
    value.statuses = statuses;
    return body;
  };

  const post = async (statuses: Array<Record<string, unknown>>, to: string) => {
    if (!webhookUrl) return;
    const bytes = Buffer.from(JSON.stringify(bodyOf(statuses, to)));
    try {
      const res = await fetch(webhookUrl, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          'x-hub-signature-256': hubSignature(FAKE_WHATSAPP.appSecret, bytes),
        },
        body: bytes,
      });
      await res.arrayBuffer();
      webhookPosts.push({ status: res.status, statuses: statuses.map((s) => String(s.status)) });
    } catch {
      webhookPosts.push({ status: 0, statuses: statuses.map((s) => String(s.status)) });
    }
  };

  const report = (message: RecordedMessage) => {
    const plan = plans.get(message.to) ?? DEFAULT_PLAN;
    if (plan.end === 'none') return;
    const order: Array<'sent' | 'delivered' | 'read' | 'failed'> =
      plan.end === 'failed'
        ? ['sent', 'failed']
        : (['sent', 'delivered', 'read'] as const).slice(
            0,
            ['sent', 'delivered', 'read'].indexOf(plan.end) + 1,
          );
    let steps = plan.skipDelivered ? order.filter((s) => s !== 'delivered') : order;
    if (plan.reversed) steps = [...steps].reverse();
    if (plan.duplicates) steps = steps.flatMap((s) => [s, s]);
    const at = Math.floor(Date.now() / 1000);
    const statuses = steps.map((s) => statusOf(message, s, plan, at + order.indexOf(s)));
    const run = (async () => {
      await new Promise((resolve) => setTimeout(resolve, statusDelayMs));
      if (plan.oneBody) return post(statuses, message.to);
      for (const status of statuses) {
        await post([status], message.to);
        await new Promise((resolve) => setTimeout(resolve, statusDelayMs));
      }
    })();
    pending.add(run);
    void run.finally(() => pending.delete(run));
  };

  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const answer = (status: number, body: unknown) => {
        res.writeHead(status, { 'content-type': 'application/json' });
        res.end(JSON.stringify(body));
      };
      const path = `/v24.0/${FAKE_WHATSAPP.phoneNumberId}/messages`;
      if (req.method !== 'POST' || req.url !== path) {
        return answer(400, {
          error: {
            message: 'Unsupported post request.',
            type: 'GraphMethodException',
            code: 100,
            fbtrace_id: randomBytes(9).toString('base64url'),
          },
        });
      }
      let body: Record<string, unknown>;
      try {
        body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as Record<string, unknown>;
      } catch {
        return answer(400, metaErrorBody(100, 'The request body is not valid JSON.'));
      }
      const template = (body.template ?? {}) as {
        name?: string;
        language?: { code?: string };
        components?: Array<{ type?: string; parameters?: Array<{ type?: string; text?: string }> }>;
      };
      const parameters = (template.components ?? [])
        .filter((c) => c.type === 'body')
        .flatMap((c) => c.parameters ?? [])
        .map((p) => String(p.text ?? ''));
      const to = String(body.to ?? '');
      const message: RecordedMessage = {
        headers: req.headers,
        body,
        to,
        template: String(template.name ?? ''),
        parameters,
        callbackData:
          typeof body.biz_opaque_callback_data === 'string' ? body.biz_opaque_callback_data : undefined,
        status: 200,
      };
      messages.push(message);
      const refuse = (code: number, details?: string) => {
        message.status = META_ERRORS[code]?.status ?? 400;
        answer(message.status, metaErrorBody(code, details));
      };
      if (req.headers.authorization !== `Bearer ${FAKE_WHATSAPP.token}`) return refuse(190);
      if (body.messaging_product !== 'whatsapp') return refuse(100);
      const approved = [FAKE_WHATSAPP.alertTemplate, FAKE_WHATSAPP.codeTemplate].find(
        (t) => t.name === template.name && t.language === template.language?.code,
      );
      if (body.type !== 'template' || !approved)
        return refuse(
          132001,
          `template name (${template.name}) does not exist in ${template.language?.code}`,
        );
      if (parameters.length !== approved.parameters)
        return refuse(
          132000,
          `body: number of localizable_params (${parameters.length}) does not match the expected number of params (${approved.parameters})`,
        );
      if (parameters.some((p) => /[\n\t]| {5,}/.test(p))) return refuse(132018);
      const failure = failures.findIndex((f) => f.to === undefined || f.to === to);
      if (failure >= 0) return refuse(failures.splice(failure, 1)[0]!.code);
      serial += 1;
      message.wamid = `wamid.HBgM${Buffer.from(`${to}:${serial}:${randomBytes(6).toString('hex')}`).toString('base64')}`;
      answer(200, {
        messaging_product: 'whatsapp',
        contacts: [{ input: to, wa_id: to }],
        messages: [{ id: message.wamid, message_status: 'accepted' }],
      });
      report(message);
    });
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as AddressInfo;

  const fake: FakeWhatsApp = {
    url: `http://127.0.0.1:${port}`,
    messages,
    webhookPosts,
    deliverWebhooksTo: (url) => {
      webhookUrl = url;
    },
    setStatusDelay: (ms) => {
      statusDelayMs = ms;
    },
    planFor: (to, plan) => plans.set(digits(to), plan),
    failNext: (code, options = {}) => {
      for (let i = 0; i < (options.times ?? 1); i++)
        failures.push({ code, ...(options.to ? { to: digits(options.to) } : {}) });
    },
    codeSentTo: (number) =>
      messages
        .filter(
          (m) =>
            m.to === digits(number) && m.template === FAKE_WHATSAPP.codeTemplate.name && m.status === 200,
        )
        .at(-1)?.parameters[0],
    subscribe: async (verifyToken) => {
      if (!webhookUrl) throw new Error('the fake WhatsApp has no webhook URL yet');
      const challenge = String(randomBytes(4).readUInt32BE());
      const url = new URL(webhookUrl);
      url.searchParams.set('hub.mode', 'subscribe');
      url.searchParams.set('hub.challenge', challenge);
      url.searchParams.set('hub.verify_token', verifyToken);
      const res = await fetch(url);
      const text = await res.text();
      return { status: res.status, confirmed: res.status === 200 && text === challenge };
    },
    settled: async () => {
      while (pending.size > 0) await Promise.all([...pending]);
    },
    reset: () => {
      messages.length = 0;
      webhookPosts.length = 0;
      plans.clear();
      failures = [];
      statusDelayMs = 20;
    },
    close: async () => {
      await fake.settled();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
  return fake;
}

/**
 * The opening of a suite whose app sends WhatsApp through the fake, called in its `describe`: the
 * fake started first and reset before each test, the app (`appSuite`) configured for it, the
 * fake's webhooks pointed at the app, and the fake closed after the app.
 */
export function whatsappSuite(options: BootOptions = {}) {
  let started: FakeWhatsApp | undefined;
  const fake = madeBefore('the fake WhatsApp', () => started);
  before(async () => {
    started = await startFakeWhatsApp();
  });
  const { app, api } = appSuite(() => ({
    // A database of its own: another file's app on the run's database would claim this app's
    // outbox rows and, without the channel configured, fail them.
    ownDatabase: true,
    ...options,
    env: { ...whatsappEnv(fake.url), ...options.env },
  }));
  before(() => fake.deliverWebhooksTo(`${app.url}/api/whatsapp/webhook`));
  beforeEach(async () => {
    await fake.settled();
    fake.reset();
  });
  after(async () => {
    await started?.close();
  });
  return { app, api, fake };
}
