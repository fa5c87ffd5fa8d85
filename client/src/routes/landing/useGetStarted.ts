import { useCallback, useState } from 'react';
import { useNavigate } from 'react-router';
import { getAccessToken } from '../../api/tokens.ts';
import { useSession } from '../../session/context.ts';
import { verifyStoredSession } from '../../session/verify.ts';

/**
 * The Get Started action (docs/auth.md#in-the-browser): no stored token → /login; otherwise verify it
 * (one refresh on a 401, both new tokens stored) → /dashboard; any failure clears the tokens
 * → /login. `checking` is true meanwhile, so the buttons can read 'Checking...'.
 */
export function useGetStarted() {
  const navigate = useNavigate();
  const { adoptUser, continueSignedOut } = useSession();
  const [checking, setChecking] = useState(false);

  const getStarted = useCallback(async () => {
    if (!getAccessToken()) {
      navigate('/login');
      return;
    }
    setChecking(true);
    try {
      const user = await verifyStoredSession();
      if (user) {
        adoptUser(user);
        navigate('/dashboard');
        return;
      }
    } catch (err) {
      console.warn('Could not verify the stored session', err);
    } finally {
      setChecking(false);
    }
    continueSignedOut();
    navigate('/login');
  }, [adoptUser, continueSignedOut, navigate]);

  return { checking, getStarted };
}
