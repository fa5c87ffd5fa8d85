/**
 * `GET /api/holdings`, whose quotes seed the tab's quote store. Every page's header reads the
 * market state from that store (LiveIndicator), so the header seeds it itself after each
 * (re)connect when no page has: History and Settings then say what Holdings says at the same
 * minute, instead of 'Market closed' until the next tick batch arrives.
 */
import { ApiError, api } from '../api/client.ts';
import { snapshotQuotes, type ApiHolding } from '../routes/holdings/holdingsView.ts';
import { quoteStore } from './quoteStore.ts';

/** Snapshots on their way; the header does not ask for another while one is. */
let pending = 0;

/** The user's holdings; their quotes go into the quote store. */
export async function fetchHoldings(): Promise<ApiHolding[]> {
  pending += 1;
  try {
    const data = await api.get<ApiHolding[]>('/holdings');
    if (!Array.isArray(data)) throw new ApiError(200, 'Unknown error');
    quoteStore.seed(snapshotQuotes(data));
    return data;
  } finally {
    pending -= 1;
  }
}

/**
 * Seeds the quote store from a snapshot unless it already holds a quote or a page's snapshot
 * is on its way. Called by the header after each (re)connect, after the page's own listeners.
 */
export function seedQuotesForHeader(): void {
  if (pending > 0 || quoteStore.newestQuote() !== null) return;
  fetchHoldings().catch((err: unknown) => {
    console.info('No quote snapshot for the header; it waits for the next tick batch', err);
  });
}
