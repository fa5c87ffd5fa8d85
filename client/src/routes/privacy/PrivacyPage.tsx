import { LegalDocument } from '../../components/LegalDocument.tsx';
import { PRIVACY_SECTIONS } from './privacySections.tsx';

/** Privacy Policy: twelve sections (docs/pages.md). */
export default function PrivacyPage() {
  return (
    <LegalDocument
      title="Privacy Policy"
      lastUpdated="July 2025"
      intro={
        <>
          <p>
            Portfolio Guard helps you track your NSE and BSE holdings and alerts you when your exit rules
            trigger. To do that we handle some personal data and details of your investments. This policy
            explains what we collect, why, who we share it with, how long we keep it and the choices you have,
            in line with India&apos;s Digital Personal Data Protection Act, 2023 and the Information
            Technology Act, 2000.
          </p>
          <p className="legal-callout">
            In short: we use your data only to run the service. We do not sell it, we do not show ads, and you
            can ask us to delete it at any time.
          </p>
        </>
      }
      sections={PRIVACY_SECTIONS}
    />
  );
}
