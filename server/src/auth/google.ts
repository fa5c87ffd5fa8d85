import { OAuth2Client } from 'google-auth-library';
import { ServiceUnavailable, Unauthorized } from '../http/errors.ts';

export interface GoogleIdentity {
  sub: string;
  email: string;
  name: string;
  picture?: string;
}

const GOOGLE_ISSUERS = ['accounts.google.com', 'https://accounts.google.com'];

/** Verifies Google ID tokens: signature against Google's certificates, audience, verified email. */
export function createGoogleVerifier(clientId: string, certsUrl?: string) {
  const client = new OAuth2Client({
    clientId,
    ...(certsUrl ? { endpoints: { oauth2FederatedSignonPemCertsUrl: certsUrl } } : {}),
  });
  return async (credential: string): Promise<GoogleIdentity> => {
    // Fetched apart from verification so that Google being unreachable is a 503, not a bad credential.
    const certs = await client.getFederatedSignonCertsAsync().catch((err: unknown) => {
      throw new ServiceUnavailable('Google sign-in is temporarily unavailable. Please try again shortly.', {
        cause: err,
      });
    });
    const ticket = await client
      .verifySignedJwtWithCertsAsync(credential, certs.certs, clientId, GOOGLE_ISSUERS)
      .catch((err: unknown) => {
        throw new Unauthorized('Google sign-in failed: the credential could not be verified', { cause: err });
      });
    const payload = ticket.getPayload();
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
