import type { AccountOption } from './holdingsView.ts';

/** Broker accounts as a select's options (after the select's own first choice). */
export function AccountOptions({ accounts }: { accounts: readonly AccountOption[] }) {
  return accounts.map((account) => (
    <option key={account.id} value={account.id}>
      {account.name}
    </option>
  ));
}
