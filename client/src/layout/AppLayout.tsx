import { Suspense } from 'react';
import { Outlet } from 'react-router';
import { PageLoading } from '../components/Spinner.tsx';
import { AppHeader } from './AppHeader.tsx';
import { SiteFooter } from './SiteFooter.tsx';
import { SkipLink } from './SkipLink.tsx';

/** Frame of the signed-in pages. */
export default function AppLayout() {
  return (
    <>
      <SkipLink />
      <AppHeader />
      <main id="main" tabIndex={-1} className="site-main">
        <Suspense fallback={<PageLoading />}>
          <Outlet />
        </Suspense>
      </main>
      <SiteFooter />
    </>
  );
}
