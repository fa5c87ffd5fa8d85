import { Suspense, type ReactNode } from 'react';
import { Outlet } from 'react-router';
import { PageLoading } from '../components/Spinner.tsx';
import { SiteFooter } from './SiteFooter.tsx';
import { SkipLink } from './SkipLink.tsx';

/** The frame every page sits in: skip link, the given header, the page (loading lazily), the footer. */
export function SiteFrame({ header }: { header: ReactNode }) {
  return (
    <>
      <SkipLink />
      {header}
      <main id="main" tabIndex={-1} className="site-main">
        <Suspense fallback={<PageLoading />}>
          <Outlet />
        </Suspense>
      </main>
      <SiteFooter />
    </>
  );
}
