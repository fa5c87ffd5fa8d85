import Router from '@koa/router';
import { EXPORT_HEADERS, holdingsExportRows } from '@app/common/holdings/export';
import { manualHoldingBody, updateHoldingBody, uploadCsvBody } from '@app/common/holdings/schemas';
import { writeToString } from 'fast-csv';
import { currentUser, requireUser, limitPerUser } from '../../auth/require-user.ts';
import type { AppDeps } from '../../deps.ts';
import { ok, okEncoded } from '../../http/envelope.ts';
import { uuidParams } from '../../http/params.ts';
import { jsonBody } from '../../http/json-body.ts';
import { validate, validated } from '../../http/validate.ts';
import { holdingsResponseBody, listHoldings } from '../../holdings/list.ts';
import {
  addManualHolding,
  deleteAllHoldings,
  deleteHolding,
  ownedHolding,
  updateHolding,
} from '../../holdings/service.ts';
import { handleUpload } from './upload.ts';

/** /holdings: list, import, manual entry, inline edit, delete (docs/holdings.md, Routes). */
export function holdingsRouter(deps: AppDeps): Router {
  const router = new Router({ prefix: '/holdings' });
  const uploadLimit = limitPerUser(deps, { name: 'holdings-upload', points: 30, durationSeconds: 60 });
  router.use(requireUser(deps));

  router.get('/', async (ctx) => okEncoded(ctx, await holdingsResponseBody(deps, currentUser(ctx).id)));

  router.get('/export', async (ctx) => {
    const rows = holdingsExportRows(await listHoldings(deps, { userId: currentUser(ctx).id }));
    ctx.set('Content-Type', 'text/csv; charset=utf-8');
    ctx.set('Content-Disposition', 'attachment; filename="holdings.csv"');
    ctx.body = await writeToString([[...EXPORT_HEADERS], ...rows]);
  });

  router.get('/user-added', async (ctx) => {
    const all = await listHoldings(deps, { userId: currentUser(ctx).id });
    ok(
      ctx,
      all.filter((h) => h.broker_type === 'USER_ADDED'),
    );
  });

  router.post(
    '/upload-csv',
    uploadLimit,
    jsonBody('holdingsUpload'),
    validate('body', uploadCsvBody),
    async (ctx) => {
      const result = await handleUpload(deps, {
        userId: currentUser(ctx).id,
        body: validated(ctx, uploadCsvBody),
      });
      ok(ctx, result, result.stored ? 201 : 200);
    },
  );

  router.post('/manual', jsonBody('manualHolding'), validate('body', manualHoldingBody), async (ctx) => {
    const user = currentUser(ctx);
    const body = validated(ctx, manualHoldingBody);
    const found = deps.instruments.find(body.symbol, body.exchange);
    const { row, guard } = await addManualHolding(deps, {
      userId: user.id,
      symbol: found?.symbol ?? body.symbol.toUpperCase(),
      exchange: body.exchange,
      isin: found?.isin || undefined,
      quantity: body.quantity,
      averagePrice: body.average_price,
    });
    ok(ctx, { id: row.id, symbol: row.symbol, exchange: row.exchange, price_guard: guard }, 201);
  });

  router.delete('/all', async (ctx) => {
    const deleted = await deleteAllHoldings(deps, currentUser(ctx).id);
    ok(ctx, { deleted });
  });

  router.put(
    '/:id',
    uuidParams('id'),
    jsonBody('holdingEdit'),
    validate('body', updateHoldingBody),
    async (ctx) => {
      const user = currentUser(ctx);
      const { holding, brokerType } = await ownedHolding(deps.db, { userId: user.id, id: ctx.params.id! });
      const change = validated(ctx, updateHoldingBody);
      await updateHolding(deps, { userId: user.id, id: holding.id, brokerType, change });
      const [updated] = (
        await listHoldings(deps, { userId: user.id, accountId: holding.brokerAccountId })
      ).filter((h) => h.id === holding.id);
      ok(ctx, updated);
    },
  );

  router.delete('/:id', uuidParams('id'), async (ctx) => {
    await deleteHolding(deps, { userId: currentUser(ctx).id, id: ctx.params.id! });
    ok(ctx, { deleted: true });
  });
  return router;
}
