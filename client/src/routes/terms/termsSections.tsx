import { Link } from 'react-router';
import type { LegalSection } from '../../components/LegalDocument.tsx';
import { SUPPORT_EMAIL } from '../../site.ts';

/** The sections of the Terms and Conditions, in order. */
export const TERMS_SECTIONS: LegalSection[] = [
  {
    id: 'eligibility',
    title: 'Eligibility and sign-in',
    body: (
      <>
        <p>To use Portfolio Guard you must:</p>
        <ul>
          <li>be at least 18 years old and able to enter into a binding contract under Indian law;</li>
          <li>
            sign in with a Google account. We do not offer passwords; your Google account is how we recognise
            you;
          </li>
          <li>use the service for your own investments or those you are lawfully authorised to manage.</li>
        </ul>
      </>
    ),
  },
  {
    id: 'service',
    title: 'The service',
    body: (
      <>
        <p>
          Portfolio Guard lets you gather your holdings from one or more demat accounts (by CSV upload or
          manual entry), follow their prices, and set rules such as fixed stop losses, trailing stop losses
          and profit targets. When a rule&apos;s condition is met, we send an alert to the notification
          endpoints you have verified.
        </p>
        <p>
          Prices are shown in Indian rupees and times in India Standard Time (IST). Prices are checked about
          once a minute while the markets are open and may be delayed. Features marked &ldquo;coming
          soon&rdquo;, such as broker connections, automatic sell orders and WhatsApp alerts, are not yet
          available and may change.
        </p>
      </>
    ),
  },
  {
    id: 'no-advice',
    title: 'No investment advice',
    body: (
      <>
        <p>
          Portfolio Guard is an information and alerting tool. We are not a stock broker, and we are not
          registered with SEBI as an investment adviser or research analyst. Nothing in the service, including
          default rules, rule templates, Price Guard or any content on this website, is a recommendation to
          buy, sell or hold any security.
        </p>
        <p>
          You alone decide which rules to set and what to do when an alert arrives. Investments in securities
          markets are subject to market risks; consider speaking to a SEBI-registered adviser before acting.
        </p>
      </>
    ),
  },
  {
    id: 'alerts',
    title: 'Alerts are best-effort',
    body: (
      <>
        <p>
          We work hard to deliver every alert promptly, but we cannot guarantee that an alert will be sent,
          will arrive, or will arrive in time. Market data can be delayed, incomplete or wrong; prices can gap
          past a trigger between two checks; emails can be delayed or filtered as spam; and any service can
          have outages.
        </p>
        <p>
          Do not rely on Portfolio Guard as your only safeguard. Alerts only tell you that a condition was
          met; we never place, modify or cancel orders on your behalf.
        </p>
      </>
    ),
  },
  {
    id: 'account',
    title: 'Your account and your data',
    body: (
      <>
        <p>
          Keep your Google account secure: anyone who can sign in to it can use your Portfolio Guard account.
          Tell us at once at <a href={`mailto:${SUPPORT_EMAIL}`}>{SUPPORT_EMAIL}</a> if you suspect
          unauthorised use.
        </p>
        <p>
          You are responsible for the accuracy of the holdings and rules you enter. You keep all rights to
          your data; you give us permission to store and process it only to provide the service, as described
          in our <Link to="/privacy">Privacy Policy</Link>.
        </p>
      </>
    ),
  },
  {
    id: 'plans',
    title: 'Subscription plans',
    body: (
      <p>
        The Basic plan covers alerts on up to 50 holdings and emails the first 5 rule triggers in each
        calendar month; the Advanced plan covers up to 200 holdings, alerts on every trigger and adds WhatsApp
        delivery when it becomes available. We will tell you in advance, by email or in the app, before any
        change to plan limits or any fee applies to you.
      </p>
    ),
  },
  {
    id: 'acceptable-use',
    title: 'Acceptable use',
    body: (
      <>
        <p>You agree not to:</p>
        <ul>
          <li>use the service for anything unlawful, including market manipulation or insider trading;</li>
          <li>access another person&apos;s account or data, or share your account with others;</li>
          <li>scrape, copy or resell the service or its market data;</li>
          <li>probe, overload or disrupt our systems, or get around rate limits or plan limits;</li>
          <li>reverse engineer the service except where the law allows it.</li>
        </ul>
      </>
    ),
  },
  {
    id: 'liability',
    title: 'Disclaimers and limitation of liability',
    body: (
      <>
        <p>
          The service is provided &ldquo;as is&rdquo; and &ldquo;as available&rdquo;. To the fullest extent
          permitted by law, we disclaim all warranties, express or implied, including accuracy of market data
          and fitness for a particular purpose.
        </p>
        <p>
          We are not liable for trading losses, lost profits or missed opportunities, including those linked
          to a delayed, missing or mistaken alert or price. Our total liability for any claim is limited to
          the amount you paid us for the service in the twelve months before the claim arose.
        </p>
      </>
    ),
  },
  {
    id: 'termination',
    title: 'Suspension and termination',
    body: (
      <p>
        You may stop using Portfolio Guard at any time and ask us to delete your account by writing to{' '}
        <a href={`mailto:${SUPPORT_EMAIL}`}>{SUPPORT_EMAIL}</a>. We may suspend or close an account that
        breaks these terms or puts the service or other users at risk; where reasonable we will tell you
        first. Sections on advice, alerts, liability and governing law survive termination.
      </p>
    ),
  },
  {
    id: 'changes',
    title: 'Changes to these terms',
    body: (
      <p>
        We may update these terms as the product evolves. We will change the date at the top and, for
        significant changes, notify you by email or in the app. Continuing to use the service after a change
        means you accept the updated terms.
      </p>
    ),
  },
  {
    id: 'governing-law',
    title: 'Governing law and disputes',
    body: (
      <p>
        These terms are governed by the laws of India. We will first try to resolve any dispute informally; if
        that fails, the courts of competent jurisdiction in India will decide it.
      </p>
    ),
  },
  {
    id: 'contact',
    title: 'Contact and grievances',
    body: (
      <p>
        Questions or complaints about these terms? Write to{' '}
        <a href={`mailto:${SUPPORT_EMAIL}`}>{SUPPORT_EMAIL}</a> or use our{' '}
        <Link to="/contact">contact page</Link>. We reply within 24 hours.
      </p>
    ),
  },
];
