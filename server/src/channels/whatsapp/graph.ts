/**
 * Meta's Graph API for WhatsApp (docs/notifications.md#whatsapp): one template message to one
 * number, with plain `fetch`. The answer is Meta's own: 200 with the message's `wamid`, or the
 * `error` object (`code`, `message`, `error_data.details`) the sender and the verification code
 * sort by code. Never throws for Meta's answer or the network; a timeout says whether the request
 * may have gone out (then Meta may still send the message).
 */
import type { WhatsAppConfig, WhatsAppTemplate } from '@app/config';

export interface TemplateMessage {
  /** The number in E.164, with or without its '+' (Meta takes digits only). */
  to: string;
  template: WhatsAppTemplate;
  /** The body's `{{1}}`, `{{2}}`, … in order. */
  parameters: readonly string[];
  /** Echoed in the status webhooks (`biz_opaque_callback_data`): our delivery id. */
  callbackData?: string;
}

export type GraphAnswer =
  | { ok: true; wamid: string }
  /** Meta's error object (`status` is the HTTP status; `code` 0 when the body had none). */
  | { ok: false; status: number; code: number; message: string; details?: string }
  /** No answer: the network failed or the request timed out (`maybeSent`: it may have gone out). */
  | { ok: false; status: 0; code: 0; message: string; maybeSent: boolean };

export const GRAPH_TIMEOUT_MS = 10_000;

/**
 * Meta refuses a template parameter holding a newline, a tab or more than four spaces in a row
 * (error 132018), and one past 1,024 characters: each becomes a single line.
 */
export function templateParameter(text: string): string {
  const flat = text
    .replace(/\s*[\r\n\t]+\s*/g, ' · ')
    .replace(/ {2,}/g, ' ')
    .trim();
  return flat.length > 1024 ? `${flat.slice(0, 1023)}…` : flat || '-';
}

/** The request body Meta's `/messages` takes for a template message. */
export function templateBody(message: TemplateMessage) {
  return {
    messaging_product: 'whatsapp',
    recipient_type: 'individual',
    to: message.to.replace(/^\+/, ''),
    type: 'template',
    ...(message.callbackData ? { biz_opaque_callback_data: message.callbackData } : {}),
    template: {
      name: message.template.name,
      language: { code: message.template.language },
      components: [
        {
          type: 'body',
          parameters: message.parameters.map((text) => ({ type: 'text', text: templateParameter(text) })),
        },
      ],
    },
  };
}

interface GraphErrorBody {
  error?: { code?: unknown; message?: unknown; error_data?: { details?: unknown } };
}

/** Sends one template message (`POST {apiUrl}/{phoneNumberId}/messages`). */
export async function sendTemplate(
  config: WhatsAppConfig,
  message: TemplateMessage,
  { timeoutMs = GRAPH_TIMEOUT_MS }: { timeoutMs?: number } = {},
): Promise<GraphAnswer> {
  let res: Response;
  try {
    res = await fetch(`${config.apiUrl}/${encodeURIComponent(config.phoneNumberId)}/messages`, {
      method: 'POST',
      headers: { authorization: `Bearer ${config.token}`, 'content-type': 'application/json' },
      body: JSON.stringify(templateBody(message)),
      signal: AbortSignal.timeout(timeoutMs),
    });
  } catch (err) {
    const timedOut = err instanceof Error && err.name === 'TimeoutError';
    return {
      ok: false,
      status: 0,
      code: 0,
      message: timedOut ? `no answer within ${timeoutMs} ms` : `network: ${(err as Error).message}`,
      maybeSent: timedOut,
    };
  }
  const text = await res.text().catch(() => '');
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    body = undefined;
  }
  if (res.ok) {
    const wamid = (body as { messages?: Array<{ id?: unknown }> } | undefined)?.messages?.[0]?.id;
    if (typeof wamid === 'string' && wamid) return { ok: true, wamid };
    return {
      ok: false,
      status: res.status,
      code: 0,
      message: `200 without a message id: ${text.slice(0, 200)}`,
    };
  }
  const error = (body as GraphErrorBody | undefined)?.error;
  const details = error?.error_data?.details;
  return {
    ok: false,
    status: res.status,
    code: typeof error?.code === 'number' ? error.code : Number(error?.code) || 0,
    message: typeof error?.message === 'string' ? error.message : `HTTP ${res.status}`,
    ...(typeof details === 'string' ? { details } : {}),
  };
}
