import { aggregateHoldings } from '@app/common/portfolio/aggregate';
import { sortHoldings } from '@app/common/portfolio/sort';
import type { HoldingSortField } from '@app/common/portfolio/sort';
import type { AggregatedHolding } from '@app/common/portfolio/types';
import type { ApiNewHoldingsProtection } from '@app/common/rules/index';
import { useCallback, useEffect, useMemo, useState } from 'react';
import { useSearchParams } from 'react-router';
import { ErrorBox } from '../../components/ErrorBox.tsx';
import { useDocumentTitle } from '../../layout/useDocumentTitle.ts';
import '../../styles/rules.css';
import '../../styles/rules-guard.css';
import { applyQuotes, holdingKey } from '../../live/liveHoldings.ts';
import { quoteStore } from '../../live/quoteStore.ts';
import { addedNotice, uploadedNotice } from './addedNotice.ts';
import { BrokerSyncStrip } from './BrokerSyncStrip.tsx';
import { HoldingsActions } from './HoldingsActions.tsx';
import { HoldingsDialogs } from './HoldingsDialogs.tsx';
import { HoldingsEmpty } from './HoldingsEmpty.tsx';
import { HoldingsFilters } from './HoldingsFilters.tsx';
import { HoldingsSkeleton } from './HoldingsSkeleton.tsx';
import {
  accountName,
  accountOptions,
  DEFAULT_SORT,
  filterByProtection,
  filterHoldings,
  nextSort,
  protectionFilterOf,
  type ProtectionFilter,
} from './holdingsView.ts';
import { ManualEntryForm } from './manual/ManualEntryForm.tsx';
import { PortfolioSummary } from './PortfolioSummary.tsx';
import { DraftsBar } from './rules/DraftsBar.tsx';
import { RuleDialogs } from './rules/RuleDialogs.tsx';
import { RulesBar } from './rules/RulesBar.tsx';
import { RulesContext } from './rules/RulesContext.ts';
import { useRulesPage } from './rules/useRulesPage.ts';
import { useDensity } from './density.ts';
import { HoldingsList } from './table/HoldingsList.tsx';
import type { UploadSummary } from './upload/uploadApi.ts';
import { useConnectedNotice } from './useConnectedNotice.ts';
import { useHoldingDeletion } from './useHoldingDeletion.ts';
import { usePortfolio } from './usePortfolio.ts';
import { useRememberedValuesVisible, ValuesVisibleContext } from './valuesVisibility.ts';

/**
 * Holdings (docs/holdings.md#holdings-and-dashboard-screens): summary, each connected broker's last
 * sync, the live holdings table with each account's rules, Price Guard, the rule dialogs, upload,
 * manual entry, edit and delete.
 */
