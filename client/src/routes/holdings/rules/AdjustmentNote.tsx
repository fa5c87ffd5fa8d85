import type { ApiRuleAdjustment } from '@app/common/api/corporate-actions';

/**
 * 'Adjusted for 1:1 bonus on 19 Dec 2025': the latest bonus or split the rule's levels were
 * divided for (and how many before it), so a halved level never looks like a mistake.
 */
export function AdjustmentNote({ adjustments }: { adjustments: readonly ApiRuleAdjustment[] }) {
  const [latest, ...earlier] = adjustments;
  if (!latest) return null;
  const note = latest.note.charAt(0).toUpperCase() + latest.note.slice(1);
  return (
    <span className="rule-adjusted" title={`Levels divided by ${latest.ratio} on the ex-date`}>
      {note}
      {earlier.length > 0 ? ` (and ${earlier.length} earlier)` : ''}
    </span>
  );
}
