/**
 * The Dashboard's Getting Started checklist in Chromium against the real app
 * (docs/holdings.md#holdings-and-dashboard-screens): a new user sees the holdings step with its
 * inline form and a disabled Price Guard step; the example row is placeholders (Save All ignores
 * it untouched); once a holding is saved the holdings step goes, the Holdings and Active Rules
 * cards link to /holdings and Price Guard leads to its setup.
 */
import { expect } from 'chai';
import { PHONE, screenshot } from '../helpers/browser.ts';
import { apiClient } from '../helpers/http.ts';
import { signedInSuite } from './support.ts';

describe('e2e: Dashboard checklist', function () {
  this.timeout(60_000);
  const suite = signedInSuite({ name: 'Kavya Rao', path: '/dashboard' });

  it('shows a new user the holdings step, and Price Guard disabled with its tooltip', async () => {
    const { page } = suite;
    await page.getByRole('heading', { name: 'Getting Started' }).waitFor();
    await page.getByRole('heading', { name: 'Add Your Holdings' }).waitFor();
    const form = page.getByRole('form', { name: 'Add Your Holdings' });
    // The example is an example: placeholders, not values Save All would store.
    const exampleSymbol = form.getByRole('combobox', { name: 'Symbol (row 1)', exact: true });
    expect(await exampleSymbol.inputValue()).to.equal('');
    expect(await exampleSymbol.getAttribute('placeholder')).to.equal('RELIANCE');
    const exampleQuantity = form.getByLabel('Quantity (row 1)', { exact: true });
    expect(await exampleQuantity.inputValue()).to.equal('');
    expect(await exampleQuantity.getAttribute('placeholder')).to.equal('100');

    const guard = page.getByRole('button', { name: 'Price Guard' });
    expect(await guard.isDisabled()).to.equal(true);
    const tooltip = 'Add holdings first, then set up rules';
    expect(await guard.locator('xpath=..').getAttribute('title')).to.equal(tooltip);
    expect(await guard.getAttribute('aria-describedby')).to.be.a('string');
    await page.getByText(tooltip, { exact: true }).waitFor();
    expect(await page.getByRole('link', { name: 'Price Guard' }).count()).to.equal(0);
    // No holdings, no summary cards yet.
    expect(await page.locator('.summary-card').count()).to.equal(0);
    await screenshot(page, 'dashboard-new-user-desktop-1280');
  });

  it('ignores the untouched example row; saves a typed holding; then Price Guard leads to its setup', async () => {
    const { app, user, page, errors } = suite;
    const form = page.getByRole('form', { name: 'Add Your Holdings' });
    await form.getByRole('button', { name: 'Save All' }).click();
    await form.getByText('Row 1: Symbol is required').waitFor();
    const none = await apiClient(app.url).get<unknown[]>('/api/holdings', user.token);
    expect(none.body.data, 'the untouched example is not saved').to.deep.equal([]);

    await form.getByRole('combobox', { name: 'Symbol (row 1)', exact: true }).fill('RELIANCE');
    await form.getByLabel('Quantity (row 1)', { exact: true }).fill('100');
    await form.getByLabel('Buy Price (₹) (row 1)', { exact: true }).fill('2500');
    await form.getByRole('button', { name: 'Save All' }).click();
    await page.getByRole('heading', { name: 'Add Your Holdings' }).waitFor({ state: 'detached' });

    const res = await apiClient(app.url).get<{ symbol: string; quantity: string }[]>(
      '/api/holdings',
      user.token,
    );
    expect(res.body.data!.map((h) => [h.symbol, Number(h.quantity)])).to.deep.equal([['RELIANCE', 100]]);

    expect(await page.getByRole('form', { name: 'Add Your Holdings' }).count()).to.equal(0);
    await page.getByRole('heading', { name: 'Set Up Alerts' }).waitFor();
    const holdingsCard = page.locator('.summary-card', { hasText: 'Holdings' }).first();
    const rulesCard = page.locator('.summary-card', { hasText: 'Active Rules' });
    expect(await holdingsCard.locator('.summary-card-value').innerText()).to.equal('1');
    expect(await rulesCard.locator('.summary-card-value').innerText()).to.equal('0');
    expect(await holdingsCard.getByRole('link').getAttribute('href')).to.equal('/holdings');
    expect(await rulesCard.getByRole('link').getAttribute('href')).to.equal('/holdings');

    const guard = page.getByRole('link', { name: 'Price Guard' });
    expect(await guard.getAttribute('href')).to.equal('/holdings?magic-setup=true');
    expect(await page.getByRole('button', { name: 'Price Guard' }).count()).to.equal(0);
    await page.setViewportSize(PHONE);
    await screenshot(page, 'dashboard-one-step-left-phone-375');

    await rulesCard.getByRole('link').click();
    await page.getByRole('heading', { level: 1, name: 'Portfolio Holdings' }).waitFor();
    expect(new URL(page.url()).pathname).to.equal('/holdings');
    expect(errors).to.deep.equal([]);
  });
});
