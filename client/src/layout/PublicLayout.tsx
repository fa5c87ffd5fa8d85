import { Suspense } from 'react';
import { Outlet } from 'react-router';
import { PageLoading } from '../components/Spinner.tsx';
import { PublicHeader } from './PublicHeader.tsx';
import { SiteFooter } from './SiteFooter.tsx';
import { SkipLink } from './SkipLink.tsx';

/** Frame of the public pages (landing, login, legal, help). */
export function PublicLayout() {
  return (
    <>
      <SkipLink />
      <PublicHeader />
      <main id="main" tabIndex={-1} className="site-main">
        <Suspense fallback={<PageLoading />}>
          <Outlet />
        </Suspense>
      </main>
      <SiteFooter />
    </>
  );
}
