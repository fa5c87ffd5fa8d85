/**
 * Price alerts on the wire (/api/alerts, docs/exit-rules.md): the bodies that create and edit one, shared
 * by the server and the client, and the shapes the API answers with (the alert, and the bell's
 * overview of the user's price alerts beside the feed).
 */
import { z } from 'zod';
import { symbolSchema } from '../instruments/symbol.ts';
import type { Exchange } from '../instruments/types.ts';
import type { ApiRuleExecution } from '../rules/responses.ts';
import { ALERT_DIRECTIONS, type AlertDirection } from '../rules/types.ts';
import { storedAmount } from './numbers.ts';
import { exchangeInput } from './rules.ts';

/** POST /api/alerts: a one-off price alert on any listed instrument. */
export const createPriceAlertBody = z.object({
  symbol: symbolSchema,
  exchange: exchangeInput.default('NSE'),
  direction: z.enum(ALERT_DIRECTIONS, { error: 'direction must be above or below' }),
  price: storedAmount('Price', 'Please enter a price greater than 0'),
  note: z.string().trim().max(200, { error: 'Note can be at most 200 characters' }).optional(),
});
export type CreatePriceAlertInput = z.infer<typeof createPriceAlertBody>;

/** PUT /api/alerts/:id: `{read}` for a feed item; `{price?, direction?, note?}` for a price alert. */
export const updateAlertBody = z
  .object({
    read: z.boolean({ error: 'read must be true or false' }).optional(),
    price: createPriceAlertBody.shape.price.optional(),
    direction: createPriceAlertBody.shape.direction.optional(),
    note: createPriceAlertBody.shape.note,
  })
  .refine((body) => Object.values(body).some((v) => v !== undefined), {
    error: 'Nothing to change: send read, or a price or direction',
  });
export type UpdateAlertInput = z.infer<typeof updateAlertBody>;

/** A price alert as listed; `status` is TRIGGERED once it fired (it fires once). */
export interface ApiPriceAlert {
  id: string;
  symbol: string;
  exchange: Exchange;
  company_name: string;
  direction: AlertDirection;
  price: number;
  note: string | null;
  is_active: boolean;
  status: 'ACTIVE' | 'TRIGGERED';
  triggered_at: string | null;
  created_at: string;
  current_price: number | null;
}

/** GET /api/alerts. */
export interface ApiAlertsOverview {
  price_alerts: ApiPriceAlert[];
  feed: ApiRuleExecution[];
  unread: number;
}
