/** GET /api/corporate-actions: the query it takes and the shape it answers with. */
import { z } from 'zod';
import type { CorporateActionKind } from '../corporate-actions/purpose.ts';
import { symbolSchema } from '../instruments/symbol.ts';
import { EXCHANGES, type Exchange } from '../instruments/types.ts';

/**
 * `?symbol=&exchange=`: one instrument's actions (exchange defaults to NSE). Without a symbol:
 * the actions on the caller's holdings and rules, from 30 days back onwards.
 */
export const corporateActionsQuery = z.object({
  symbol: symbolSchema.optional(),
  exchange: z
    .preprocess(
      (value) => (typeof value === 'string' ? value.trim().toUpperCase() : value),
      z.enum(EXCHANGES, { error: 'Exchange must be NSE or BSE' }),
    )
    .optional(),
});
export type CorporateActionsQuery = z.infer<typeof corporateActionsQuery>;

export interface ApiCorporateAction {
  id: string;
  exchange: Exchange;
  symbol: string;
  security: string;
  kind: CorporateActionKind;
  /** Levels are divided by it on the ex-date (bonus and split); null for notices. */
  ratio: number | null;
  /** The exchange's words, e.g. 'BONUS 1:1'. */
  purpose: string;
  /** '1:1 bonus', 'split from ₹10 to ₹5', 'rights issue 45:301'. */
  terms: string;
  ex_date: string;
  record_date: string | null;
  /** When the rules and manual holdings were adjusted (bonus and split), null before. */
  applied_at: string | null;
}

/** A rule's past adjustment, newest first on the rule. */
export interface ApiRuleAdjustment {
  action_id: string;
  kind: CorporateActionKind;
  ex_date: string;
  ratio: number;
  /** 'adjusted for 1:1 bonus on 19 Dec 2025'. */
  note: string;
}
