/** `POST /api/holdings/upload-csv`: the preview (dry run) and the import, as the server answers them. */
import type { UploadAccountChoice } from '@app/common/holdings/schemas';
import type { UploadAccountPlan } from '@app/common/holdings/upload-preview';
import type { Exchange } from '@app/common/instruments/types';
import type { ApiNewHoldingsProtection } from '@app/common/rules/index';
import { api } from '../../../api/client.ts';

export interface PreviewRow {
  line: number;
  symbol: string;
  exchange: Exchange;
  company_name: string;
  isin: string | null;
  quantity: number;
  average_price: number;
  /** False when the symbol is not in the exchange lists (kept as given). */
  known: boolean;
  /** The symbol the file used, when the stock has since been renamed. */
  renamed_from: string | null;
  /** What the server says about the row: a series suffix dropped, an exchange kept as the file said. */
  note: string | null;
  /** For a symbol no exchange lists: the listed symbols a typo away ("did you mean RELIANCE?"). */
  suggestions: { symbol: string; exchange: Exchange; company_name: string }[];
}

export interface UnresolvedRow {
  line: number;
  name: string;
  isin: string | null;
}

/** The preview: the file's rows, the rows to fix, and the account plan (target, changes, warning). */
export interface UploadPreview extends UploadAccountPlan {
  broker: string;
  broker_label: string;
  broker_name: string;
  account_label: string;
  client_id: string | null;
  rows: PreviewRow[];
  problems: string[];
  unresolved: UnresolvedRow[];
  skipped_lines: number[];
}

export interface UploadSummary {
  created: number;
  /** Holdings kept with a new quantity or buy price ("changed", as the preview said). */
  updated: number;
  unchanged: number;
  removed: number;
  /** The names of the exit rules deleted with the removed holdings. */
  rules_removed: string[];
  skipped: number;
  total: number;
  account_name: string;
  /** What "Protect new holdings" did for the new holdings; null while the setting is off. */
  price_guard: ApiNewHoldingsProtection | null;
}

export interface SymbolOverride {
  line: number;
  symbol: string;
  exchange: Exchange;
}

/** What the dialog sends: the same for the preview and the import. */
export interface UploadRequest {
  csvData: string;
  account?: UploadAccountChoice;
  overrides: readonly SymbolOverride[];
  skipLines: readonly number[];
}

function uploadBody(request: UploadRequest) {
  return {
    csvData: request.csvData,
    ...(request.account ? { account: request.account } : {}),
    ...(request.overrides.length ? { overrides: request.overrides } : {}),
    ...(request.skipLines.length ? { skip_lines: request.skipLines } : {}),
  };
}

/** The dry run: what the upload would do, nothing stored. */
export async function previewUpload(request: UploadRequest): Promise<UploadPreview> {
  const data = await api.post<{ preview: UploadPreview }>('/holdings/upload-csv', {
    ...uploadBody(request),
    dry_run: true,
  });
  return data.preview;
}

/** The import, confirming the removals the user was shown. */
export async function storeUpload(request: UploadRequest, confirmRemovals: number): Promise<UploadSummary> {
  const data = await api.post<{ summary: UploadSummary }>('/holdings/upload-csv', {
    ...uploadBody(request),
    ...(confirmRemovals > 0 ? { confirm_removals: confirmRemovals } : {}),
  });
  return data.summary;
}
