import { formatInr } from '@app/common/format/money';
import type { AccountHolding, AggregatedHolding } from '@app/common/portfolio/types';
import { lazy, Suspense, type ReactNode } from 'react';
import { AccountRules } from '../AccountRules.tsx';
import { HIDDEN_VALUE, useValuesVisible } from '../valuesVisibility.ts';
import { formatQuantity, gainClass, signedInr, signedPercent } from './format.ts';
import { InlineEdit } from './InlineEdit.tsx';
import { NO_PRICE } from './rowParts.tsx';

const PriceChart = lazy(() => import('./PriceChart.tsx'));

const BROKER_TYPES: Record<string, string> = {
  USER_ADDED: 'Added manually',
  CSV_IMPORT: 'File import',
  API: 'Broker API',
};

/**
 * What an expanded row shows: each account's share with its rules slot, and a price chart. A lot
 * added by hand stays editable in place here when other accounts hold the same stock (the row's
 * totals are then not one lot's, so they are not editable).
 */
export function HoldingDetails({
  id,
  row,
  accountNames,
  onSaved,
}: {
  id: string;
  row: AggregatedHolding;
  accountNames: ReadonlyMap<string, string>;
  /** Re-fetches the holdings after a manual lot's edit. */
  onSaved: () => Promise<void>;
}) {
  const visible = useValuesVisible();
  const nameOf = (account: AccountHolding) =>
    accountNames.get(String(account.broker_account_id)) ?? account.broker_name;
  return (
    <div className="holding-details" id={id}>
      <div className="holding-accounts">
        <h3 className="holding-details-title">
          {row.accounts.length === 1 ? 'Account' : `${row.accounts.length} accounts`}
        </h3>
        <ul className="account-list">
          {row.accounts.map((account) => (
            <li key={account.id} className="account-item">
              <div className="account-head">
                <strong>{nameOf(account)}</strong>
                <span className="badge">{BROKER_TYPES[account.broker_type] ?? account.broker_type}</span>
              </div>
              <dl className="figures account-figures">
                <Figure label="Qty">
                  <LotValue
                    row={row}
                    account={account}
                    accountName={nameOf(account)}
                    field="quantity"
                    display={formatQuantity(account.quantity)}
                    onSaved={onSaved}
                  />
                </Figure>
                <Figure label="Buy">
                  <LotValue
                    row={row}
                    account={account}
                    accountName={nameOf(account)}
                    field="average_price"
                    display={formatInr(account.average_price)}
                    onSaved={onSaved}
                  />
                </Figure>
                <Figure label="LTP" className={account.current_price === null ? 'text-muted' : undefined}>
                  {account.current_price === null ? NO_PRICE : formatInr(account.current_price)}
                </Figure>
                <Figure
                  label="P&L"
                  className={
                    account.pnl === null ? 'text-muted' : visible ? gainClass(account.pnl) : undefined
                  }
                >
                  {account.pnl === null ? '—' : visible ? signedInr(account.pnl) : HIDDEN_VALUE}
                </Figure>
                <Figure
                  label="Gain"
                  className={account.pnl_percent === null ? 'text-muted' : gainClass(account.pnl_percent)}
                >
                  {account.pnl_percent === null ? '—' : signedPercent(account.pnl_percent)}
                </Figure>
              </dl>
              <AccountRules holding={row} account={account} accountName={nameOf(account)} />
            </li>
          ))}
        </ul>
      </div>
      <div className="holding-chart">
        <h3 className="holding-details-title">Price</h3>
        <Suspense fallback={<div className="chart-placeholder">Loading chart…</div>}>
          <PriceChart symbol={row.symbol} exchange={row.exchange} avgPrice={row.weighted_avg_price} />
        </Suspense>
      </div>
    </div>
  );
}

/** One account's quantity or buy price: editable in place for the lot added by hand in a row of several accounts. */
function LotValue({
  row,
  account,
  accountName,
  field,
  display,
  onSaved,
}: {
  row: AggregatedHolding;
  account: AccountHolding;
  accountName: string;
  field: 'quantity' | 'average_price';
  display: string;
  onSaved: () => Promise<void>;
}) {
  if (account.broker_type !== 'USER_ADDED' || row.accounts.length < 2) return <>{display}</>;
  return (
    <InlineEdit
      holdingId={String(account.id)}
      field={field}
      value={account[field]}
      display={display}
      label={`${field === 'quantity' ? 'quantity' : 'buy price'} of ${row.symbol} in ${accountName}`}
      onSaved={onSaved}
    />
  );
}

function Figure({ label, className, children }: { label: string; className?: string; children: ReactNode }) {
  return (
    <div className="figure">
      <dt>{label}</dt>
      <dd className={className}>{children}</dd>
    </div>
  );
}
