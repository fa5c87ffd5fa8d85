import { Link } from 'react-router';
import type { LegalSection } from '../../components/LegalDocument.tsx';
import { SUPPORT_EMAIL } from '../../site.ts';

const mail = <a href={`mailto:${SUPPORT_EMAIL}`}>{SUPPORT_EMAIL}</a>;

/** The twelve sections of the Privacy Policy, in order. */
export const PRIVACY_SECTIONS: LegalSection[] = [
  {
    id: 'information-we-collect',
    title: 'Information we collect',
    body: (
      <ul>
        <li>
          <strong>Account details</strong> from Google when you sign in: your name, email address, profile
          picture and Google account identifier. We never see your Google password.
        </li>
        <li>
          <strong>Portfolio data</strong> you provide: holdings (symbol, exchange, quantity, buy price), the
          broker accounts they belong to, and files you upload to import them.
        </li>
        <li>
          <strong>Rules and alerts</strong>: the exit rules you set, when they trigger, and the alerts we
          send.
        </li>
        <li>
          <strong>Notification endpoints</strong>: email addresses and, when available, phone numbers you add
          for alerts, with their verification status.
        </li>
        <li>
          <strong>Usage data</strong>: pages viewed, the referring page, time of visit, and technical details
          such as IP address and browser type, used to keep the service secure and reliable.
        </li>
      </ul>
    ),
  },
  {
    id: 'how-we-use',
    title: 'How we use your information',
    body: (
      <ul>
        <li>to sign you in and keep your account secure;</li>
        <li>to show your holdings, live prices and profit and loss, and to evaluate your rules;</li>
        <li>to send alerts and service emails, such as endpoint verification links;</li>
        <li>to answer your support requests;</li>
        <li>to understand which features are used, fix problems and prevent abuse.</li>
      </ul>
    ),
  },
  {
    id: 'sharing',
    title: 'How we share information',
    body: (
      <>
        <p>
          We do not sell or rent your personal data, and we do not share it for advertising. We share it only
          with:
        </p>
        <ul>
          <li>
            service providers that run parts of the service for us (hosting, email delivery), under contract;
          </li>
          <li>authorities, when Indian law or a valid legal order requires it;</li>
          <li>a successor business, if Portfolio Guard is merged or sold, under this same policy.</li>
        </ul>
        <p>
          Market data providers receive only the list of symbols we need prices for, never who holds them.
        </p>
      </>
    ),
  },
  {
    id: 'security',
    title: 'How we protect your information',
    body: (
      <p>
        Data travels over encrypted connections (HTTPS). Sign-in uses short-lived access tokens and refresh
        tokens that are stored hashed on our side and can be revoked. Access to production systems is
        restricted to the few people who need it. No system is perfectly secure; if a breach affects your data
        we will tell you and the authorities as the law requires.
      </p>
    ),
  },
  {
    id: 'retention',
    title: 'How long we keep it',
    body: (
      <ul>
        <li>Account, holdings and rules: for as long as your account is open.</li>
        <li>Alert and rule execution history: 2 years.</li>
        <li>Usage logs: 1 year.</li>
        <li>
          After you close your account we delete or anonymise your data within 30 days, except where the law
          requires us to keep it longer.
        </li>
      </ul>
    ),
  },
  {
    id: 'your-rights',
    title: 'Your rights',
    body: (
      <>
        <p>
          In Settings, under Your data, you can download a copy of your data (one JSON file) and delete your
          account yourself at any time: your account and all its data are deleted at once, every device is
          signed out and we send a last email to confirm it.
        </p>
        <p>
          You can also ask to access, correct or delete your personal data, withdraw consent (which closes
          your account), and nominate someone to exercise these rights on your behalf. Write to {mail}; we
          reply within 24 hours and act on requests within 30 days. If you are not satisfied, you may complain
          to the Data Protection Board of India.
        </p>
      </>
    ),
  },
  {
    id: 'cookies',
    title: 'Cookies and local storage',
    body: (
      <p>
        Portfolio Guard keeps your sign-in tokens in your browser&apos;s local storage so you stay signed in
        across tabs. We do not use advertising or cross-site tracking cookies. When Google Sign-In is shown,
        Google may set its own cookies under its policy. Signing out removes our tokens from your browser.
      </p>
    ),
  },
  {
    id: 'third-parties',
    title: 'Third-party services',
    body: (
      <p>
        We rely on Google for sign-in, on an email delivery provider to send alerts, and on market data
        providers for prices. Each handles data under its own privacy policy. Links to other websites are
        governed by those websites&apos; policies, not ours.
      </p>
    ),
  },
  {
    id: 'minors',
    title: 'Minors under 18',
    body: (
      <p>
        Portfolio Guard is not meant for anyone under 18, and our{' '}
        <Link to="/terms">Terms and Conditions</Link> require users to be 18 or older. We do not knowingly
        collect data from minors; if you believe a minor has signed up, write to {mail} and we will delete the
        account.
      </p>
    ),
  },
  {
    id: 'international-transfers',
    title: 'International transfers',
    body: (
      <p>
        Some of our providers (for example Google and email delivery services) may process data outside India.
        We transfer data only to countries the Government of India has not restricted, and require providers
        to protect it to the standard described here.
      </p>
    ),
  },
  {
    id: 'changes',
    title: 'Changes to this policy',
    body: (
      <p>
        We will update this policy when our practices change, revise the date at the top, and notify you by
        email or in the app before significant changes take effect.
      </p>
    ),
  },
  {
    id: 'contact',
    title: 'Contact us',
    body: (
      <p>
        For any privacy question or request, write to {mail} or use our{' '}
        <Link to="/contact">contact page</Link>. We reply within 24 hours.
      </p>
    ),
  },
];
