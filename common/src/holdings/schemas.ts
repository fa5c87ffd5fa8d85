import { z } from 'zod';
import { CSV_MESSAGES, PRICE_POSITIVE, QUANTITY_POSITIVE } from './messages.ts';
import { symbolSchema } from '../instruments/symbol.ts';
import { storedAmount } from '../api/numbers.ts';
import { EXCHANGES } from '../instruments/types.ts';

/** A quantity or buy price, as a number or plain decimal text (`"12.5"`), that the column keeps. */
const quantity = storedAmount('Quantity', QUANTITY_POSITIVE);
const averagePrice = storedAmount('Buy price', PRICE_POSITIVE);

/** An unresolved import row fixed in the upload dialog with the symbol search. */
const uploadOverride = z.object({
  line: z.number().int().min(1),
  symbol: symbolSchema,
  exchange: z.enum(EXCHANGES),
});

/**
 * `POST /api/holdings/upload-csv`: the CSV text (XLSX files arrive converted to CSV), an optional
 * account name, `dry_run` for the dialog's preview, and `overrides` for rows fixed by hand.
 */
export const uploadCsvBody = z.object({
  csvData: z
    .string({ error: CSV_MESSAGES.empty })
    .refine((text) => text.trim() !== '', { error: CSV_MESSAGES.empty }),
  broker_name: z
    .string()
    .trim()
    .max(60, { error: 'Account name is too long (60 characters at most)' })
    .optional(),
  /** Validate and resolve only: nothing is stored. */
  dry_run: z.boolean().optional(),
  overrides: z.array(uploadOverride).max(1000).optional(),
});

/** `POST /api/holdings/manual`: one manually entered holding. */
export const manualHoldingBody = z.object({
  symbol: symbolSchema,
  exchange: z.preprocess(
    (value) => (typeof value === 'string' ? value.trim().toUpperCase() : value),
    z.enum(EXCHANGES, { error: 'Exchange must be NSE or BSE' }),
  ),
  quantity,
  average_price: averagePrice,
});

/** `PUT /api/holdings/:id` (inline edit): a new quantity and/or buy price. */
export const updateHoldingBody = z
  .object({
    quantity: quantity.optional(),
    average_price: averagePrice.optional(),
  })
  .refine((body) => body.quantity !== undefined || body.average_price !== undefined, {
    error: 'Provide a quantity or a buy price to update',
  });

export type UploadCsvBody = z.infer<typeof uploadCsvBody>;
export type ManualHoldingBody = z.infer<typeof manualHoldingBody>;
export type UpdateHoldingBody = z.infer<typeof updateHoldingBody>;
