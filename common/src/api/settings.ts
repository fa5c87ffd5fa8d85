/** GET/PUT /api/settings: the user's preferences kept on the server (docs/api.md, docs/exit-rules.md). */
import { z } from 'zod';

/** What GET /api/settings answers, and PUT answers after a change. */
export interface ApiSettings {
  /** New holdings (import or manual add) without a rule get the Price Guard rule. Off by default. */
  protect_new_holdings: boolean;
  /** After the close on trading days, one email summing up the user's protection. On by default. */
  evening_digest: boolean;
}

/** PUT /api/settings: any of the settings; unknown fields are ignored. */
export const updateSettingsBody = z
  .object({
    protect_new_holdings: z.boolean({ error: 'protect_new_holdings must be true or false' }).optional(),
    evening_digest: z.boolean({ error: 'evening_digest must be true or false' }).optional(),
  })
  .refine((body) => Object.values(body).some((v) => v !== undefined), {
    error: 'Nothing to change: send protect_new_holdings or evening_digest',
  });
export type UpdateSettingsInput = z.infer<typeof updateSettingsBody>;
