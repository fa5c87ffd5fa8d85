/**
 * The streaming feed's credentials as a server publishes them on the market bus for the streamer
 * (docs/live-prices.md#streaming-feeds): the token of the `FEED_USER_EMAIL` user's connected
 * account at the broker `QUOTE_PROVIDER` names, so the streamer never reads the database.
 */
import { z } from 'zod';

const secret = z.string().min(1).max(4096);

export const feedCredentialsSchema = z.object({
  /** The broker whose session this is (`kite`, `upstox`, `angelone`, `dhan`). */
  provider: z.string().min(1).max(40),
  /** Kite/Upstox access token, Angel One's feed token, Dhan's token. */
  accessToken: secret,
  /** Angel One's client code, Dhan's client id. */
  clientId: secret.optional(),
  /** Angel One's JWT. */
  authToken: secret.optional(),
  /** When the broker ends the session (epoch ms): nothing keeps it past then. */
  expiresAt: z.number().int().positive(),
});

export type FeedCredentials = z.infer<typeof feedCredentialsSchema>;
