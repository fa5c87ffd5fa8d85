import { expect } from 'chai';
import { safeRedirect } from '../../client/src/session/redirect.ts';

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