export default function HoldingsPage() {
  useDocumentTitle('Holdings');
  const portfolio = usePortfolio();
  const { reload } = portfolio;
  const [params, setParams] = useSearchParams();
  const [uploadOpen, setUploadOpen] = useState(false);
  const [adding, setAdding] = useState(false);
  const [notice, setNotice] = useState<string | null>(null);
  const [search, setSearch] = useState('');
  const [accountId, setAccountId] = useState('');
  const [sort, setSort] = useState(DEFAULT_SORT);
  const [expanded, setExpanded] = useState<ReadonlySet<string>>(new Set());
  const [valuesVisible, toggleValuesVisible] = useRememberedValuesVisible();
  const [density, setDensity] = useDensity();
  useConnectedNotice(setNotice);

  // ?upload=csv opens the upload dialog (then leaves the address).
  const wantsUpload = params.get('upload') === 'csv';
  if (wantsUpload && !uploadOpen) setUploadOpen(true);
  useEffect(() => {
    if (!wantsUpload) return;
    setParams(
      (prev) => {
        const next = new URLSearchParams(prev);
        next.delete('upload');
        return next;
      },
      { replace: true },
    );
  }, [wantsUpload, setParams]);

  // ?filter=unprotected (the dashboard's coverage link) stays in the address while it applies.
  const protection = protectionFilterOf(params.get('filter'));
  const setProtection = useCallback(
    (filter: ProtectionFilter) =>
      setParams(
        (prev) => {
          const next = new URLSearchParams(prev);
          if (filter === 'all') next.delete('filter');
          else next.set('filter', filter);
          return next;
        },
        { replace: true },
      ),
    [setParams],
  );

  const holdings = useMemo(() => portfolio.holdings ?? [], [portfolio.holdings]);
  const names = useMemo(() => {
    const map = new Map<string, string>();
    for (const h of holdings) map.set(h.broker_account_id, accountName(h));
    return map;
  }, [holdings]);
  const allRows = useMemo(() => aggregateHoldings(holdings, portfolio.rules), [holdings, portfolio.rules]);
  const shownRows = useMemo(
    () =>
      filterByProtection(
        aggregateHoldings(filterHoldings(holdings, search, accountId), portfolio.rules),
        protection,
      ),
    [holdings, search, accountId, portfolio.rules, protection],
  );
  // Ordered by the prices at the moment the sort or the list changed: rows do not jump on every tick.
  const orderedRows = useMemo(() => {
    const byKey = new Map(shownRows.map((row) => [holdingKey(row), row]));
    const live = applyQuotes(shownRows, (key) => quoteStore.get(key));
    return sortHoldings(live, sort.field, sort.direction).map((row) => byKey.get(holdingKey(row))!);
  }, [shownRows, sort]);

  // Price Guard fills rows in table order, then any rows the search hides.
  const guardRows = useMemo(() => {
    const shown = new Set(orderedRows.map(holdingKey));
    return [...orderedRows, ...allRows.filter((row) => !shown.has(holdingKey(row)))];
  }, [orderedRows, allRows]);
  const expand = useCallback(
    (keys: readonly string[]) => setExpanded((prev) => new Set([...prev, ...keys])),
    [],
  );
  const collapse = useCallback(
    (keys: readonly string[]) =>
      setExpanded((prev) => {
        const next = new Set(prev);
        for (const key of keys) next.delete(key);
        return next;
      }),
    [],
  );
  const rules = useRulesPage({
    holdings,
    rules: portfolio.rules,
    reload,
    expand,
    collapse,
    notify: setNotice,
  });

  const deletion = useHoldingDeletion(reload, (id) => names.get(id) ?? 'Unknown account', setNotice);
  const { ask } = deletion;
  const onDelete = useCallback((row: AggregatedHolding) => ask({ kind: 'one', row }), [ask]);
  const onToggle = useCallback((key: string) => {
    setExpanded((prev) => {
      const next = new Set(prev);
      if (!next.delete(key)) next.add(key);
      return next;
    });
  }, []);
  const onSort = useCallback((field: HoldingSortField) => setSort((prev) => nextSort(prev, field)), []);
  const onUploaded = (summary: UploadSummary) => {
    setUploadOpen(false);
    setNotice(uploadedNotice(summary));
    void reload();
  };
  const onManualSaved = (added: number, allSaved: boolean, guard: ApiNewHoldingsProtection | null) => {
    if (allSaved) setAdding(false);
    setNotice(addedNotice(added, guard));
    void reload();
  };

  const loaded = portfolio.holdings !== null;
  const hasHoldings = holdings.length > 0;
  return (
    <RulesContext value={rules.context}>
      <ValuesVisibleContext value={valuesVisible}>
        <div className="container page holdings-page" data-density={density}>
          <header className="page-header page-header-row holdings-header">
            <div>
              <h1>Portfolio Holdings</h1>
              <p>Your holdings across every demat account, at live NSE and BSE prices.</p>
            </div>
            <HoldingsActions
              loaded={loaded}
              hasHoldings={hasHoldings}
              adding={adding}
              onAddNew={() => setAdding((open) => !open)}
              onUpload={() => setUploadOpen(true)}
              onDeleteAll={() =>
                hasHoldings ? deletion.ask({ kind: 'all' }) : deletion.reportNothingToDelete()
              }
              onPriceGuard={() => rules.openDialog({ kind: 'guard' })}
            />
          </header>
          <ErrorBox message={portfolio.error} onDismiss={portfolio.dismissError}>
            <button type="button" className="btn btn-secondary btn-sm" onClick={() => void reload()}>
              Try again
            </button>
          </ErrorBox>
          <ErrorBox
            message={deletion.problem?.message}
            details={deletion.problem?.details}
            onDismiss={deletion.dismissProblem}
          />
          {notice ? (
            <div className="notice-success" role="status">
              <span>{notice}</span>
              <button
                type="button"
                className="dismiss-button"
                aria-label="Dismiss message"
                onClick={() => setNotice(null)}
              >
                ×
              </button>
            </div>
          ) : null}
          <BrokerSyncStrip />
          {adding ? (
            <section className="card add-holdings" aria-labelledby="add-holdings-title">
              <h2 id="add-holdings-title" className="card-title">
                Add holdings
              </h2>
              <ManualEntryForm
                variant="single"
                labelledBy="add-holdings-title"
                onSaved={onManualSaved}
                onCancel={() => setAdding(false)}
              />
            </section>
          ) : null}
          {!loaded && !portfolio.error ? <HoldingsSkeleton /> : null}
          {loaded && !hasHoldings && !adding ? (
            <HoldingsEmpty onUpload={() => setUploadOpen(true)} onAdd={() => setAdding(true)} />
          ) : null}
          {hasHoldings ? (
            <>
              <PortfolioSummary
                rows={allRows}
                visible={valuesVisible}
                onToggleVisible={toggleValuesVisible}
              />
              <section className="card holdings-card" aria-labelledby="holdings-title">
                <h2 id="holdings-title" className="visually-hidden">
                  Holdings
                </h2>
                <HoldingsFilters
                  search={search}
                  onSearch={setSearch}
                  accountId={accountId}
                  onAccount={setAccountId}
                  accounts={accountOptions(holdings)}
                  protection={protection}
                  onProtection={setProtection}
                  shown={orderedRows.length}
                  total={allRows.length}
                  density={density}
                  onDensity={setDensity}
                />
                {orderedRows.length === 0 ? (
                  <p className="holdings-no-match">
                    {protection === 'unprotected' && !search && !accountId
                      ? 'Every holding is protected by an active rule.'
                      : 'No holdings match your search.'}
                  </p>
                ) : (
                  <HoldingsList
                    rows={orderedRows}
                    density={density}
                    expanded={expanded}
                    accountNames={names}
                    sort={sort}
                    onSort={onSort}
                    onToggle={onToggle}
                    onDelete={onDelete}
                    onSaved={reload}
                    onAddRule={rules.addForRow}
                  />
                )}
              </section>
              <RulesBar rules={portfolio.rules} onOpen={rules.openDialog} />
            </>
          ) : null}
          <HoldingsDialogs
            uploadOpen={uploadOpen}
            onCloseUpload={() => setUploadOpen(false)}
            onUploaded={onUploaded}
            deletion={deletion}
          />
          <RuleDialogs
            dialog={rules.dialog}
            rows={loaded ? guardRows : null}
            rules={portfolio.rules}
            drafts={rules.drafts}
            accountNames={names}
            onClose={rules.closeDialog}
            onOpen={rules.openDialog}
            onGuard={rules.applyPriceGuard}
            guard={{
              pricing: rules.pricing,
              save: (targets, choice) => void rules.saveGuard(targets, choice),
              saving: rules.saving,
              problem: rules.problem,
              dismissProblem: rules.dismissProblem,
            }}
            onChanged={reload}
            notify={setNotice}
          />
          <DraftsBar
            store={rules.drafts}
            saving={rules.saving}
            problem={rules.problem}
            onSaveAll={() => void rules.saveAll()}
            onDismissProblem={rules.dismissProblem}
          />
        </div>
      </ValuesVisibleContext>
    </RulesContext>
  );
}
