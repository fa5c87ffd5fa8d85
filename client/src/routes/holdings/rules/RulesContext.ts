import type { ApiPositionRule } from '@app/common/api/rules';
import { createContext, useContext } from 'react';
import type { DraftStore } from './draftStore.ts';

/** What the inline rules of every account row share, provided by the Holdings page. */
export interface RulesContextValue {
  rules: readonly ApiPositionRule[];
  drafts: DraftStore;
  /** Re-fetches holdings and rules after a change. */
  reload: () => Promise<void>;
}

export const RulesContext = createContext<RulesContextValue | null>(null);

export function useRulesContext(): RulesContextValue {
  const value = useContext(RulesContext);
  if (!value) throw new Error('useRulesContext needs a <RulesContext> provider (the Holdings page)');
  return value;
}
