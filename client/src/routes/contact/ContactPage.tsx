import { LightbulbIcon, MailIcon, ShieldIcon } from '../../components/icons.tsx';
import { useDocumentTitle } from '../../layout/useDocumentTitle.ts';
import { useScrollToHash } from '../../layout/useScrollToHash.ts';
import { SUPPORT_EMAIL, SUPPORT_RESPONSE_TIME } from '../../site.ts';
import { FAQ_TOPICS } from './faq.tsx';

function mailto(subject: string): string {
  return `mailto:${SUPPORT_EMAIL}?subject=${encodeURIComponent(subject)}`;
}

const CHANNELS = [
  {
    id: 'support',
    icon: <MailIcon />,
    title: 'Email support',
    text: 'Trouble with an upload, an alert or your account? Tell us what happened and, if you can, when (IST).',
    href: mailto('Support request'),
    cta: SUPPORT_EMAIL,
  },
  {
    id: 'inquiries',
    icon: <ShieldIcon />,
    title: 'General inquiries',
    text: 'Questions about plans, partnerships, press or how we handle your data.',
    href: mailto('General inquiry'),
    cta: 'Send an inquiry',
  },
  {
    id: 'feature-requests',
    icon: <LightbulbIcon />,
    title: 'Feature requests',
    text: 'Missing a broker export, a rule type or an alert channel? We read every suggestion.',
    href: mailto('Feature request'),
    cta: 'Suggest a feature',
  },
];

/** Contact and FAQ (docs/pages.md). */
export default function ContactPage() {
  useDocumentTitle('Contact Us');
  useScrollToHash();
  return (
    <div className="container page">
      <header className="page-header page-header-center">
        <h1>Contact us</h1>
        <p>
          Questions about your portfolio, alerts or account? Write to us and a real person will respond{' '}
          {SUPPORT_RESPONSE_TIME}.
        </p>
      </header>

      <div className="feature-grid">
        {CHANNELS.map((channel) => (
          <section key={channel.id} className="card feature-card" aria-labelledby={`${channel.id}-title`}>
            <div className="feature-icon">{channel.icon}</div>
            <h2 id={`${channel.id}-title`} className="card-title">
              {channel.title}
            </h2>
            <p>{channel.text}</p>
            <a className="card-link" href={channel.href}>
              {channel.cta}
            </a>
          </section>
        ))}
      </div>
      <p className="response-note">
        We respond to every email {SUPPORT_RESPONSE_TIME}. Please never send us passwords, OTPs or your full
        PAN.
      </p>

      <section className="about card" aria-labelledby="about-title">
        <h2 id="about-title">About Portfolio Guard</h2>
        <p>
          Most Indian investors hold stocks with more than one broker, and nobody watches a screen all day.
          Portfolio Guard brings your NSE and BSE holdings from every demat account into one view, watches
          prices every minute and alerts you when a stop loss, trailing stop or profit target you set is
          reached.
        </p>
        <p>
          We are a small team of engineers and long-term investors. We do not give tips, we do not place
          orders, and we do not sell your data: our only job is to make sure you never miss a move you planned
          for.
        </p>
      </section>

      <section id="faq" className="faq" aria-labelledby="faq-title">
        <h2 id="faq-title">Frequently asked questions</h2>
        {FAQ_TOPICS.map((topic) => (
          <div key={topic.title} className="faq-topic">
            <h3>{topic.title}</h3>
            {topic.items.map((item) => (
              <details key={item.question} className="faq-item">
                <summary>{item.question}</summary>
                <div className="faq-answer">{item.answer}</div>
              </details>
            ))}
          </div>
        ))}
      </section>
    </div>
  );
}
