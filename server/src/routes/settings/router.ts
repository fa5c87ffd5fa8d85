import Router from '@koa/router';
import { updateSettingsBody } from '@app/common/api/settings';
import { currentUser, requireUser, limitPerUser } from '../../auth/require-user.ts';
import type { AppDeps } from '../../deps.ts';
import { ok } from '../../http/envelope.ts';
import { jsonBody } from '../../http/json-body.ts';
import { validate, validated } from '../../http/validate.ts';
import { getSettings, updateSettings } from '../../users/settings.ts';

/** /settings: the signed-in user's own settings (no id in the path: nobody else's can be named). */
export function settingsRouter(deps: AppDeps): Router {
  const router = new Router({ prefix: '/settings' });
  const writes = limitPerUser(deps, { name: 'settings-write', points: 60, durationSeconds: 60 });
  router.use(requireUser(deps));

  router.get('/', async (ctx) => {
    ok(ctx, await getSettings(deps.db, currentUser(ctx).id));
  });

  router.put('/', writes, jsonBody('settings'), validate('body', updateSettingsBody), async (ctx) => {
    const change = validated(ctx, updateSettingsBody);
    ok(ctx, await updateSettings(deps.db, { userId: currentUser(ctx).id, change }));
  });

  return router;
}
