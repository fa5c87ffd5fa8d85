import type { ApiPositionRule } from '@app/common/api/rules';
import type { AggregatedHolding } from '@app/common/portfolio/types';
import { lazy, Suspense } from 'react';
import type { DraftStore } from './draftStore.ts';
import {
  planPriceGuard,
  priceGuardTargets,
  type GuardChoice,
  type GuardTarget,
  type SaveProblem,
} from './ruleDrafts.ts';
import type { DraftPricing } from './saveDrafts.ts';
import type { RulesDialog } from './useRulesPage.ts';

// Loaded when first opened: they stay out of the Holdings page's first download.
const PriceGuardModal = lazy(() => import('./PriceGuardModal.tsx'));
const PriceGuardReview = lazy(() => import('./PriceGuardReview.tsx'));
const CreateRuleWizard = lazy(() => import('./dialogs/CreateRuleWizard.tsx'));
const QuickRuleDialog = lazy(() => import('./dialogs/QuickRuleDialog.tsx'));
const ManageRulesDialog = lazy(() => import('./dialogs/ManageRulesDialog.tsx'));
const TemplatesDialog = lazy(() => import('./dialogs/TemplatesDialog.tsx'));

interface RuleDialogsProps {
  dialog: RulesDialog | null;
  /** Null until the holdings are loaded. */
  rows: readonly AggregatedHolding[] | null;
  rules: readonly ApiPositionRule[];
  drafts: DraftStore;
  accountNames: ReadonlyMap<string, string>;
  onClose: () => void;
  /** Replaces the open dialog with another (New rule's 'Step by step' opens the wizard). */
  onOpen: (dialog: RulesDialog) => void;
  onGuard: () => void;
  /** Price Guard's review: prices, its Save and how that went. */
  guard: {
    pricing: (target: GuardTarget) => DraftPricing;
    save: (targets: readonly GuardTarget[], choice: GuardChoice) => void;
    saving: boolean;
    problem: SaveProblem | null;
    dismissProblem: () => void;
  };
  onChanged: () => Promise<void>;
  notify: (message: string) => void;
}

/** Whichever rules dialog is open (each renders only while its state is set). */
export function RuleDialogs({
  dialog,
  rows,
  rules,
  drafts,
  accountNames,
  onClose,
  onOpen,
  onGuard,
  guard,
  onChanged,
  notify,
}: RuleDialogsProps) {
  if (!dialog) return null;
  const done = (message: string) => {
    onClose();
    notify(message);
    void onChanged();
  };
  let content = null;
  const plan = () =>
    rows
      ? planPriceGuard(
          priceGuardTargets(rows, (key) => drafts.has(key)),
          (t) => guard.pricing(t).price,
          (t) => guard.pricing(t).listed,
        )
      : null;
  if (dialog.kind === 'guard') {
    const guarded = plan();
    content = (
      <PriceGuardModal
        unguarded={
          guarded && {
            positions: guarded.ready.length,
            holdings: new Set(guarded.ready.map((t) => t.rowKey)).size,
            blocked: guarded.blocked,
          }
        }
        onSkip={onClose}
        onGuard={onGuard}
      />
    );
  } else if (dialog.kind === 'quick' && rows) {
    content = (
      <QuickRuleDialog
        rows={rows}
        accountNames={accountNames}
        onClose={onClose}
        onWizard={() => onOpen({ kind: 'wizard' })}
        onCreated={(rule) => done(`Rule created: ${rule.symbol}, ${rule.rule_name}.`)}
      />
    );
  } else if (dialog.kind === 'guard-review') {
    const guarded = plan();
    content = guarded ? (
      <PriceGuardReview
        ready={guarded.ready}
        blocked={guarded.blocked}
        accountNames={accountNames}
        saving={guard.saving}
        problem={guard.problem}
        onDismissProblem={guard.dismissProblem}
        onCancel={onClose}
        onSave={guard.save}
      />
    ) : null;
  } else if (dialog.kind === 'wizard' && rows) {
    content = (
      <CreateRuleWizard
        rows={rows}
        accountNames={accountNames}
        holdingKey={dialog.holdingKey}
        onClose={onClose}
        onCreated={(rule) => done(`Rule created: ${rule.symbol}, ${rule.rule_name}.`)}
      />
    );
  } else if (dialog.kind === 'manage') {
    content = (
      <ManageRulesDialog rules={rules} accountNames={accountNames} onChanged={onChanged} onClose={onClose} />
    );
  } else if (dialog.kind === 'templates' && rows) {
    content = (
      <TemplatesDialog
        rows={rows}
        accountNames={accountNames}
        onClose={onClose}
        onApplied={(count, name, skipped) =>
          done(
            `Applied ${name} to ${count} ${count === 1 ? 'holding' : 'holdings'}.` +
              (skipped.length > 0 ? ` Not applied: ${skipped.join(' ')}` : ''),
          )
        }
      />
    );
  }
  return <Suspense fallback={null}>{content}</Suspense>;
}
