import type { ReactNode } from 'react';
import { Navigate, useLocation } from 'react-router';
import { FullScreenLoading } from '../components/FullScreenStatus.tsx';
import { useSession } from './context.ts';

/** Lets signed-in users through; sends visitors to `/login?redirect=<path+search>`. */
export function RequireAuth({ children }: { children: ReactNode }) {
  const { state } = useSession();
  const location = useLocation();
  if (state.status === 'loading') return <FullScreenLoading />;
  if (state.status === 'anonymous') {
    const redirect = encodeURIComponent(location.pathname + location.search);
    return <Navigate to={`/login?redirect=${redirect}`} replace />;
  }
  return children;
}
