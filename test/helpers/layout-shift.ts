/**
 * Cumulative Layout Shift in Chromium, as Core Web Vitals defines it: every `layout-shift`
 * entry without recent input, grouped into session windows (shifts less than 1 s apart, a
 * window at most 5 s long), and the largest window's sum is the score. A page records its
 * shifts from its first paint with `recordLayoutShifts` (an init script, before the app runs).
 */
import type { BrowserContext, Page } from 'playwright-core';

/** One shift, with the elements that moved: tag.class (up to three), box before → after. */
export interface LayoutShift {
  value: number;
  startTime: number;
  sources: string[];
}

export interface LayoutShiftScore {
  /** The largest session window's sum: the page's CLS so far. */
  score: number;
  shifts: LayoutShift[];
}

declare global {
  interface Window {
    __layoutShifts?: LayoutShift[];
  }
}

/** Records every layout shift of the context's pages, from the first paint on. */
export async function recordLayoutShifts(context: BrowserContext): Promise<void> {
  await context.addInitScript(() => {
    const shifts: LayoutShift[] = [];
    window.__layoutShifts = shifts;
    new PerformanceObserver((list) => {
      for (const entry of list.getEntries() as (PerformanceEntry & {
        value: number;
        hadRecentInput: boolean;
        sources?: { node: Node | null; previousRect: DOMRectReadOnly; currentRect: DOMRectReadOnly }[];
      })[]) {
        if (entry.hadRecentInput) continue;
        shifts.push({
          value: entry.value,
          startTime: entry.startTime,
          // Named by tag and classes, with how far they moved (no named helper here: tsx's
          // __name does not exist in the page).
          sources: (entry.sources ?? []).map(
            ({ node, previousRect: from, currentRect: to }) =>
              `${
                node instanceof Element
                  ? [node.tagName.toLowerCase(), ...[...node.classList].slice(0, 3)].join('.')
                  : (node?.nodeName ?? '?')
              } (${Math.round(from.x)},${Math.round(from.y)} ${Math.round(from.width)}×${Math.round(from.height)} → ${Math.round(to.x)},${Math.round(to.y)} ${Math.round(to.width)}×${Math.round(to.height)})`,
          ),
        });
      }
    }).observe({ type: 'layout-shift', buffered: true });
  });
}

/** The page's CLS so far (session windows of 1 s gap and 5 s span) and the shifts behind it. */
export async function layoutShiftScore(page: Page): Promise<LayoutShiftScore> {
  const shifts = await page.evaluate(() => window.__layoutShifts ?? []);
  let score = 0;
  let session = 0;
  let first = -Infinity;
  let last = -Infinity;
  for (const shift of shifts) {
    if (shift.startTime - last > 1000 || shift.startTime - first > 5000) {
      session = 0;
      first = shift.startTime;
    }
    session += shift.value;
    last = shift.startTime;
    score = Math.max(score, session);
  }
  return { score, shifts };
}
