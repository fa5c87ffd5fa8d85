import Router from '@koa/router';
import {
  calendarQuerySchema,
  statusQuerySchema,
  type MarketCalendarAnswer,
  type MarketStatusAnswer,
} from '@app/common/api/market-calendar';
import { istDateOf, marketStatusAt, nseCalendar, type ExchangeCalendar } from '@app/common/market/calendar';
import { ok } from '../../http/envelope.ts';
import { validate, validated } from '../../http/validate.ts';

/**
 * Public, read-only: GET /market/calendar?year= (holidays and special sessions of a year, with
 * whether the year's data is complete) and GET /market/status?at= (open, session, next open).
 * Calendar data is public exchange information, so no sign-in is needed.
 */
export function marketCalendarRouter(calendar: ExchangeCalendar = nseCalendar): Router {
  const router = new Router({ prefix: '/market' });
  router.get('/calendar', validate('query', calendarQuerySchema), (ctx) => {
    const q = validated(ctx, calendarQuerySchema);
    const info = calendar.yearInfo(q.year ?? Number(istDateOf(new Date()).slice(0, 4)));
    const answer: MarketCalendarAnswer = {
      year: info.year,
      complete: info.complete,
      status: info.status,
      source: info.source,
      holidays: info.holidays.map((h) => ({ date: h.date, name: h.name })),
      special_sessions: info.specialSessions.map((s) => ({
        date: s.date,
        name: s.name,
        pre_open: s.preOpen ?? null,
        open: s.open,
        close: s.close,
      })),
    };
    ok(ctx, answer);
  });
  router.get('/status', validate('query', statusQuerySchema), (ctx) => {
    const at = validated(ctx, statusQuerySchema).at ?? new Date();
    const status = marketStatusAt(calendar, at);
    const answer: MarketStatusAnswer = {
      at: at.toISOString(),
      open: status.open,
      session: status.session,
      next_open: status.nextOpen.toISOString(),
      complete: status.complete,
    };
    ok(ctx, answer);
  });
  return router;
}
