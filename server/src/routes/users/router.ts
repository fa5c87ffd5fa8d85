import Router from '@koa/router';
import { deleteAccountBody, exportFileName } from '@app/common/api/account';
import { istDateOf } from '@app/common/market/calendar';
import { currentUser, limitPerUser, requireUser } from '../../auth/require-user.ts';
import type { AppDeps } from '../../deps.ts';
import { ok } from '../../http/envelope.ts';
import { jsonBody } from '../../http/json-body.ts';
import { validate, validated } from '../../http/validate.ts';
import { deleteAccount } from '../../privacy/deletion.ts';
import { exportAccountData } from '../../privacy/export.ts';

/** /users/me: the signed-in user's own data, exported as a file or deleted (docs/privacy.md). */
export function usersRouter(deps: AppDeps): Router {
  const router = new Router({ prefix: '/users' });
  const byUser = (name: string, points: number) => limitPerUser(deps, { name, points, durationSeconds: 60 });
  // An export reads every table of the user: a few a minute is plenty for a person.
  const exports = byUser('account-export', 3);
  const deletions = byUser('account-delete', 5);
  router.use(requireUser(deps));

  router.get('/me/export', exports, async (ctx) => {
    const now = new Date();
    const data = await exportAccountData(deps.db, { userId: currentUser(ctx).id, now });
    ctx.set('Content-Type', 'application/json; charset=utf-8');
    ctx.set('Content-Disposition', `attachment; filename="${exportFileName(istDateOf(now))}"`);
    ctx.body = JSON.stringify(data, null, 2);
  });

  router.delete(
    '/me',
    deletions,
    jsonBody('accountDelete'),
    validate('body', deleteAccountBody),
    async (ctx) => {
      const { confirm_email } = validated(ctx, deleteAccountBody);
      await deleteAccount(deps, { user: currentUser(ctx), confirmEmail: confirm_email });
      ok(ctx, { deleted: true });
    },
  );

  return router;
}
