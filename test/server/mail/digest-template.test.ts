/** The evening digest email's words: Indian grouping, IST, crossed and unpriced rules, escaping. */
import { expect } from 'chai';
import { renderDigestEmail } from '../../../server/src/mail/templates/digest.ts';

describe('evening digest email', () => {
  const email = renderDigestEmail({
    userName: 'Asha <b>',
    appUrl: 'http://app.example.test/',
    content: {
      day: '2025-12-19',
      next_day: '2025-12-22',
      rules: [
        {
          symbol: 'MRF',
          exchange: 'NSE',
          rule_name: 'Stop <5%>',
          trigger_type: 'FIXED_STOP_LOSS',
          level: 123456.5,
          last_price: 121000,
          distance_percent: -2.03,
        },
        {
          symbol: 'NEWCO',
          exchange: 'BSE',
          rule_name: 'Price Guard',
          trigger_type: 'TRAILING_STOP_LOSS',
          level: 90,
          last_price: null,
          distance_percent: null,
        },
      ],
      firings: [],
      corporate_actions: [],
    },
  });

  it('lists each rule in rupees with Indian grouping, says crossed or unpriced, and nothing fired', () => {
    const lines = email.text.split('\n');
    expect(email.subject).to.equal('Your protection after the close, 19 Dec 2025: nothing fired');
    expect(lines).to.include.members([
      'Hello Asha <b>,',
      'Your rules at the close on 19 Dec 2025:',
      '- MRF (NSE) · Stop <5%>: price ₹1,21,000.00, level ₹1,23,456.50, crossed',
      '- NEWCO (BSE) · Price Guard: price —, level ₹90.00, no price yet',
      'Nothing fired today.',
      'Turn this digest off in Settings: http://app.example.test/settings',
    ]);
    expect(email.text).to.not.include('Corporate actions');
  });

  it('escapes what the user named in the HTML', () => {
    expect(email.html).to.include('Hello Asha &lt;b&gt;,');
    expect(email.html).to.include('Stop &lt;5%&gt;');
    expect(email.html).to.not.include('<b>');
    expect(email.html).to.include('href="http://app.example.test/holdings"');
  });
});
