/** `POST /api/holdings/upload-csv`: the preview (dry run) and the import, as the server answers them. */
import { api } from '../../../api/client.ts';

export interface PreviewRow {
  line: number;
  symbol: string;
  exchange: 'NSE' | 'BSE';
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
}

export interface UnresolvedRow {
  line: number;
  name: string;
  isin: string | null;
}

export interface UploadPreview {
  broker: string;
  broker_label: string;
  broker_name: string;
  account_label: string;
  rows: PreviewRow[];
  problems: string[];
  unresolved: UnresolvedRow[];
}

export interface UploadSummary {
  created: number;
  updated: number;
  removed: number;
  total: number;
  account_name: string;
}

export interface SymbolOverride {
  line: number;
  symbol: string;
  exchange: 'NSE' | 'BSE';
}

export async function previewUpload(csvData: string): Promise<UploadPreview> {
  const data = await api.post<{ preview: UploadPreview }>('/holdings/upload-csv', { csvData, dry_run: true });
  return data.preview;
}

export async function storeUpload(
  csvData: string,
  accountName: string,
  overrides: readonly SymbolOverride[],
): Promise<UploadSummary> {
  const name = accountName.trim();
  const data = await api.post<{ summary: UploadSummary }>('/holdings/upload-csv', {
    csvData,
    ...(name ? { broker_name: name } : {}),
    ...(overrides.length ? { overrides } : {}),
  });
  return data.summary;
}

/** `Zerodha · AB1234` from a preview. */
export function previewAccountName(preview: UploadPreview): string {
  return [preview.broker_name, preview.account_label].filter(Boolean).join(' · ');
}
