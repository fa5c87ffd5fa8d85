/**
 * A delivery's outcome and the execution that follows it commit together: when settling the
 * execution fails (as when an instance dies between the two), the row is not left SENT under an
 * execution PENDING for good, which nothing would ever retry.
 */
import { expect } from 'chai';
import { sql } from 'drizzle-orm';
import { queryRows } from '../../../server/src/db/client.ts';
import { sendGridSuite } from '../../helpers/fake-sendgrid.ts';
import { waitFor } from '../../helpers/wait.ts';
import { crossStop, userFactory } from '../rules/support.ts';

describe('alert delivery: the outcome and its execution commit together', () => {
  const users = userFactory(() => app);
  const { app, fake } = sendGridSuite(
    // Its own database: the test adds a trigger to rule_executions.
    { embeddedStreamer: false, ownDatabase: true, delivery: { pollMs: 50 } },
    () => users.forget(),
  );

  it('leaves no row SENT under a PENDING execution when settling the execution fails', async () => {
    const user = await users.make();
    const db = app.runtime.deps.db;
    await db.execute(
      sql.raw(`create function refuse_settle() returns trigger language plpgsql as $$
      begin
        if new.user_id = '${user.id}' and new.status <> old.status then
          raise exception 'settling refused by the test';
        end if;
        return new;
      end $$`),
    );
    await db.execute(
      sql.raw(`create trigger refuse_settle before update on rule_executions
               for each row execute function refuse_settle()`),
    );
    try {
      await crossStop(app, user, 'RELIANCE');
      await waitFor('the email to reach the provider', () => fake.mailsTo(user.email).length > 0);
      await new Promise((resolve) => setTimeout(resolve, 300));
      const rows = await queryRows<{ delivery: string; execution: string }>(
        db,
        sql`select d.status as delivery, e.status as execution
            from alert_deliveries d join rule_executions e on e.id = d.execution_id
            where e.user_id = ${user.id}`,
      );
      expect(rows).to.have.length(1);
      expect(rows[0]!.execution).to.equal('PENDING');
      // Still claimed (retried when its lock runs out), not SENT with nothing left to settle it.
      expect(rows[0]!.delivery).to.equal('SENDING');
    } finally {
      await db.execute(sql.raw('drop trigger refuse_settle on rule_executions'));
      await db.execute(sql.raw('drop function refuse_settle()'));
    }
  });
});
