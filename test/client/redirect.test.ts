import { expect } from 'chai';
import { loginAfterExpiry, safeRedirect } from '../../client/src/session/redirect.ts';

describe('client: safeRedirect', () => {
  it('sends the user to the dashboard when no redirect is given', () => {
    expect(safeRedirect(null)).to.equal('/dashboard');
    expect(safeRedirect('')).to.equal('/dashboard');
  });

  it('accepts the four signed-in areas', () => {
    for (const path of ['/dashboard', '/holdings', '/history', '/settings']) {
      expect(safeRedirect(path)).to.equal(path);
    }
  });

  it('keeps the query string and hash of an accepted path', () => {
    expect(safeRedirect('/holdings?upload=csv')).to.equal('/holdings?upload=csv');
    expect(safeRedirect('/holdings?magic-setup=true')).to.equal('/holdings?magic-setup=true');
    expect(safeRedirect('/settings#notifications')).to.equal('/settings#notifications');
    expect(safeRedirect('/history/')).to.equal('/history/');
  });

  it('refuses public pages and unknown paths', () => {
    expect(safeRedirect('/')).to.equal('/dashboard');
    expect(safeRedirect('/login')).to.equal('/dashboard');
    expect(safeRedirect('/know-more')).to.equal('/dashboard');
    expect(safeRedirect('/admin')).to.equal('/dashboard');
  });

  it('refuses look-alike prefixes', () => {
    expect(safeRedirect('/dashboard-evil')).to.equal('/dashboard');
    expect(safeRedirect('/holdingsx')).to.equal('/dashboard');
    expect(safeRedirect('/settings.example.com')).to.equal('/dashboard');
  });

  it('refuses other origins and protocol tricks', () => {
    expect(safeRedirect('https://evil.example/dashboard')).to.equal('/dashboard');
    expect(safeRedirect('//evil.example/dashboard')).to.equal('/dashboard');
    expect(safeRedirect('/\\evil.example')).to.equal('/dashboard');
    expect(safeRedirect('javascript:alert(1)')).to.equal('/dashboard');
    expect(safeRedirect('/dashboard\\..\\evil')).to.equal('/dashboard');
    expect(safeRedirect('/dashboard\n/evil')).to.equal('/dashboard');
    expect(safeRedirect(' /dashboard')).to.equal('/dashboard');
  });
});

describe('client: loginAfterExpiry', () => {
  it('sends a signed-in page to the login page with a redirect back', () => {
    expect(loginAfterExpiry('/dashboard', '')).to.equal('/login?redirect=%2Fdashboard');
    expect(loginAfterExpiry('/holdings', '?upload=csv')).to.equal(
      '/login?redirect=%2Fholdings%3Fupload%3Dcsv',
    );
  });

  it('sends any other page to the bare login page', () => {
    expect(loginAfterExpiry('/know-more', '')).to.equal('/login');
  });

  it('leaves the login page as it is: a second failed request keeps the first one’s redirect', () => {
    expect(loginAfterExpiry('/login', '?redirect=%2Fdashboard')).to.equal(null);
  });
});
