/**
 * The sentences the Holdings page shows after an upload or a manual add (pure, unit-tested),
 * with what "Protect new holdings" did: "3 new holdings protected by Price Guard."
 */
import { importCountsText, rulesRemovedText } from '@app/common/holdings/upload-preview';
import { protectionSentence, type ApiNewHoldingsProtection } from '@app/common/rules/index';
import type { UploadSummary } from './upload/uploadApi.ts';

function withProtection(text: string, guard: ApiNewHoldingsProtection | null): string {
  const protection = guard ? protectionSentence(guard) : '';
  return protection ? `${text} ${protection}` : text;
}

/**
 * "Uploaded 5 holdings to Zerodha: 3 new, 2 changed, 0 removed. 3 new holdings protected by Price
 * Guard.": the preview's counts, in its words, and the exit rules that went with removed holdings.
 */
export function uploadedNotice(summary: UploadSummary): string {
  const counts =
    `Uploaded ${summary.total} ${summary.total === 1 ? 'holding' : 'holdings'} to ${summary.account_name}: ` +
    importCountsText({ ...summary, changed: summary.updated }) +
    '.';
  const rules = rulesRemovedText(summary.rules_removed);
  return withProtection(rules ? `${counts} ${rules}` : counts, summary.price_guard);
}

/** "1 holding was added. 1 new holding protected by Price Guard." */
export function addedNotice(added: number, guard: ApiNewHoldingsProtection | null): string {
  return withProtection(added === 1 ? '1 holding was added.' : `${added} holdings were added.`, guard);
}
