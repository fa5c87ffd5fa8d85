/**
 * The Holdings page holds still while it arrives (issue 28, item 17): for a user with 25
 * holdings, the Cumulative Layout Shift over the arrival (the sign-in check, the page's code,
 * the holdings loading, then live prices arriving batch after batch, moving each price, day
 * change and P&L up and down) stays under 0.1, Core Web Vitals' "good", in both densities at
 * 1280×800 and on a phone. A score, not a duration: `test/helpers/layout-shift.ts`.
 */
import { expect } from 'chai';
import { DESKTOP, PHONE, type Viewport } from '../helpers/browser.ts';
import { layoutShiftScore, recordLayoutShifts } from '../helpers/layout-shift.ts';
import { addHolding, publishPrices } from '../server/rules/support.ts';
import { signedInContext, signedInSuite } from './support.ts';

/** Symbol, quantity, buy price, previous close. */
const HOLDINGS: [string, number, number, number][] = [
  ['RELIANCE', 1000, 1418.6, 1478.6],
  ['TCS', 40, 3900, 3380],
  ['INFY', 10, 1400, 1500],
  ['HDFCBANK', 120, 1610.25, 1990.1],
  ['ICICIBANK', 75, 1050, 1401.35],
  ['SBIN', 150, 680.4, 1025.3],
  ['ITC', 500, 402.3, 410],
  ['LT', 18, 3320, 3640.2],
  ['AXISBANK', 60, 1120.5, 1101],
  ['KOTAKBANK', 25, 1790, 2098],
  ['HINDUNILVR', 30, 2510, 2395.4],
  ['BHARTIARTL', 45, 1180, 1872.6],
  ['MARUTI', 4, 11250, 12580.5],
  ['TITAN', 22, 3410, 3540],
  ['WIPRO', 200, 268.9, 249.85],
  ['SUNPHARMA', 35, 1550, 1695],
  ['NTPC', 300, 345.6, 341],
  ['ONGC', 250, 262.4, 246.1],
  ['TATASTEEL', 400, 148.2, 159.9],
  ['ASIANPAINT', 12, 2900, 2470.2],
  ['NESTLEIND', 20, 2380, 2288],
  ['ULTRACEMCO', 3, 10950, 12198],
  ['COALINDIA', 100, 380, 385.5],
  ['HCLTECH', 50, 1320, 1650.4],
  ['POWERGRID', 350, 210.5, 298.7],
];

const PREV_CLOSES = Object.fromEntries(HOLDINGS.map(([symbol, , , prev]) => [symbol, prev]));

/** Each batch moves every price by these fractions of its previous close, in turn: day changes flip sign. */
const MOVES = [0.004, -0.003, 0.0065, -0.0015, 0.001];

/** The prices of batch `n`, to the tick (₹0.05). */
function batch(n: number): Record<string, number> {
  const move = MOVES[n % MOVES.length]!;
  return Object.fromEntries(
    HOLDINGS.map(([symbol, , , prev]) => [symbol, Math.round(prev * (1 + move) * 20) / 20]),
  );
}

describe('e2e: the Holdings page holds still while it arrives (CLS < 0.1)', function () {
  this.timeout(120_000);
  let sent = 0;
  const suite = signedInSuite({
    name: 'Ananya Pillai',
    // The test is the market, and no other file's quotes of these symbols reach this database:
    // the first arrival is before any price, the later ones start from the stored prices.
    embeddedStreamer: false,
    ownDatabase: true,
    async seed(app, user) {
      for (const [symbol, quantity, averagePrice] of HOLDINGS)
        await addHolding(app, user, symbol, quantity, averagePrice);
    },
  });

  /** Opens Holdings as a returning user who shows values and chose `density`; the score of its arrival. */
  async function arrive(viewport: Viewport, density: 'comfortable' | 'compact') {
    const { app, browser, user } = suite;
    const context = await signedInContext(browser, app, user, viewport);
    await context.addInitScript((chosen) => {
      localStorage.setItem('holdings_density', chosen);
      localStorage.setItem('holdings_values', 'shown');
    }, density);
    await recordLayoutShifts(context);
    const page = await context.newPage();
    await page.goto(`${app.url}/holdings`);
    const item = viewport.width < 768 ? 'li.holding-card' : 'tr.holding-row';
    await page.locator(`${item}[data-symbol="ASIANPAINT"]`).waitFor();
    // Prices arrive batch after batch while the user looks.
    for (let i = 0; i < 4; i++) {
      await publishPrices(app, batch(sent++), PREV_CLOSES);
      await page.waitForTimeout(400);
    }
    await page.locator(`${item}[data-symbol="ASIANPAINT"] [data-col="ltp"]`).getByText('₹').waitFor();
    await page.waitForTimeout(600);
    const result = await layoutShiftScore(page);
    await context.close();
    return result;
  }

  for (const [name, viewport, density] of [
    ['1280×800, Comfortable (before any price)', DESKTOP, 'comfortable'],
    ['1280×800, Compact', DESKTOP, 'compact'],
    ['375 px phone, Comfortable', PHONE, 'comfortable'],
  ] as const) {
    it(`${name}: CLS under 0.1`, async () => {
      const { score, shifts } = await arrive(viewport, density);
      const worst = [...shifts]
        .sort((a, b) => b.value - a.value)
        .slice(0, 5)
        .map((s) => `${s.value.toFixed(4)} at ${Math.round(s.startTime)} ms: ${s.sources.join(', ')}`);
      expect(score, `CLS ${score.toFixed(4)}; the largest shifts:\n${worst.join('\n')}`).to.be.below(0.1);
    });
  }
});
