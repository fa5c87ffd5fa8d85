/**
 * The rules side of the Holdings page: the draft store, Price Guard (`?magic-setup=true`, the
 * intro modal after 0.5 s, drafts for every unguarded account row, scroll after 100 ms,
 * highlight for 3 s), Save All, and which rules dialog is open.
 */
import type { ApiPositionRule } from '@app/common/api/rules';
import { instrumentKey } from '@app/common/market/tick-batch';
import type { AggregatedHolding } from '@app/common/portfolio/types';
import { planSaveAll } from '@app/common/rules/index';
import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { useSearchParams } from 'react-router';
import { useLiveEvent } from '../../../live/hooks.ts';
import { quoteStore } from '../../../live/quoteStore.ts';
import type { ApiHolding } from '../holdingsView.ts';
import { DraftStore, type DraftState } from './draftStore.ts';
import { levelStore } from './levelStore.ts';
import {
  draftKey,
  draftRequest,
  newDraft,
  priceGuardTargets,
  saveAllProblem,
  type SaveProblem,
} from './ruleDrafts.ts';
import { rulesApi } from './rulesApi.ts';
import type { RulesContextValue } from './RulesContext.ts';

export const GUARD_MODAL_DELAY_MS = 500;
export const GUARD_SCROLL_DELAY_MS = 100;
export const GUARD_HIGHLIGHT_MS = 3_000;

export type RulesDialog =
  { kind: 'guard' } | { kind: 'wizard'; holdingKey?: string } | { kind: 'manage' } | { kind: 'templates' };

interface RulesPageInput {
  /** Every aggregated holding, in the table's order. */
  rows: readonly AggregatedHolding[];
  holdings: readonly ApiHolding[];
  rules: readonly ApiPositionRule[];
  reload: () => Promise<void>;
  /** Opens these table rows (`NSE:RELIANCE`). */
  expand: (rowKeys: readonly string[]) => void;
  notify: (message: string) => void;
}

/** Moves to the first new draft: scrolled into the middle of the screen, its value focused. */
function revealDraft(key: string): void {
  const target = document.querySelector<HTMLElement>(`[data-rule-target="${CSS.escape(key)}"]`);
  if (!target) return;
  const smooth = !window.matchMedia('(prefers-reduced-motion: reduce)').matches;
  target.scrollIntoView({ block: 'center', behavior: smooth ? 'smooth' : 'auto' });
  target.querySelector<HTMLInputElement>('input')?.focus({ preventScroll: true });
}

export function useRulesPage({ rows, holdings, rules, reload, expand, notify }: RulesPageInput) {
  const [drafts] = useState(() => new DraftStore());
  const [dialog, setDialog] = useState<RulesDialog | null>(null);
  const [saving, setSaving] = useState(false);
  const [problem, setProblem] = useState<SaveProblem | null>(null);
  const timers = useRef<number[]>([]);
  const [params, setParams] = useSearchParams();

  useLiveEvent('rules:levels', (levels) => levelStore.apply(levels));
  // A fresh snapshot holds the pushed levels already (or newer ones).
  useEffect(() => levelStore.clear(), [rules]);
  useEffect(() => {
    const pending = timers.current;
    return () => pending.forEach((timer) => window.clearTimeout(timer));
  }, []);
  const later = useCallback((ms: number, task: () => void) => {
    timers.current.push(window.setTimeout(task, ms));
  }, []);

  // ?magic-setup=true leaves the address at once (no history entry); the modal follows in 0.5 s.
  const wantsGuard = params.get('magic-setup') === 'true';
  useEffect(() => {
    if (!wantsGuard) return;
    setParams(
      (prev) => {
        const next = new URLSearchParams(prev);
        next.delete('magic-setup');
        return next;
      },
      { replace: true },
    );
    later(GUARD_MODAL_DELAY_MS, () => setDialog({ kind: 'guard' }));
  }, [wantsGuard, setParams, later]);

  // Drafts of account rows that no longer exist (a deleted holding) go too.
  useEffect(() => {
    const held = new Set(
      holdings.map((h) =>
        draftKey({ symbol: h.symbol, exchange: h.exchange, accountId: h.broker_account_id }),
      ),
    );
    drafts.keepOnly((draft) => held.has(draft.key));
  }, [holdings, drafts]);

  /** Drafts for the unguarded account rows of `scope`; returns how many were added. */
  const addDrafts = useCallback(
    (scope: readonly AggregatedHolding[], highlight: boolean): number => {
      const targets = priceGuardTargets(scope, (key) => drafts.has(key));
      if (targets.length === 0) return 0;
      drafts.add(targets.map(newDraft));
      expand([...new Set(targets.map((t) => t.rowKey))]);
      const keys = targets.map(draftKey);
      later(GUARD_SCROLL_DELAY_MS, () => revealDraft(keys[0]!));
      if (highlight) {
        drafts.highlight(keys);
        later(GUARD_HIGHLIGHT_MS, () => drafts.clearHighlight());
      }
      return targets.length;
    },
    [drafts, expand, later],
  );

  const applyPriceGuard = useCallback(() => {
    setDialog(null);
    const added = addDrafts(rows, true);
    notify(
      added === 0
        ? 'Every holding already has an active rule. Add more from any expanded row.'
        : `Price Guard prepared ${added} ${added === 1 ? 'rule' : 'rules'}: a 7% trailing stop-loss alert on each unguarded holding. Review, then press Save All.`,
    );
  }, [addDrafts, rows, notify]);

  const addForRow = useCallback(
    (row: AggregatedHolding) => {
      if (addDrafts([row], false) === 0) expand([instrumentKey(row.exchange, row.symbol)]);
    },
    [addDrafts, expand],
  );

  const snapshotPrices = useMemo(() => {
    const map = new Map<string, number>();
    for (const h of holdings)
      if (h.current_price != null) map.set(instrumentKey(h.exchange, h.symbol), Number(h.current_price));
    return map;
  }, [holdings]);

  const saveAll = useCallback(async () => {
    const priced = drafts.list().map((draft: DraftState) => {
      const key = instrumentKey(draft.exchange, draft.symbol);
      return { ...draft, currentPrice: quoteStore.get(key)?.ltp ?? snapshotPrices.get(key) ?? null };
    });
    const plan = planSaveAll(priced);
    if (!plan.ok) {
      setProblem({ message: plan.error, details: plan.errors.length > 1 ? plan.errors : [], guidance: null });
      return;
    }
    setSaving(true);
    setProblem(null);
    try {
      const result = await rulesApi.createMany(
        plan.rules.map((r) => draftRequest(r.draft, r.triggerValue, r.triggerPrice)),
      );
      drafts.remove(plan.rules.map((r) => r.draft.key));
      const left = plan.skipped.length;
      notify(
        `Saved ${result.created} ${result.created === 1 ? 'rule' : 'rules'}.` +
          (left > 0
            ? ` ${left} ${left === 1 ? 'draft has' : 'drafts have'} no trigger value and stayed unsaved.`
            : ''),
      );
      await reload();
    } catch (err) {
      setProblem(saveAllProblem(err));
    } finally {
      setSaving(false);
    }
  }, [drafts, snapshotPrices, notify, reload]);

  const context = useMemo<RulesContextValue>(() => ({ rules, drafts, reload }), [rules, drafts, reload]);

  return {
    context,
    drafts,
    dialog,
    openDialog: setDialog,
    closeDialog: useCallback(() => setDialog(null), []),
    applyPriceGuard,
    addForRow,
    saveAll,
    saving,
    problem,
    dismissProblem: useCallback(() => setProblem(null), []),
  };
}
