import type { ApiPositionRule } from '@app/common/api/rules';
import type { AggregatedHolding } from '@app/common/portfolio/types';
import { lazy, Suspense } from 'react';
import type { DraftStore } from './draftStore.ts';
import { priceGuardTargets } from './ruleDrafts.ts';
import type { RulesDialog } from './useRulesPage.ts';

// Loaded when first opened: they stay out of the Holdings page's first download.
const PriceGuardModal = lazy(() => import('./PriceGuardModal.tsx'));
const CreateRuleWizard = lazy(() => import('./dialogs/CreateRuleWizard.tsx'));
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
  onGuard: () => void;
  onChanged: () => Promise<void>;
  notify: (message: string) => void;
}

/** Whichever rules dialog is open (spec §2: they render only while their state is set). */
export function RuleDialogs({
  dialog,
  rows,
  rules,
  drafts,
  accountNames,
  onClose,
  onGuard,
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
  if (dialog.kind === 'guard') {
    const targets = rows ? priceGuardTargets(rows, (key) => drafts.has(key)) : null;
    content = (
      <PriceGuardModal
        unguarded={
          targets && { positions: targets.length, holdings: new Set(targets.map((t) => t.rowKey)).size }
        }
        onSkip={onClose}
        onGuard={onGuard}
      />
    );
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
              (skipped.length > 0 ? ` Skipped, as it would fire at once: ${skipped.join(' ')}` : ''),
          )
        }
      />
    );
  }
  return <Suspense fallback={null}>{content}</Suspense>;
}
