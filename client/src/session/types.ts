import type { ApiUser } from '@app/common/api/auth';

/** The signed-in user as the client keeps it (docs/auth.md). */
export type SessionUser = Pick<ApiUser, 'id' | 'name' | 'email' | 'subscription_tier'> & {
  picture?: string | null;
};

/** What `POST /api/auth/google` and `POST /api/auth/login` answer in `data`. */
export interface SignInResult {
  token: string;
  refresh_token: string;
  user: SessionUser;
}

/** Where the session stands: checking a stored token, signed in, or signed out. */
export type SessionState =
  | { status: 'loading'; checkError?: string }
  | { status: 'authenticated'; user: SessionUser }
  | {
      status: 'anonymous';
      /** Another tab of this browser signed out (cleared the tokens): the login page says so. */
      signedOutElsewhere?: boolean;
      /** The user just deleted their account: the landing page says so. */
      accountDeleted?: boolean;
    };
