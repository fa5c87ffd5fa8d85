/**
 * POST /holdings/upload-csv: parse (fast-csv), validate (common/), resolve, choose the account,
 * then preview (what the upload adds, changes and removes there) or import.
 */
import { brokerFormatName, MUTUAL_FUND_REFUSAL } from '@app/common/holdings/formats';
import { parseHoldingsTable, tooManyLines } from '@app/common/holdings/import';
import { CSV_MESSAGES } from '@app/common/holdings/messages';
import { fractionalRowProblems } from '@app/common/holdings/rows';
import type { UploadCsvBody } from '@app/common/holdings/schemas';
import {
  accountDisplayName,
  splitAccountName,
  type UploadAccountPlan,
} from '@app/common/holdings/upload-preview';
import type { AppDeps } from '../../deps.ts';
import { csvRows } from '../../holdings/csv-rows.ts';
import {
  accountHoldings,
  diffHoldings,
  findDuplicateAccount,
  rulesRemovedWith,
} from '../../holdings/import-plan.ts';
import { importHoldings } from '../../holdings/import.ts';
import {
  isMutualFundFile,
  mergeDuplicateRows,
  mergedQuantityProblems,
  resolveImportRows,
  type ImportRowInput,
} from '../../holdings/resolve.ts';
import { chooseImportTarget } from '../../holdings/target-account.ts';
import { Conflict, Invalid } from '../../http/errors.ts';

/** Previews or imports one uploaded file for the user (`body.dry_run`: preview only). */
export async function handleUpload(deps: AppDeps, { userId, body }: { userId: string; body: UploadCsvBody }) {
  const tooLong = tooManyLines(body.csvData);
  if (tooLong) throw new Invalid(tooLong);
  let table: string[][];
  try {
    table = await csvRows(body.csvData);
  } catch (err) {
    throw new Invalid(`The file could not be read as CSV: ${(err as Error).message}`);
  }
  const parsed = parseHoldingsTable(table);
  if (!parsed.ok) throw new Invalid(parsed.error, parsed.details.length ? parsed.details : undefined);

  const skipped = new Set(body.skip_lines ?? []);
  const missing = [...skipped].filter((line) => !parsed.rows.some((row) => row.line === line));
  if (missing.length) {
    throw new Invalid(`The file has no row ${missing.join(', ')} to leave out; choose the file again.`);
  }
  const overrides = new Map((body.overrides ?? []).map((o) => [o.line, o]));
  const rows: ImportRowInput[] = parsed.rows
    .filter((row) => !skipped.has(row.line))
    .map((row) => {
      const fix = overrides.get(row.line);
      return fix
        ? { ...row, symbol: fix.symbol.toUpperCase(), exchange: fix.exchange, exchangeFromFile: true }
        : row;
    });
  if (rows.length === 0) throw new Invalid('Every row of the file is left out: there is nothing to upload.');
  const resolution = resolveImportRows(deps.instruments, rows);
  if (isMutualFundFile(resolution, rows.length)) throw new Invalid(MUTUAL_FUND_REFUSAL);
  const { rows: resolved, problems } = resolution;
  problems.push(...fractionalRowProblems(resolved), ...mergedQuantityProblems(resolved));

  const fileBroker = brokerFormatName(parsed.broker).replace(/ \(.*\)$/, '');
  const [brokerName, accountLabel] = body.broker_name
    ? splitAccountName(body.broker_name)
    : [fileBroker, parsed.accountHint ?? ''];
  const choice = await chooseImportTarget(deps.db, {
    userId,
    fileBroker,
    ...(parsed.accountHint ? { clientId: parsed.accountHint } : {}),
    ...(body.account ? { choice: body.account } : {}),
    ...(body.broker_name ? { accountName: body.broker_name } : {}),
  });
  const { target } = choice;
  const merged = mergeDuplicateRows(resolved);
  const changes = target ? diffHoldings(await accountHoldings(deps.db, target.id), merged) : null;
  const plan: UploadAccountPlan = {
    target_account: target && {
      id: target.id,
      name: accountDisplayName(target.brokerName, target.accountLabel),
      new: target.id === null,
    },
    account_question: choice.question,
    account_options: choice.options,
    suggested_name: choice.suggestedName,
    changes,
    rules_removed: await rulesRemovedWith(deps.db, {
      userId,
      accountId: target?.id ?? null,
      removed: changes?.remove ?? [],
    }),
    duplicate: await findDuplicateAccount(deps.db, { userId, exceptId: target?.id ?? null, rows: merged }),
  };
  const preview = {
    broker: parsed.broker,
    broker_label: brokerFormatName(parsed.broker),
    broker_name: brokerName,
    account_label: accountLabel,
    client_id: parsed.accountHint ?? null,
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
      suggestions: (r.suggestions ?? []).map((i) => ({
        symbol: i.symbol,
        exchange: i.exchange,
        company_name: i.name,
      })),
    })),
    problems,
    unresolved: rows
      .filter((row) => !resolved.some((r) => r.line === row.line))
      .map((row) => ({ line: row.line, name: row.companyName ?? row.isin ?? '', isin: row.isin ?? null })),
    skipped_lines: [...skipped].sort((a, b) => a - b),
    ...plan,
  };
  if (body.dry_run) return { stored: false as const, preview };
  if (problems.length) throw new Invalid(CSV_MESSAGES.validationFailed, problems);
  if (!target) throw new Conflict(choice.question ?? 'Choose the account this file goes to.');
  const summary = await importHoldings(deps, {
    userId,
    target,
    rows: resolved,
    skipped: skipped.size,
    ...(body.confirm_removals !== undefined ? { confirmRemovals: body.confirm_removals } : {}),
  });
  return { stored: true as const, preview, summary };
}
