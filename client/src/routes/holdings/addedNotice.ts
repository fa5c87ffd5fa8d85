/**
 * The sentences the Holdings page shows after an upload or a manual add (pure, unit-tested),
 * with what "Protect new holdings" did: "3 new holdings protected by Price Guard."
 */
import { protectionSentence, type ApiNewHoldingsProtection } from '@app/common/rules/index';
import type { UploadSummary } from './upload/uploadApi.ts';

function withProtection(text: string, guard: ApiNewHoldingsProtection | null): string {
  const protection = guard ? protectionSentence(guard) : '';
  return protection ? `${text} ${protection}` : text;
}

/** "Uploaded 5 holdings to Zerodha: 3 new, 2 updated, 0 removed. 3 new holdings protected by Price Guard." */
export function uploadedNotice(summary: UploadSummary): string {
  const counts =
    `Uploaded ${summary.total} ${summary.total === 1 ? 'holding' : 'holdings'} to ${summary.account_name}: ` +
    `${summary.created} new, ${summary.updated} updated, ${summary.removed} removed` +
    (summary.skipped > 0 ? `, ${summary.skipped} skipped.` : '.');
  return withProtection(counts, summary.price_guard);
}

/** "1 holding was added. 1 new holding protected by Price Guard." */
export function addedNotice(added: number, guard: ApiNewHoldingsProtection | null): string {
  return withProtection(added === 1 ? '1 holding was added.' : `${added} holdings were added.`, guard);
}
