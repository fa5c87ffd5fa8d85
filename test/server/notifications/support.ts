/**
 * The notification layer's tests' steps: a test-only ChannelSender (scripted per endpoint, it
 * records what the worker hands it), endpoints of any channel written as a channel's own
 * set-up would leave them, and the outbox rows of an execution.
 */
import { randomUUID } from 'node:crypto';
import { eq, sql } from 'drizzle-orm';
import type { Channel, NoticeKind } from '@app/common/notifications/channels';
import { alertDeliveries, notificationEndpoints } from '../../../server/src/db/schema.ts';
import type {
  ChannelSender,
  OutgoingDelivery,
  SendOutcome,
} from '../../../server/src/notifications/channel.ts';
import type { TestApp } from '../../helpers/app.ts';
import type { SignedInUser } from '../../helpers/users.ts';

/** A sender for `channel` that answers each endpoint from its script, else accepted with an id. */
export function scriptedSender(channel: Channel) {
  const received: Array<{ delivery: OutgoingDelivery; at: number }> = [];
  const scripts = new Map<string, SendOutcome[]>();
  const sender: ChannelSender = {
    channel,
    maxBatch: 100,
    send(deliveries) {
      const at = Date.now();
      return Promise.resolve(
        deliveries.map((delivery) => {
          received.push({ delivery, at });
          return (
            scripts.get(delivery.endpoint.value)?.shift() ?? {
              kind: 'accepted',
              providerMessageId: `push-${delivery.id}`,
            }
          );
        }),
      );
    },
  };
  return {
    sender,
    /** The next outcomes for an endpoint's deliveries, in order. */
    script: (value: string, ...outcomes: SendOutcome[]) => scripts.set(value, outcomes),
    /** What an endpoint was handed, with when. */
    to: (value: string) => received.filter((r) => r.delivery.endpoint.value === value),
  };
}

export interface EndpointOptions {
  verified?: boolean;
  active?: boolean;
  notices?: NoticeKind[];
  label?: string;
  value?: string;
}

/** An endpoint of `type` for `user`, as its channel's set-up leaves it (verified and active unless told). */
export async function addEndpoint(
  app: TestApp,
  user: SignedInUser,
  type: Channel,
  opts: EndpointOptions = {},
): Promise<{ id: string; value: string }> {
  const value =
    opts.value ??
    {
      email: `other-${randomUUID().slice(0, 8)}@example.com`,
      webpush: `https://push.example.test/send/${randomUUID()}`,
      telegram: String(100_000_000 + Math.floor(Math.random() * 1e8)),
      whatsapp: `+9198${String(Math.floor(Math.random() * 1e8)).padStart(8, '0')}`,
    }[type];
  const [row] = await app.runtime.deps.db
    .insert(notificationEndpoints)
    .values({
      userId: user.id,
      type,
      value,
      valueKey: value.toLowerCase(),
      label: opts.label ?? null,
      meta: type === 'webpush' ? { keys: { p256dh: 'BTestKey', auth: 'test-auth' } } : null,
      notices: opts.notices ?? ['alert', 'digest', 'corporate_action'],
      isActive: opts.active ?? true,
      verificationStatus: opts.verified === false ? 'pending' : 'verified',
    })
    .returning({ id: notificationEndpoints.id });
  return { id: row!.id, value };
}

/** The user's sign-in email endpoint. */
export async function emailEndpointOf(
  app: TestApp,
  user: SignedInUser,
): Promise<{ id: string; value: string }> {
  const [row] = await app.runtime.deps.db
    .select({ id: notificationEndpoints.id, value: notificationEndpoints.value })
    .from(notificationEndpoints)
    .where(sql`${notificationEndpoints.userId} = ${user.id} and ${notificationEndpoints.type} = 'email'`);
  return row!;
}

/** Changes which notices an endpoint receives (Settings' checkboxes). */
export async function setNotices(app: TestApp, endpointId: string, notices: NoticeKind[]): Promise<void> {
  await app.runtime.deps.db
    .update(notificationEndpoints)
    .set({ notices })
    .where(eq(notificationEndpoints.id, endpointId));
}

/** An execution's outbox rows, oldest first. */
export function outboxOf(app: TestApp, executionId: string) {
  return app.runtime.deps.db
    .select()
    .from(alertDeliveries)
    .where(eq(alertDeliveries.executionId, executionId))
    .orderBy(alertDeliveries.createdAt, alertDeliveries.id);
}

/** An endpoint as Settings' list reads it. */
export async function endpointRow(app: TestApp, endpointId: string) {
  const [row] = await app.runtime.deps.db
    .select()
    .from(notificationEndpoints)
    .where(eq(notificationEndpoints.id, endpointId));
  return row!;
}
