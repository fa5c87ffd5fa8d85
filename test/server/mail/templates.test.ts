import { expect } from 'chai';
import { batchMessage } from '../../../server/src/mail/batch.ts';
import {
  alertEmailFields,
  alertEmailTemplate,
  type AlertEmailInput,
} from '../../../server/src/mail/templates/alert.ts';
import { escapeHtml } from '../../../server/src/mail/templates/layout.ts';
import { renderVerificationEmail } from '../../../server/src/mail/templates/verification.ts';

/** The alert email as SMTP and the dev outbox send it: the batch's template filled for one recipient. */
function alertEmail(input: AlertEmailInput) {
  const recipient = { to: 'ravi@example.com', ...alertEmailFields(input) };
  return batchMessage({ template: alertEmailTemplate(input.appUrl), recipients: [recipient] }, 0);
}

describe('email templates', () => {
  it('escapes every character that matters in HTML', () => {
    expect(escapeHtml(`<a href="x" onclick='y'>&</a>`)).to.equal(
      '&lt;a href=&quot;x&quot; onclick=&#39;y&#39;&gt;&amp;&lt;/a&gt;',
    );
  });

  describe('verification email', () => {
    const url = 'http://app.example.test/verify-endpoint?token=abc_DEF-123';
    const email = renderVerificationEmail({
      address: 'asha@example.com',
      verifyUrl: url,
      validHours: 24,
      userName: 'Asha <b>',
    });

    it('names the product, links to the verify URL, states 24 hours and "ignore"', () => {
      expect(email.subject).to.contain('Portfolio Guard');
      for (const body of [email.text, email.html]) {
        expect(body).to.contain('Portfolio Guard');
        expect(body).to.contain(url);
        expect(body).to.contain('24 hours');
        expect(body).to.match(/didn(’|'|&#39;)t ask for this/);
      }
      expect(email.html).to.contain(`href="${url}"`);
      expect(email.html).to.contain('Verify email address');
    });

    it('escapes interpolated values and uses inline styles only', () => {
      expect(email.html).to.contain('Hello Asha &lt;b&gt;,');
      expect(email.html).not.to.contain('Asha <b>');
      expect(email.html).not.to.match(/<style|<link|<script/i);
      expect(email.html).to.contain('#3730a3');
    });
  });

  describe('alert email', () => {
    const input = {
      userName: 'Ravi',
      symbol: 'RELIANCE',
      exchange: 'NSE',
      ruleLabel: 'Trailing stop loss 7%',
      triggerPrice: 123456.5,
      ltp: 1234567.891,
      // 08:35:07 UTC is 14:05:07 in India.
      triggeredAt: new Date('2026-03-09T08:35:07Z'),
      appUrl: 'http://app.example.test',
    };

    it('shows symbol, rule, rupee amounts with Indian grouping, IST time and the holdings link', () => {
      const email = alertEmail(input);
      expect(email.subject).to.contain('RELIANCE (NSE)').and.to.contain('Trailing stop loss 7%');
      for (const body of [email.text, email.html]) {
        expect(body).to.contain('RELIANCE');
        expect(body).to.contain('Trailing stop loss 7%');
        expect(body).to.contain('₹1,23,456.50');
        expect(body).to.contain('₹12,34,567.89');
        expect(body).to.contain('09/03/2026, 14:05:07 IST');
        expect(body).to.contain('http://app.example.test/holdings');
      }
      expect(email.html).to.contain('href="http://app.example.test/holdings"');
      expect(email.text).not.to.contain('Basic tier');
    });

    it('escapes interpolated HTML and adds the quota note when over quota', () => {
      const email = alertEmail({
        ...input,
        userName: '<img src=x onerror=alert(1)>',
        ruleLabel: 'Stop "loss" & <more>',
        overQuota: true,
      });
      expect(email.html).not.to.contain('<img src=x');
      expect(email.html).to.contain('&lt;img src=x onerror=alert(1)&gt;');
      expect(email.html).to.contain('Stop &quot;loss&quot; &amp; &lt;more&gt;');
      expect(email.text).to.contain('Basic tier');
      expect(email.html).to.contain('Basic tier');
    });
  });
});
