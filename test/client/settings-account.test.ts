import { expect } from 'chai';
import { accountDetails, tierLabel } from '../../client/src/routes/settings/accountDetails.ts';

describe('client: Account Information texts', () => {
  it('labels the basic tier Basic and the advanced tier Advanced', () => {
    expect(tierLabel('basic')).to.equal('Basic');
    expect(tierLabel('advanced')).to.equal('Advanced');
  });

  it('reads Basic when the tier is missing or unknown', () => {
    expect(tierLabel(undefined)).to.equal('Basic');
    expect(tierLabel(null)).to.equal('Basic');
    expect(tierLabel('')).to.equal('Basic');
    expect(tierLabel('platinum')).to.equal('Basic');
  });

  it('shows the name, email and tier of a full account', () => {
    expect(
      accountDetails({ name: 'Asha Verma', email: 'asha@example.com', subscription_tier: 'advanced' }),
    ).to.deep.equal({ name: 'Asha Verma', email: 'asha@example.com', tier: 'Advanced' });
  });

  it('shows N/A for a missing or blank email or name, and Basic by default', () => {
    expect(accountDetails({ name: 'Asha Verma' })).to.deep.equal({
      name: 'Asha Verma',
      email: 'N/A',
      tier: 'Basic',
    });
    expect(accountDetails({ name: '  ', email: '' })).to.deep.equal({
      name: 'N/A',
      email: 'N/A',
      tier: 'Basic',
    });
    expect(accountDetails(null)).to.deep.equal({ name: 'N/A', email: 'N/A', tier: 'Basic' });
  });
});
