import { Link } from 'react-router';
import { LegalDocument } from '../../components/LegalDocument.tsx';
import { TERMS_SECTIONS } from './termsSections.tsx';

/** Terms and Conditions (docs/pages.md; last updated July 2025). */
export default function TermsPage() {
  return (
    <LegalDocument
      title="Terms and Conditions"
      lastUpdated="July 2025"
      intro={
        <>
          <p>
            These terms govern your use of Portfolio Guard, a web application that helps individual investors
            in India track their NSE and BSE holdings, set exit rules and receive alerts. Please read them
            carefully. By signing in or using the service you agree to these terms and to our{' '}
            <Link to="/privacy">Privacy Policy</Link>.
          </p>
          <p className="legal-callout">
            In short: you must be 18 or older and sign in with a Google account. Portfolio Guard sends alerts;
            it does not give investment advice and does not place orders. Alerts are sent on a best-effort
            basis, so always keep an eye on your own investments.
          </p>
        </>
      }
      sections={TERMS_SECTIONS}
    />
  );
}
