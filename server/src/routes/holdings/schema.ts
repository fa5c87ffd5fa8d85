import { z } from 'zod';

/** An unresolved row fixed in the dialog with the symbol search. */
const override = z.object({
  line: z.number().int().min(1),
  symbol: z.string().trim().min(1).max(40),
  exchange: z.enum(['NSE', 'BSE']),
});

export const uploadBody = z.object({
  csvData: z.string({ message: 'Please provide CSV data' }),
  broker_name: z.string().trim().max(60, 'Account name is too long (60 characters at most)').optional(),
  /** Validate and resolve only: the dialog's preview. Nothing is stored. */
  dry_run: z.boolean().optional(),
  overrides: z.array(override).max(1000).optional(),
});
export type UploadBody = z.infer<typeof uploadBody>;
