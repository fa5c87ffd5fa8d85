import { expect } from 'chai';
import { eq } from 'drizzle-orm';
import { ruleExecutions } from '../../../server/src/db/schema.ts';
import { sendGridSuite } from '../../helpers/fake-sendgrid.ts';
import type { SignedInUser } from '../../helpers/users.ts';
import { userFactory } from '../rules/support.ts';
import { seedDeliveries } from './outbox-support.ts';
import { waitFor } from '../../helpers/wait.ts';

describe('alert delivery worker (BullMQ on Redis): lost jobs, duplicate jobs, retries', () => {
  const users = userFactory(() => app);
  const { app, fake } = sendGridSuite(
    {
      withRedis: true,
      embeddedStreamer: false,
      delivery: { sweepMs: 100, graceMs: 300, retry: { baseDelayMs: 100 } },
    },
    () => users.forget(),
  );
  const requestsTo = (user: SignedInUser) => fake.requestsTo(user.email);

  /** A committed execution with one outbox row, as a trigger leaves them, but never enqueued. */
  async function seedDelivery(user: SignedInUser, dueAgoMs: number) {
    const [seeded] = await seedDeliveries(app, [user], { dueAgoMs });
    return seeded!;
  }

  const executionStatus = async (id: string) => {
    const [row] = await app.runtime.deps.db
      .select({ status: ruleExecutions.status })
      .from(ruleExecutions)
      .where(eq(ruleExecutions.id, id));
    return row?.status;
  };

  it('the sweeper sends a committed delivery whose job was lost (instance killed before enqueueing)', async () => {
    expect(app.runtime.deliveries.mode).to.equal('queue');
    const user = await users.make();
    const { executionId } = await seedDelivery(user, 60_000);
    await waitFor('SUCCESS', async () =>
      (await executionStatus(executionId)) === 'SUCCESS' ? true : undefined,
    );
    expect(requestsTo(user).map((r) => r.status)).to.deep.equal([202]);
  });

  it('a delivery enqueued many times is sent once', async () => {
    const user = await users.make();
    const { executionId, deliveryId } = await seedDelivery(user, 0);
    for (let i = 0; i < 5; i++) app.runtime.deliveries.dispatch([deliveryId, deliveryId]);
    await waitFor('SUCCESS', async () =>
      (await executionStatus(executionId)) === 'SUCCESS' ? true : undefined,
    );
    await new Promise((resolve) => setTimeout(resolve, 700)); // sweeps come and go
    expect(requestsTo(user)).to.have.length(1);
  });

  it('429 then 202 through a delayed retry job: one email, SUCCESS', async () => {
    const user = await users.make();
    fake.scriptFor(user.email, 429);
    const { executionId, deliveryId } = await seedDelivery(user, 0);
    app.runtime.deliveries.dispatch([deliveryId]);
    await waitFor('SUCCESS', async () =>
      (await executionStatus(executionId)) === 'SUCCESS' ? true : undefined,
    );
    expect(requestsTo(user).map((r) => r.status)).to.deep.equal([429, 202]);
  });
});
