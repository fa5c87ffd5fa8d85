/**
 * The rules side of the Holdings page: the draft store, Price Guard (`?magic-setup=true`, the
 * intro modal after 0.5 s, then its compact review of every unguarded account row), Save All
 * and the review's Save (both save what they can; rows that need attention are opened, scrolled
 * to after 100 ms and highlighted for 3 s, saved rows fold back), and which rules dialog is open.
 */
import type { ApiPositionRule } from '@app/common/api/rules';
import { instrumentKey } from '@app/common/market/tick-batch';
import type { AggregatedHolding } from '@app/common/portfolio/types';
import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { useSearchParams } from 'react-router';
import { useLiveEvent } from '../../../live/hooks.ts';
import { quoteStore } from '../../../live/quoteStore.ts';
import type { ApiHolding } from '../holdingsView.ts';
import { DraftStore } from './draftStore.ts';
import { levelStore } from './levelStore.ts';
import {
  draftKey,
  guardRule,
  newDraft,
  priceGuardTargets,
  savedSentence,
  type GuardChoice,
  type GuardTarget,
  type SaveProblem,
} from './ruleDrafts.ts';
import type { RulesContextValue } from './RulesContext.ts';
import { saveDrafts, type DraftPricing } from './saveDrafts.ts';

export const GUARD_MODAL_DELAY_MS = 500;
export const GUARD_SCROLL_DELAY_MS = 100;
export const GUARD_HIGHLIGHT_MS = 3_000;

export type RulesDialog =
  | { kind: 'guard' }
  | { kind: 'quick' }
  | { kind: 'guard-review' }
  | { kind: 'wizard'; holdingKey?: string }
  | { kind: 'manage' }
  | { kind: 'templates' };

interface RulesPageInput {
  holdings: readonly ApiHolding[];
  rules: readonly ApiPositionRule[];
  reload: () => Promise<void>;
  /** Opens these table rows (`NSE:RELIANCE`). */
  expand: (rowKeys: readonly string[]) => void;
  /** Folds these table rows back. */
  collapse: (rowKeys: readonly string[]) => void;
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

const rowKeyOf = (draft: { symbol: string; exchange: GuardTarget['exchange'] }) =>
  instrumentKey(draft.exchange, draft.symbol);

export function useRulesPage({ holdings, rules, reload, expand, collapse, notify }: RulesPageInput) {
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

  /** Opens the rows of `keys`' drafts, moves to the first after 100 ms and highlights them for 3 s. */
  const reveal = useCallback(
    (keys: readonly string[], highlight: boolean) => {
      if (keys.length === 0) return;
      const rowKeys = keys.flatMap((key) => {
        const draft = drafts.get(key);
        return draft ? [rowKeyOf(draft)] : [];
      });
      expand([...new Set(rowKeys)]);
      later(GUARD_SCROLL_DELAY_MS, () => revealDraft(keys[0]!));
      if (highlight) {
        drafts.highlight(keys);
        later(GUARD_HIGHLIGHT_MS, () => drafts.clearHighlight());
      }
    },
    [drafts, expand, later],
  );

  const addForRow = useCallback(
    (row: AggregatedHolding) => {
      const targets = priceGuardTargets([row], (key) => drafts.has(key));
      if (targets.length === 0) {
        expand([instrumentKey(row.exchange, row.symbol)]);
        return;
      }
      drafts.add(targets.map((target) => newDraft(target)));
      reveal(targets.map(draftKey), false);
    },
    [drafts, expand, reveal],
  );

  const snapshotPrices = useMemo(() => {
    const map = new Map<string, number>();
    for (const h of holdings)
      if (h.current_price != null) map.set(instrumentKey(h.exchange, h.symbol), Number(h.current_price));
    return map;
  }, [holdings]);
  const unlisted = useMemo(
    () => new Set(holdings.filter((h) => h.listed === false).map((h) => instrumentKey(h.exchange, h.symbol))),
    [holdings],
  );
  /** A holding's price now (the live quote, else the snapshot's) and whether its symbol is listed. */
  const pricing = useCallback(
    (target: { symbol: string; exchange: GuardTarget['exchange'] }): DraftPricing => {
      const key = rowKeyOf(target);
      return {
        price: quoteStore.get(key)?.ltp ?? snapshotPrices.get(key) ?? null,
        listed: !unlisted.has(key),
      };
    },
    [snapshotPrices, unlisted],
  );

  /** Saves what it can of `keys`' drafts, says how it went, opens what needs attention. */
  const saveKeys = useCallback(
    async (keys: readonly string[]): Promise<boolean> => {
      const chosen = keys.flatMap((key) => drafts.get(key) ?? []);
      setSaving(true);
      setProblem(null);
      try {
        const outcome = await saveDrafts(drafts, chosen, pricing);
        if (!outcome.ok) {
          setProblem(outcome.problem);
          return false;
        }
        // Rows whose drafts are all saved fold back; a row with a draft left stays open.
        const open = new Set(drafts.list().map(rowKeyOf));
        const saved = new Set(outcome.saved);
        collapse(
          [...new Set(chosen.filter((d) => saved.has(d.key)).map(rowKeyOf))].filter((k) => !open.has(k)),
        );
        reveal(outcome.attention, true);
        const left = outcome.noValue;
        notify(
          savedSentence(outcome.saved.length, outcome.attention.length) +
            (left > 0
              ? ` ${left} ${left === 1 ? 'draft has' : 'drafts have'} no trigger value and stayed unsaved.`
              : ''),
        );
        if (outcome.saved.length > 0) await reload();
        return true;
      } finally {
        setSaving(false);
      }
    },
    [drafts, pricing, collapse, reveal, notify, reload],
  );

  const saveAll = useCallback(() => saveKeys(drafts.list().map((d) => d.key)), [drafts, saveKeys]);

  /** Price Guard's review: from the intro to the list of every unguarded account row. */
  const applyPriceGuard = useCallback(() => setDialog({ kind: 'guard-review' }), []);

  /**
   * The review's Save: a draft of the chosen rule (the 7 % trailing stop or the ATR stop) for
   * each ticked row and each row that cannot be protected yet (it stays a draft with its
   * reason), then saved as Save All saves.
   */
  const saveGuard = useCallback(
    async (targets: readonly GuardTarget[], choice: GuardChoice) => {
      const rule = guardRule(choice);
      drafts.add(targets.map((target) => newDraft(target, rule)));
      if (await saveKeys(targets.map(draftKey))) setDialog(null);
    },
    [drafts, saveKeys],
  );

  const context = useMemo<RulesContextValue>(() => ({ rules, drafts, reload }), [rules, drafts, reload]);

  return {
    context,
    drafts,
    dialog,
    openDialog: setDialog,
    closeDialog: useCallback(() => setDialog(null), []),
    applyPriceGuard,
    saveGuard,
    pricing,
    addForRow,
    saveAll,
    saving,
    problem,
    dismissProblem: useCallback(() => setProblem(null), []),
  };
}
