import { useEffect } from 'react';
import { APP_NAME } from '../site.ts';

/** Sets the browser tab title to 'Page · Portfolio Guard' while the page is shown. */
export function useDocumentTitle(pageTitle: string | null): void {
  useEffect(() => {
    document.title = pageTitle ? `${pageTitle} · ${APP_NAME}` : APP_NAME;
  }, [pageTitle]);
}
