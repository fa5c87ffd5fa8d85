import { ErrorBox } from '../../../components/ErrorBox.tsx';
import { useDrafts, type DraftStore } from './draftStore.ts';
import type { SaveProblem } from './ruleDrafts.ts';

interface DraftsBarProps {
  store: DraftStore;
  saving: boolean;
  problem: SaveProblem | null;
  onSaveAll: () => void;
  onDismissProblem: () => void;
}

/**
 * Shown while unsaved drafts exist (Save All: docs/exit-rules.md): stays in view at the bottom of the screen.
 */
export function DraftsBar({ store, saving, problem, onSaveAll, onDismissProblem }: DraftsBarProps) {
  const drafts = useDrafts(store);
  if (drafts.length === 0) return null;
  return (
    <section className="drafts-bar" aria-label="Unsaved rules">
      <ErrorBox
        message={problem?.message}
        details={problem?.details}
        onDismiss={onDismissProblem}
        title="Rules not saved"
      >
        {problem?.guidance ? <p className="drafts-guidance">{problem.guidance}</p> : null}
      </ErrorBox>
      <div className="drafts-bar-inner">
        <p className="drafts-bar-count">
          <strong>{drafts.length}</strong> unsaved {drafts.length === 1 ? 'rule' : 'rules'}
        </p>
        <div className="drafts-bar-actions">
          <button
            type="button"
            className="btn btn-ghost btn-sm"
            disabled={saving}
            onClick={() => store.remove(drafts.map((draft) => draft.key))}
          >
            Discard all
          </button>
          <button type="button" className="btn btn-primary btn-sm" disabled={saving} onClick={onSaveAll}>
            {saving ? 'Saving...' : 'Save All'}
          </button>
        </div>
      </div>
    </section>
  );
}
