/**
 * Kite Connect v3's answers, as documented (kite.trade/docs/connect/v3; the shapes of
 * zerodha/kiteconnect-mocks): the envelope, the session, a holding, and an error's body.
 * Only the fields the app reads are checked; anything else Kite adds is ignored.
 */
import { z } from 'zod';

export const kiteSession = z.object({
  status: z.literal('success'),
  data: z.object({ user_id: z.string().min(1), access_token: z.string().min(1) }),
});

const kiteHolding = z.object({
  tradingsymbol: z.string().min(1),
  exchange: z.string(),
  isin: z.string().nullish(),
  quantity: z.number().nonnegative(),
  t1_quantity: z.number().nonnegative(),
  average_price: z.number().nonnegative(),
});
export type KiteHolding = z.infer<typeof kiteHolding>;

export const kiteHoldings = z.object({ status: z.literal('success'), data: z.array(kiteHolding) });

/** `{"status":"error","message":"…","data":null,"error_type":"TokenException"}` */
export const kiteError = z.object({
  status: z.literal('error'),
  message: z.string(),
  error_type: z.string(),
});
