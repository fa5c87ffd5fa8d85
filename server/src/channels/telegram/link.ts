/**
 * Linking a Telegram chat to an account (docs/notifications.md#telegram): Connect makes a
 * pending endpoint and a `https://t.me/<bot>?start=<token>` deep link (32 random bytes,
 * base64url, single use, 10 minutes; only its SHA-256 stored); the chat that presses Start
 * sends `/start <token>` to the webhook, which binds that chat (its id from Telegram's update,
 * never from the token) and verifies the endpoint. A second Connect replaces a pending link.
 */
import type { ApiTelegramConnect } from '@app/common/api/endpoints';
import { randomBytes } from 'node:crypto';
import { and, eq, gt } from 'drizzle-orm';
import type { SessionUser } from '../../auth/require-user.ts';
import type { AppDeps } from '../../deps.ts';
import { notificationEndpoints } from '../../db/schema.ts';
import { ENDPOINT_ERRORS, TelegramNotConfigured } from '../../endpoints/errors.ts';
import { presentEndpoint } from '../../endpoints/presenter.ts';
import { hashVerificationToken } from '../../endpoints/tokens.ts';
import { Forbidden } from '../../http/errors.ts';

export const LINK_TTL_MS = 10 * 60_000;

/** The deep link's payload as Telegram allows it (1-64 of A-Za-z0-9_-); ours is 43 long. */
const START_PATTERN = /^\/start(?:@\w+)?\s+([A-Za-z0-9_-]{1,64})\s*$/;

/** The token in a `/start <token>` message, or null for any other text. */
export function startToken(text: string): string | null {
  return START_PATTERN.exec(text)?.[1] ?? null;
}

/** The pending row's uniqueness key: one per link (the value stays empty until a chat binds). */
const pendingKey = (hash: string) => `pending:${hash}`;

/** Connect Telegram: the user's pending endpoint (any earlier pending one replaced) and its link. */
export async function connectTelegram(
  deps: AppDeps,
  { user }: { user: SessionUser },
): Promise<ApiTelegramConnect> {
  const { config } = deps;
  if (!config.telegramConfigured) throw new TelegramNotConfigured();
  if (user.subscriptionTier !== 'advanced') throw new Forbidden(ENDPOINT_ERRORS.telegramTier);
  const raw = randomBytes(32).toString('base64url');
  const hash = hashVerificationToken(raw);
  const expiresAt = new Date(Date.now() + LINK_TTL_MS);
  const t = notificationEndpoints;
  const endpoint = await deps.db.transaction(async (tx) => {
    await tx
      .delete(t)
      .where(and(eq(t.userId, user.id), eq(t.type, 'telegram'), eq(t.verificationStatus, 'pending')));
    const [row] = await tx
      .insert(t)
      .values({
        userId: user.id,
        type: 'telegram',
        value: '',
        valueKey: pendingKey(hash),
        tokenHash: hash,
        tokenExpiresAt: expiresAt,
        lastSentAt: new Date(),
      })
      .returning();
    return row!;
  });
  void deps.events.publish({ type: 'endpoints', userId: user.id });
  return {
    ...presentEndpoint(endpoint, user.email),
    link: `https://t.me/${config.TELEGRAM_BOT_USERNAME}?start=${raw}`,
    link_expires_at: expiresAt.toISOString(),
  };
}

/** The Telegram user who pressed Start, as the update names them. */
export interface StartingChat {
  chatId: number;
  username?: string | undefined;
  firstName?: string | undefined;
}

/** The label Settings shows: "@username", else the first name. */
export function chatLabel({ username, firstName }: Omit<StartingChat, 'chatId'>): string | null {
  return username ? `@${username}` : (firstName ?? null);
}

/**
 * Binds the chat to the endpoint whose unexpired, unused link holds `token`: the link is spent
 * in the same statement that finds it. When the user already had this chat (a reconnect), that
 * endpoint is turned back on and the pending one goes. Returns the user, or null for a token
 * that is unknown, used or expired (nothing changes then).
 */
export async function bindChat(
  deps: AppDeps,
  { token, chat }: { token: string; chat: StartingChat },
): Promise<{ userId: string } | null> {
  const t = notificationEndpoints;
  const chatId = String(chat.chatId);
  const label = chatLabel(chat);
  const now = new Date();
  const bound = await deps.db.transaction(async (tx) => {
    const [pending] = await tx
      .update(t)
      .set({ tokenHash: null, tokenExpiresAt: null })
      .where(
        and(
          eq(t.tokenHash, hashVerificationToken(token)),
          eq(t.type, 'telegram'),
          eq(t.verificationStatus, 'pending'),
          gt(t.tokenExpiresAt, now),
        ),
      )
      .returning({ id: t.id, userId: t.userId });
    if (!pending) return null;
    const connected = {
      value: chatId,
      valueKey: chatId,
      label,
      verificationStatus: 'verified' as const,
      verifiedAt: now,
      isActive: true,
      inactiveReason: null,
    };
    const [existing] = await tx
      .update(t)
      .set(connected)
      .where(and(eq(t.userId, pending.userId), eq(t.type, 'telegram'), eq(t.valueKey, chatId)))
      .returning({ id: t.id });
    if (existing) await tx.delete(t).where(eq(t.id, pending.id));
    else await tx.update(t).set(connected).where(eq(t.id, pending.id));
    return { userId: pending.userId };
  });
  if (bound) void deps.events.publish({ type: 'endpoints', userId: bound.userId });
  return bound;
}

export const BLOCKED_REASON = 'You blocked the bot in Telegram';

/**
 * The chat blocked the bot (`kicked`) or unblocked it (`member`): every account's endpoint for
 * this chat is turned off with the reason, or back on. Returns the users whose endpoints changed.
 */
export async function setChatBlocked(deps: AppDeps, chatId: number, blocked: boolean): Promise<string[]> {
  const t = notificationEndpoints;
  const rows = await deps.db
    .update(t)
    .set(
      blocked
        ? { isActive: false, inactiveReason: BLOCKED_REASON }
        : { isActive: true, inactiveReason: null },
    )
    .where(
      and(
        eq(t.type, 'telegram'),
        eq(t.valueKey, String(chatId)),
        eq(t.verificationStatus, 'verified'),
        // Only the endpoints it changes (their users are told).
        eq(t.isActive, blocked),
      ),
    )
    .returning({ userId: t.userId });
  const userIds = [...new Set(rows.map((r) => r.userId))];
  for (const userId of userIds) void deps.events.publish({ type: 'endpoints', userId });
  return userIds;
}
