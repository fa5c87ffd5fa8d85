/**
 * Which account an upload goes to. The user chooses (an import account by id, or a new one by
 * name); without a choice a file naming a client ID goes to the broker's account with that ID,
 * and a file without one goes to a new account only when the user has no account of that broker.
 * Otherwise the user is asked: a second file of a broker never silently replaces the first.
 */
import type { UploadAccountChoice } from '@app/common/holdings/schemas';
import {
  accountDisplayName,
  normalAccountName,
  splitAccountName,
  type AccountOption,
} from '@app/common/holdings/upload-preview';
import { and, asc, eq, sql } from 'drizzle-orm';
import type { Executor } from '../db/client.ts';
import { brokerAccounts } from '../db/schema.ts';
import { Invalid, NotFound } from '../http/errors.ts';

/** An existing account (`id`) or one to create (`id: null`). */
export interface ImportTarget {
  id: string | null;
  brokerName: string;
  accountLabel: string;
}

export interface TargetChoice {
  /** Null when the user has to choose: `question` says why. */
  target: ImportTarget | null;
  question: string | null;
  options: AccountOption[];
  suggestedName: string;
}

export interface ChooseTargetQuery {
  userId: string;
  /** The file's broker as an account name ("Zerodha"). */
  fileBroker: string;
  /** The client ID the file names, if any. */
  clientId?: string;
  choice?: UploadAccountChoice;
  /** The older `broker_name`: the account of that name, created when missing. */
  accountName?: string;
}

interface ImportAccount {
  id: string;
  brokerName: string;
  accountLabel: string;
  holdings: number;
}

const same = (a: string, b: string) => a.trim().toLowerCase() === b.trim().toLowerCase();
const targetOf = (a: ImportAccount): ImportTarget => ({
  id: a.id,
  brokerName: a.brokerName,
  accountLabel: a.accountLabel,
});

/** The user's import (CSV_IMPORT) accounts with their holdings counts, by name. */
async function importAccounts(db: Executor, userId: string): Promise<ImportAccount[]> {
  return db
    .select({
      id: brokerAccounts.id,
      brokerName: brokerAccounts.brokerName,
      accountLabel: brokerAccounts.accountLabel,
      holdings: sql<number>`(select count(*)::int from holdings h where h.broker_account_id = "broker_accounts"."id")`,
    })
    .from(brokerAccounts)
    .where(and(eq(brokerAccounts.userId, userId), eq(brokerAccounts.brokerType, 'CSV_IMPORT')))
    .orderBy(asc(brokerAccounts.brokerName), asc(brokerAccounts.accountLabel));
}

/**
 * Decides the upload's account (see the file comment). Refuses an `id` that is not one of the
 * user's import accounts (404; the manual account: 400); a `new_name` already taken is a
 * question for the user, not a silent merge.
 */
export async function chooseImportTarget(db: Executor, query: ChooseTargetQuery): Promise<TargetChoice> {
  const accounts = await importAccounts(db, query.userId);
  const ofBroker = accounts.filter((a) => same(a.brokerName, query.fileBroker));
  const byClientId = query.clientId
    ? ofBroker.find((a) => same(a.accountLabel, query.clientId ?? ''))
    : undefined;
  const options: AccountOption[] = [...ofBroker, ...accounts.filter((a) => !ofBroker.includes(a))].map(
    (a) => ({
      id: a.id,
      name: accountDisplayName(a.brokerName, a.accountLabel),
      holdings_count: a.holdings,
      same_broker: ofBroker.includes(a),
      client_id_match: a === byClientId,
    }),
  );
  const taken = new Set(options.map((o) => o.name.toLowerCase()));
  const defaultName = accountDisplayName(query.fileBroker, query.clientId ?? '');
  const answer = (target: ImportTarget | null, question: string | null = null): TargetChoice => ({
    target,
    question,
    options,
    suggestedName: freeName(defaultName, taken),
  });
  const named = (name: string) =>
    accounts.find((a) => same(accountDisplayName(a.brokerName, a.accountLabel), normalAccountName(name)));

  const choice = query.choice;
  if (choice && 'id' in choice) {
    const chosen = accounts.find((a) => a.id === choice.id);
    if (!chosen) throw await notAnImportAccount(db, query.userId, choice.id);
    return answer(targetOf(chosen));
  }
  if (choice) {
    const name = choice.new_name;
    const existing = named(name);
    if (existing) {
      return answer(
        null,
        `You already have an account named ${accountDisplayName(existing.brokerName, existing.accountLabel)}: choose it to replace its holdings, or give the new account another name.`,
      );
    }
    const [brokerName, accountLabel] = splitAccountName(name);
    return answer({ id: null, brokerName, accountLabel });
  }
  if (query.accountName !== undefined && query.accountName !== '') {
    const [brokerName, accountLabel] = splitAccountName(query.accountName);
    const existing = accounts.find((a) => a.brokerName === brokerName && a.accountLabel === accountLabel);
    return answer(existing ? targetOf(existing) : { id: null, brokerName, accountLabel });
  }
  if (byClientId) return answer(targetOf(byClientId));
  if (query.clientId || ofBroker.length === 0) {
    return answer({ id: null, brokerName: query.fileBroker, accountLabel: query.clientId ?? '' });
  }
  const names = ofBroker.map((a) => accountDisplayName(a.brokerName, a.accountLabel)).join(', ');
  const have =
    ofBroker.length === 1
      ? `You already have a ${query.fileBroker} account (${names})`
      : `You already have ${ofBroker.length} ${query.fileBroker} accounts (${names})`;
  return answer(
    null,
    `${have} and this file does not name its client ID. Choose the account this file replaces, or name a new account.`,
  );
}

/** `name`, or `name 2`, `name 3`… when taken. */
function freeName(name: string, taken: ReadonlySet<string>): string {
  if (!taken.has(name.toLowerCase())) return name;
  for (let n = 2; ; n += 1) {
    const candidate = `${name} ${n}`;
    if (!taken.has(candidate.toLowerCase())) return candidate;
  }
}

/** The error for an account id that is not one of the user's import accounts. */
async function notAnImportAccount(db: Executor, userId: string, id: string): Promise<Error> {
  const [account] = await db
    .select({ type: brokerAccounts.brokerType })
    .from(brokerAccounts)
    .where(and(eq(brokerAccounts.id, id), eq(brokerAccounts.userId, userId)));
  return account
    ? new Invalid(
        'A file cannot replace the holdings you added by hand: choose an import account or a new one.',
      )
    : new NotFound('Broker account not found');
}
