import Router from '@koa/router';
import type { HttpDeps } from '../deps.ts';
import { alertsRouter } from './alerts/router.ts';
import { authRouter } from './auth/router.ts';
import { eventsRouter } from './events/router.ts';
import { brokersRouter } from './brokers/router.ts';
import { corporateActionsRouter } from './corporate-actions/router.ts';
import { devRouter } from './dev/router.ts';
import { healthRouter } from './health/router.ts';
import { holdingsRouter } from './holdings/router.ts';
import { marketCalendarRouter } from './market/calendar-router.ts';
import { marketRouter } from './market/router.ts';
import { notificationEndpointsRouter } from './notification-endpoints/router.ts';
import { pushRouter } from './push/router.ts';
import { positionRulesRouter } from './position-rules/router.ts';
import { priceGuardRouter } from './price-guard/router.ts';
import { ruleExecutionsRouter } from './rule-executions/router.ts';
import { settingsRouter } from './settings/router.ts';
import { symbolsRouter } from './symbols/router.ts';
import { telegramRouter } from './telegram/router.ts';
import { usersRouter } from './users/router.ts';
import { whatsappRouter } from './whatsapp/router.ts';

/** Every resource router, mounted under /api. Add a resource here and in the access sweep test. */
export function apiRouter(deps: HttpDeps): Router {
  const api = new Router({ prefix: '/api' });
  const routers = [
    healthRouter(deps),
    authRouter(deps),
    eventsRouter(deps),
    symbolsRouter(deps),
    holdingsRouter(deps),
    brokersRouter(deps),
    marketCalendarRouter(),
    marketRouter(deps),
    notificationEndpointsRouter(deps),
    pushRouter(deps),
    positionRulesRouter(deps),
    priceGuardRouter(deps),
    alertsRouter(deps),
    ruleExecutionsRouter(deps),
    corporateActionsRouter(deps),
    settingsRouter(deps),
    telegramRouter(deps),
    usersRouter(deps),
    whatsappRouter(deps),
    // The dev outbox lists every user's mail: it does not exist in production, demo or not.
    ...(deps.config.isProduction ? [] : [devRouter(deps)]),
  ];
  for (const router of routers) {
    api.use(router.routes(), router.allowedMethods());
  }
  return api;
}
