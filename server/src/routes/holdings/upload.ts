/** POST /holdings/upload-csv: parse (fast-csv), validate (common/), resolve, then import or preview. */
import { brokerFormatName } from '@app/common/holdings/formats';
import { parseHoldingsTable } from '@app/common/holdings/import';
import { MUTUAL_FUND_REFUSAL } from '@app/common/holdings/formats';
import { CSV_MESSAGES } from '@app/common/holdings/messages';
import type { UploadCsvBody } from '@app/common/holdings/schemas';
import type { AppDeps } from '../../deps.ts';
import { splitAccountName } from '../../holdings/accounts.ts';
import { csvRows } from '../../holdings/csv-rows.ts';
import { importHoldings } from '../../holdings/import.ts';
import {
  isMutualFundFile,
  mergedQuantityProblems,
  resolveImportRows,
  type ImportRowInput,
} from '../../holdings/resolve.ts';
import { Invalid } from '../../http/errors.ts';

export async function handleUpload(deps: AppDeps, userId: string, body: UploadCsvBody) {
  let table: string[][];
  try {
    table = await csvRows(body.csvData);
  } catch (err) {
    throw new Invalid(`The file could not be read as CSV: ${(err as Error).message}`);
  }
  const parsed = parseHoldingsTable(table);
  if (!parsed.ok) throw new Invalid(parsed.error, parsed.details.length ? parsed.details : undefined);

  const overrides = new Map((body.overrides ?? []).map((o) => [o.line, o]));
  const rows: ImportRowInput[] = parsed.rows.map((row) => {
    const fix = overrides.get(row.line);
    return fix
      ? { ...row, symbol: fix.symbol.toUpperCase(), exchange: fix.exchange, exchangeFromFile: true }
      : row;
  });
  const resolution = resolveImportRows(deps.instruments, rows);
  if (isMutualFundFile(resolution, rows.length)) throw new Invalid(MUTUAL_FUND_REFUSAL);
  const { rows: resolved, problems } = resolution;
  problems.push(...mergedQuantityProblems(resolved));
  const [brokerName, accountLabel] = body.broker_name
    ? splitAccountName(body.broker_name)
    : [brokerFormatName(parsed.broker).replace(/ \(.*\)$/, ''), parsed.accountHint ?? ''];
  const preview = {
    broker: parsed.broker,
    broker_label: brokerFormatName(parsed.broker),
    broker_name: brokerName,
    account_label: accountLabel,
    rows: resolved.map((r) => ({
      line: r.line,
      symbol: r.symbol,
      exchange: r.exchange,
      company_name: r.companyName,
      isin: r.isin ?? null,
      quantity: r.quantity,
      average_price: r.averagePrice,
      known: r.known,
      renamed_from: r.renamedFrom ?? null,
      note: r.note ?? null,
    })),
    problems,
    unresolved: parsed.rows
      .filter((row) => !resolved.some((r) => r.line === row.line))
      .map((row) => ({ line: row.line, name: row.companyName ?? row.isin ?? '', isin: row.isin ?? null })),
  };
  if (body.dry_run) return { stored: false as const, preview };
  if (problems.length) throw new Invalid(CSV_MESSAGES.validationFailed, problems);
  const summary = await importHoldings(deps, { userId, brokerName, accountLabel, rows: resolved });
  return { stored: true as const, preview, summary };
}
