/**
 * What `POST /api/holdings/upload-csv` answers about the account an upload goes to and what it
 * would change there: the server computes it, the upload dialog shows it before anything is stored.
 */
import type { Exchange } from '../instruments/types.ts';

/** A holding as the preview lists it. */
export interface PreviewHolding {
  symbol: string;
  exchange: Exchange;
  quantity: number;
  average_price: number;
}

/** A holding the account keeps, with a new quantity and/or buy price. */
export interface PreviewUpdate {
  symbol: string;
  exchange: Exchange;
  from: { quantity: number; average_price: number };
  to: { quantity: number; average_price: number };
}

/** What the upload does to the target account: rows added, changed, and holdings removed. */
export interface ImportChanges {
  add: PreviewHolding[];
  update: PreviewUpdate[];
  remove: PreviewHolding[];
  /** Holdings the file repeats exactly. */
  unchanged: number;
}

/** A position rule the upload deletes: its holding leaves the account and nothing else holds it for the rule. */
export interface PreviewRuleRemoval {
  id: string;
  rule_name: string;
  symbol: string;
  exchange: Exchange;
}

/** The counts an upload is told by, the same in the preview and in the notice after it. */
export interface ImportCounts {
  created: number;
  changed: number;
  unchanged: number;
  removed: number;
  skipped: number;
}

/** The counts of a preview's changes, with `skipped` rows left out by the user. */
export function countsOfChanges(changes: ImportChanges, skipped: number): ImportCounts {
  return {
    created: changes.add.length,
    changed: changes.update.length,
    unchanged: changes.unchanged,
    removed: changes.remove.length,
    skipped,
  };
}

/** "0 new, 1 changed, 7 unchanged, 1 removed, 1 skipped" (unchanged and skipped only when there are any). */
export function importCountsText(counts: ImportCounts): string {
  return [
    `${counts.created} new`,
    `${counts.changed} changed`,
    ...(counts.unchanged ? [`${counts.unchanged} unchanged`] : []),
    `${counts.removed} removed`,
    ...(counts.skipped ? [`${counts.skipped} skipped`] : []),
  ].join(', ');
}

/** "2 exit rules removed: SBIN stop, SBIN target." (empty when none), after the upload. */
export function rulesRemovedText(ruleNames: readonly string[]): string {
  if (ruleNames.length === 0) return '';
  const count = ruleNames.length === 1 ? '1 exit rule' : `${ruleNames.length} exit rules`;
  return `${count} removed: ${ruleNames.join(', ')}.`;
}

/** Where the upload goes: an existing account (`id`) or a new one (`id: null`). */
export interface TargetAccount {
  id: string | null;
  name: string;
  new: boolean;
}

/** One of the user's import accounts the upload can go to. */
export interface AccountOption {
  id: string;
  name: string;
  holdings_count: number;
  /** The account is of the file's broker (offered first). */
  same_broker: boolean;
  /** The account's label is the client ID the file names. */
  client_id_match: boolean;
}

/** Another account that already holds what the file holds (the same account imported twice). */
export interface DuplicateAccountWarning {
  account_id: string;
  account_name: string;
  message: string;
}

/** The account part of the preview. */
export interface UploadAccountPlan {
  /** Null when the user must choose (see `account_question`). */
  target_account: TargetAccount | null;
  account_question: string | null;
  account_options: AccountOption[];
  /** A free name for a new account of this file's broker ("Zerodha 2" when "Zerodha" is taken). */
  suggested_name: string;
  /** Null until the account is known. */
  changes: ImportChanges | null;
  /** The exit rules the upload deletes with the holdings it removes (empty until the account is known). */
  rules_removed: PreviewRuleRemoval[];
  duplicate: DuplicateAccountWarning | null;
}

/** The sentence of the duplicate-account warning. */
export function duplicateAccountMessage(accountName: string): string {
  return `This looks like the same holdings as ${accountName} — choose that account to replace them instead of adding a second copy.`;
}

/** "Zerodha · AB1234" from its broker name and label. */
export function accountDisplayName(brokerName: string, accountLabel: string): string {
  return [brokerName, accountLabel].filter(Boolean).join(' · ');
}

/** "Zerodha · AB1234" → ["Zerodha", "AB1234"]. */
export function splitAccountName(name: string): [string, string] {
  const [broker, ...rest] = name.split('·').map((part) => part.trim());
  return [broker || 'Imported', rest.join(' ').trim()];
}

/** The account name as stored: "Zerodha·AB1234" and "Zerodha · AB1234" are one name. */
export function normalAccountName(name: string): string {
  return accountDisplayName(...splitAccountName(name));
}
