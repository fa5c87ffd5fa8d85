import { OAuth2Client } from 'google-auth-library';
import { Unauthorized } from '../http/errors.ts';

export interface GoogleIdentity {
  sub: string;
  email: string;
  name: string;
  picture?: string;
}

/** Verifies Google ID tokens: signature against Google's certificates, audience, verified email. */
export function createGoogleVerifier(clientId: string, certsUrl?: string) {
  const client = new OAuth2Client({
    clientId,
    ...(certsUrl ? { endpoints: { oauth2FederatedSignonPemCertsUrl: certsUrl } } : {}),
  });
  return async (credential: string): Promise<GoogleIdentity> => {
    let payload;
    try {
      const ticket = await client.verifyIdToken({ idToken: credential, audience: clientId });
      payload = ticket.getPayload();
    } catch {
      throw new Unauthorized('Google sign-in failed: the credential could not be verified');
    }
    if (!payload?.sub || !payload.email) throw new Unauthorized('Google sign-in failed: no account identity');
    if (payload.email_verified !== true) {
      throw new Unauthorized('Google sign-in failed: the email address is not verified with Google');
    }
    return {
      sub: payload.sub,
      email: payload.email.toLowerCase(),
      name: payload.name ?? payload.email.split('@')[0]!,
      picture: payload.picture,
    };
  };
}
