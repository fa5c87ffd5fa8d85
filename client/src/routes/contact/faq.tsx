import type { ReactNode } from 'react';
import { Link } from 'react-router';

interface FaqTopic {
  title: string;
  items: { question: string; answer: ReactNode }[];
}

/** FAQ topics of the Contact page (docs/pages.md): getting started, file formats, alerts, data security. */
export const FAQ_TOPICS: FaqTopic[] = [
  {
    title: 'Getting started',
    items: [
      {
        question: 'How do I create an account?',
        answer: (
          <p>
            Click Get Started and sign in with your Google account. Your Portfolio Guard account is created
            the first time you sign in; there is no separate registration or password. You must be 18 or
            older.
          </p>
        ),
      },
      {
        question: 'What should I do first?',
        answer: (
          <p>
            Add your holdings (a CSV upload from your broker is quickest), then use Price Guard to add a
            protective rule to every holding in one step. You can fine-tune each rule afterwards. The{' '}
            <Link to="/know-more">How it Works</Link> page walks through each step.
          </p>
        ),
      },
      {
        question: 'Which exchanges and instruments are supported?',
        answer: <p>Equity shares listed on NSE and BSE. Prices are in rupees and times in IST.</p>,
      },
    ],
  },
  {
    title: 'Supported file formats',
    items: [
      {
        question: 'Which files can I upload?',
        answer: (
          <>
            <p>
              CSV files, including the holdings exports of Zerodha, Groww, Upstox, Dhan, ICICI Direct and
              Angel One, and Excel (XLSX) files. You can upload up to 1,000 holdings at once.
            </p>
            <p>Holdings you add by hand are kept separately and can be edited at any time.</p>
          </>
        ),
      },
      {
        question: 'What columns does my CSV need?',
        answer: (
          <p>
            A symbol column (Symbol, Instrument or Scrip), a quantity column (Quantity or Qty) and a price
            column (Buy Price, Average Price, Avg Price or Avg. cost). Exchange is optional and defaults to
            NSE. Column names are not case-sensitive, and a sample template is available in the upload dialog.
          </p>
        ),
      },
    ],
  },
  {
    title: 'Alerts and notifications',
    items: [
      {
        question: 'How quickly will I be alerted?',
        answer: (
          <p>
            Prices are checked every minute while NSE and BSE are open. When a price crosses one of your
            rules, the alert is sent straight away by email. WhatsApp alerts on the Advanced plan are coming
            soon.
          </p>
        ),
      },
      {
        question: 'Why did I not receive an alert email?',
        answer: (
          <p>
            Check that the email address is verified in Settings and look in your spam folder. On the Basic
            plan the first 5 triggers each month are emailed; every trigger, emailed or not, is listed on the
            History page.
          </p>
        ),
      },
      {
        question: 'Will Portfolio Guard sell my shares?',
        answer: (
          <p>
            No. Alerts only tell you that a rule was met; you decide what to do in your broker&apos;s app.
            Automatic sell orders are disabled until broker integration is ready.
          </p>
        ),
      },
    ],
  },
  {
    title: 'Data security',
    items: [
      {
        question: 'Do you need my broker login or password?',
        answer: (
          <p>
            Never. You bring holdings in with a file or by hand. We will never ask for your broker password,
            OTP or PIN; treat anyone who does as a scammer.
          </p>
        ),
      },
      {
        question: 'How is my data protected?',
        answer: (
          <p>
            Everything travels over HTTPS, sign-in tokens are short-lived and revocable, and we never sell or
            share your data for advertising. Read the details in our <Link to="/privacy">Privacy Policy</Link>
            .
          </p>
        ),
      },
      {
        question: 'Can I delete my data?',
        answer: (
          <p>
            Yes. In <Link to="/settings">Settings</Link>, under Your data, Delete my account deletes your
            account and all its data at once; Download my data gives you a copy first. You can also delete
            single holdings at any time.
          </p>
        ),
      },
    ],
  },
];
