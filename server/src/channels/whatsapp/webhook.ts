/**
 * Meta's webhook for WhatsApp (docs/notifications.md#whatsapp): the subscribe handshake, the
 * signature over the raw body (`X-Hub-Signature-256: sha256=<HMAC-SHA256 hex with the app
 * secret>`), and the message statuses a body carries, each message's strongest (READ > DELIVERED >
 * FAILED > ACCEPTED: Meta may skip `delivered` when `read` follows at once). Recording them on the
 * deliveries is deliveries/whatsapp-receipts.ts.
 */
import { createHmac, timingSafeEqual } from 'node:crypto';
import { UUID_PATTERN } from '@app/common/api/uuid';

/** Whether `header` is `sha256=` + the HMAC-SHA256 hex of exactly these bytes under the app secret. */
export function validSignature(appSecret: string, rawBody: Buffer, header: string | undefined): boolean {
  const match = /^sha256=([0-9a-f]{64})$/i.exec(header?.trim() ?? '');
  if (!match) return false;
  const expected = createHmac('sha256', appSecret).update(rawBody).digest();
  return timingSafeEqual(Buffer.from(match[1]!, 'hex'), expected);
}

/** The answer to Meta's subscribe handshake: the challenge, or null (403) when the token is not ours. */
export function handshakeAnswer(verifyToken: string, query: Record<string, unknown>): string | null {
  const mode = query['hub.mode'];
  const token = query['hub.verify_token'];
  const challenge = query['hub.challenge'];
  if (mode !== 'subscribe' || typeof token !== 'string' || typeof challenge !== 'string') return null;
  const given = Buffer.from(token);
  const ours = Buffer.from(verifyToken);
  return given.length === ours.length && timingSafeEqual(given, ours) ? challenge : null;
}

type Recorded = 'ACCEPTED' | 'DELIVERED' | 'READ' | 'FAILED';
const RECORDED: Readonly<Record<string, Recorded>> = {
  sent: 'ACCEPTED',
  delivered: 'DELIVERED',
  read: 'READ',
  failed: 'FAILED',
};
const RANK: Readonly<Record<Recorded, number>> = { ACCEPTED: 1, FAILED: 2, DELIVERED: 3, READ: 4 };

/** One status as we record it: the strongest of a message's statuses in one POST. */
export interface MessageStatus {
  wamid: string;
  /** The delivery id from `biz_opaque_callback_data`, when it is one. */
  deliveryId: string | null;
  status: Recorded;
  at: Date;
  code: number | null;
  error: string | null;
}

interface RawStatus {
  id?: unknown;
  status?: unknown;
  timestamp?: unknown;
  biz_opaque_callback_data?: unknown;
  errors?: Array<{ code?: unknown; title?: unknown; message?: unknown }>;
}

/** Every `entry[].changes[].value.statuses[]` of a webhook body, one per message (its strongest). */
export function statusesOf(body: unknown, now = new Date()): MessageStatus[] {
  const byMessage = new Map<string, MessageStatus>();
  const entries = (body as { entry?: unknown } | null)?.entry;
  for (const entry of Array.isArray(entries) ? entries : []) {
    const changes = (entry as { changes?: unknown } | null)?.changes;
    for (const change of Array.isArray(changes) ? changes : []) {
      const statuses = (change as { value?: { statuses?: unknown } } | null)?.value?.statuses;
      for (const raw of (Array.isArray(statuses) ? statuses : []) as RawStatus[]) {
        const status = typeof raw?.status === 'string' ? RECORDED[raw.status] : undefined;
        if (!status || typeof raw.id !== 'string' || !raw.id) continue;
        const seconds = Number(raw.timestamp);
        const error = raw.errors?.[0];
        const code =
          status === 'FAILED' && error && Number.isFinite(Number(error.code)) ? Number(error.code) : null;
        const title =
          typeof error?.title === 'string'
            ? error.title
            : typeof error?.message === 'string'
              ? error.message
              : '';
        const callback = raw.biz_opaque_callback_data;
        const parsed: MessageStatus = {
          wamid: raw.id,
          deliveryId: typeof callback === 'string' && UUID_PATTERN.test(callback) ? callback : null,
          status,
          at: Number.isFinite(seconds) && seconds > 0 ? new Date(seconds * 1000) : now,
          code,
          error:
            status === 'FAILED'
              ? `WhatsApp ${code ?? 'failed'}${title ? `: ${title}` : ''}`.slice(0, 500)
              : null,
        };
        const seen = byMessage.get(raw.id);
        if (!seen || RANK[status] > RANK[seen.status])
          byMessage.set(raw.id, { ...parsed, deliveryId: parsed.deliveryId ?? seen?.deliveryId ?? null });
      }
    }
  }
  return [...byMessage.values()];
}
