import { lazy } from 'react';
import { Navigate, Route, Routes } from 'react-router';
import { FullScreenLoading, FullScreenMessage } from './components/FullScreenStatus.tsx';
import { PublicLayout } from './layout/PublicLayout.tsx';
import { RouteEffects } from './layout/RouteEffects.tsx';
import LandingPage from './routes/landing/LandingPage.tsx';
import { useSession } from './session/context.ts';
import { RequireAuth } from './session/RequireAuth.tsx';

// Everything but the landing page loads on demand, so the first visit downloads little.
const LoginPage = lazy(() => import('./routes/login/LoginPage.tsx'));
const TermsPage = lazy(() => import('./routes/terms/TermsPage.tsx'));
const PrivacyPage = lazy(() => import('./routes/privacy/PrivacyPage.tsx'));
const ContactPage = lazy(() => import('./routes/contact/ContactPage.tsx'));
const KnowMorePage = lazy(() => import('./routes/know-more/KnowMorePage.tsx'));
const VerifyEndpointPage = lazy(() => import('./routes/verify-endpoint/VerifyEndpointPage.tsx'));
const UnsubscribePage = lazy(() => import('./routes/unsubscribe/UnsubscribePage.tsx'));
const AppLayout = lazy(() => import('./layout/AppLayout.tsx'));
const DashboardPage = lazy(() => import('./routes/dashboard/DashboardPage.tsx'));
const HoldingsPage = lazy(() => import('./routes/holdings/HoldingsPage.tsx'));
const HistoryPage = lazy(() => import('./routes/history/HistoryPage.tsx'));
const SettingsPage = lazy(() => import('./routes/settings/SettingsPage.tsx'));

/** The route table (docs/pages.md), behind the session check. */
export function App() {
  const { state, retryCheck, continueSignedOut } = useSession();

  if (state.status === 'loading' && state.checkError) {
    return (
      <FullScreenMessage title="We couldn't check your sign-in">
        <p>{state.checkError}</p>
        <p>
          You are still signed in on this device. Check your connection and try again, or continue signed out.
        </p>
        <div className="button-row">
          <button type="button" className="btn btn-primary" onClick={retryCheck}>
            Try again
          </button>
          <button type="button" className="btn btn-secondary" onClick={continueSignedOut}>
            Continue signed out
          </button>
        </div>
      </FullScreenMessage>
    );
  }
  if (state.status === 'loading') return <FullScreenLoading />;

  return (
    <>
      <RouteEffects />
      <Routes>
        <Route element={<PublicLayout />}>
          <Route index element={<LandingPage />} />
          <Route path="login" element={<LoginPage />} />
          <Route path="terms" element={<TermsPage />} />
          <Route path="privacy" element={<PrivacyPage />} />
          <Route path="contact" element={<ContactPage />} />
          <Route path="know-more" element={<KnowMorePage />} />
          <Route path="verify-endpoint" element={<VerifyEndpointPage />} />
          <Route path="unsubscribe" element={<UnsubscribePage />} />
        </Route>
        <Route
          element={
            <RequireAuth>
              <AppLayout />
            </RequireAuth>
          }
        >
          <Route path="dashboard" element={<DashboardPage />} />
          <Route path="holdings" element={<HoldingsPage />} />
          <Route path="history" element={<HistoryPage />} />
          <Route path="settings" element={<SettingsPage />} />
        </Route>
        <Route path="*" element={<Navigate to="/" replace />} />
      </Routes>
    </>
  );
}
