import { createContext, useContext } from 'react';
import type { SessionState, SessionUser, SignInResult } from './types.ts';

export interface SessionValue {
  state: SessionState;
  /** The signed-in user, or null. */
  user: SessionUser | null;
  /** True while a logout call is running (the Logout button reads 'Signing out...'). */
  signingOut: boolean;
  /** Stores the tokens of a successful sign-in and marks the session authenticated. */
  signIn: (result: SignInResult) => void;
  /** Adopts a user whose stored token was just verified (the landing page's Get Started). */
  adoptUser: (user: SessionUser) => void;
  /** Logs out on the server, then always clears tokens and state and goes to `/`. */
  signOut: () => Promise<void>;
  /** The account was deleted (its sessions ended on the server): forgets the tokens, goes to `/`. */
  accountDeleted: () => void;
  /** Runs the start-up token check again (after it failed for a network reason). */
  retryCheck: () => void;
  /** Gives up on the stored tokens after a failed check and continues signed out. */
  continueSignedOut: () => void;
}

export const SessionContext = createContext<SessionValue | null>(null);

/** The current session; must be used inside `SessionProvider`. */
export function useSession(): SessionValue {
  const value = useContext(SessionContext);
  if (!value) throw new Error('useSession must be used inside <SessionProvider>');
  return value;
}
