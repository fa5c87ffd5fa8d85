/**
 * Saving many drafts at once (Save All, Price Guard's review): what can be saved is saved, and
 * each draft that cannot be stays a draft with its reason beside it (issue #28: one holding
 * without a price no longer holds back the other 23).
 */
import { planSaveAll } from '@app/common/rules/index';
import { ApiError } from '../../../api/errors.ts';
import type { DraftState, DraftStore } from './draftStore.ts';
import { draftRequest, saveAllProblem, type SaveProblem } from './ruleDrafts.ts';
import { rulesApi } from './rulesApi.ts';

/** What a draft is checked against: its holding's price now, and whether the symbol is listed. */
export interface DraftPricing {
  price: number | null;
  listed: boolean;
}

export type DraftsSaved =
  | {
      ok: true;
      /** Keys of the drafts saved (and removed from the store). */
      saved: string[];
      /** Keys of the drafts left with their reason ("Needs attention: …"). */
      attention: string[];
      /** Drafts without a trigger value, left as they are. */
      noValue: number;
    }
  | { ok: false; problem: SaveProblem };

/** The line shown beside a draft that could not be saved. */
export function attentionText(reason: string): string {
  return `Needs attention: ${reason}`;
}

const accountKey = (symbol: string, exchange: string, accountId: string | null) =>
  `${exchange}:${symbol}@${accountId ?? ''}`;

/**
 * Saves what it can of `drafts` in one request, removes the saved drafts from `store` and marks
 * each other with its reason. A failed request saves nothing and says why (`problem`).
 */
export async function saveDrafts(
  store: DraftStore,
  drafts: readonly DraftState[],
  pricing: (draft: DraftState) => DraftPricing,
): Promise<DraftsSaved> {
  const plan = planSaveAll(
    drafts.map((draft) => {
      const { price, listed } = pricing(draft);
      return { ...draft, currentPrice: price, listed };
    }),
  );
  if (!plan.ok) {
    return { ok: false, problem: { message: plan.error, details: [], guidance: null } };
  }
  const attention = new Map(plan.refused.map(({ draft, reason }) => [draft.key, reason]));
  const sent = plan.rules;
  let saved: string[] = [];
  if (sent.length > 0) {
    for (const { draft } of sent) store.update(draft.key, { saving: true, error: null });
    try {
      const result = await rulesApi.createMany(
        sent.map((r) => draftRequest(r.draft, r.triggerValue, r.triggerPrice)),
      );
      const skipped = new Map(
        result.skipped.map((s) => [accountKey(s.symbol, s.exchange, s.target_account_id), s.reason]),
      );
      for (const { draft } of sent) {
        const reason = skipped.get(accountKey(draft.symbol, draft.exchange, draft.accountId));
        if (reason === undefined) saved.push(draft.key);
        else attention.set(draft.key, reason);
      }
    } catch (err) {
      // Nothing could be saved: each rule's reason, in the order sent, when the server gave them.
      const reasons = err instanceof ApiError && err.fromServer ? err.details : [];
      if (reasons.length !== sent.length) {
        for (const { draft } of sent) store.update(draft.key, { saving: false });
        return { ok: false, problem: saveAllProblem(err) };
      }
      sent.forEach(({ draft }, i) => attention.set(draft.key, reasons[i]!));
      saved = [];
    }
  }
  store.remove(saved);
  for (const [key, reason] of attention) store.update(key, { saving: false, error: attentionText(reason) });
  return { ok: true, saved, attention: [...attention.keys()], noValue: plan.skipped.length };
}
