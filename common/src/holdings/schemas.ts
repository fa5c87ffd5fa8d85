import { z } from 'zod';
import { CSV_MESSAGES, PRICE_POSITIVE, QUANTITY_POSITIVE } from './messages.ts';
import { symbolSchema } from '../instruments/symbol.ts';
import { storedAmount } from '../api/numbers.ts';
import { quantitySchema } from './quantity.ts';
import { EXCHANGES } from '../instruments/types.ts';

/** A quantity (whole shares) or buy price, as a number or plain decimal text (`"12.50"`), that the column keeps. */
const quantity = quantitySchema(QUANTITY_POSITIVE);
const averagePrice = storedAmount('Buy price', PRICE_POSITIVE);

/** An unresolved import row fixed in the upload dialog with the symbol search. */
const uploadOverride = z.object({
  line: z.number().int().min(1),
  symbol: symbolSchema,
  exchange: z.enum(EXCHANGES),
});

/** Longest account name ("Zerodha · AB1234"). */
export const MAX_ACCOUNT_NAME = 60;
const accountName = z
  .string()
  .trim()
  .max(MAX_ACCOUNT_NAME, { error: 'Account name is too long (60 characters at most)' });

/**
 * The account an upload goes to: one of the user's import accounts by id, or a new account with
 * this name. Without it the server chooses by the file's client ID (see docs/holdings.md).
 */
const uploadAccount = z.union(
  [
    z.object({ id: z.uuid({ error: 'account.id must be an account id' }) }).strict(),
    z.object({ new_name: accountName.min(1, { error: 'Give the new account a name' }) }).strict(),
  ],
  { error: 'account must be {id} of one of your accounts or {new_name} for a new one' },
);

/**
 * `POST /api/holdings/upload-csv`: the CSV text (XLSX files arrive converted to CSV), the account
 * (`account`, or the older `broker_name`: the account of that name, created when missing),
 * `dry_run` for the dialog's preview, `overrides` for rows fixed by hand, `skip_lines` for rows
 * left out, and `confirm_removals`: how many holdings the preview said the upload removes.
 */
export const uploadCsvBody = z.object({
  csvData: z
    .string({ error: CSV_MESSAGES.empty })
    .refine((text) => text.trim() !== '', { error: CSV_MESSAGES.empty }),
  broker_name: accountName.optional(),
  account: uploadAccount.optional(),
  /** Validate and resolve only: nothing is stored. */
  dry_run: z.boolean().optional(),
  overrides: z.array(uploadOverride).max(1000).optional(),
  /** File rows (their line numbers) left out of the import. */
  skip_lines: z.array(z.number().int().min(1)).max(1000).optional(),
  /** Required when the upload removes holdings: the number of removals the preview showed. */
  confirm_removals: z.number().int().min(0).optional(),
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
export type UploadAccountChoice = z.infer<typeof uploadAccount>;
export type ManualHoldingBody = z.infer<typeof manualHoldingBody>;
export type UpdateHoldingBody = z.infer<typeof updateHoldingBody>;
