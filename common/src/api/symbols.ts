/** The /api/symbols request schemas: searching the NSE/BSE master and checking a symbol. */
import { z } from 'zod';
import { EXCHANGES } from '../instruments/types.ts';

const exchange = z.enum(EXCHANGES, { message: 'exchange must be NSE or BSE' });

/** GET /api/symbols/search?query=&limit=&exchange=: `exchange` in any case. */
export const symbolSearchQuery = z.object({
  query: z.string().trim().max(60).default(''),
  limit: z.coerce.number().int().min(1).max(20).default(5),
  exchange: z.preprocess((v) => (typeof v === 'string' ? v.toUpperCase() : v), exchange).optional(),
});
export type SymbolSearchQuery = z.infer<typeof symbolSearchQuery>;

/** POST /api/symbols/validate: is this symbol listed (NSE unless said)? */
export const validateSymbolBody = z.object({
  symbol: z.string().trim().min(1, 'Symbol is required').max(40),
  exchange: exchange.default('NSE'),
});
export type ValidateSymbolInput = z.infer<typeof validateSymbolBody>;

/** An exchange named in a path (`/details/:exchange/:symbol`), any case already upper-cased. */
export const symbolExchange = exchange;
