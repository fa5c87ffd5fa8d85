/**
 * Tokens on the Socket.IO handshake: every forged or wrong access token is refused with
 * `unauthorized` (the REST equivalents are in test/server/auth/access-token.test.ts), a token
 * made stale by logout-all too, and a socket is closed when its token expires.
 */
import { SOCKET_ERRORS } from '@app/common/realtime/events';
import { expect } from 'chai';
import { io } from 'socket.io-client';
import { appSuite } from '../helpers/app.ts';
import { apiClient } from '../helpers/http.ts';
import { connected, connectSocket, handshakeOutcome, type TestSocket } from '../helpers/sockets.ts';
import { signIn, type SignedInUser } from '../helpers/users.ts';
import { signAsServer, wrongTokens } from './support/tokens.ts';

describe('security: access tokens on the socket handshake', function () {
  this.timeout(30_000);
  const { app } = appSuite({ embeddedStreamer: false });
  let user: SignedInUser;
  before(async () => {
    user = await signIn(app);
  });

  it('accepts the valid token and one made with the server secret and the right claims (controls)', async () => {
    expect(await handshakeOutcome(connectSocket(app.url, user.token))).to.equal('connected');
    expect(await handshakeOutcome(connectSocket(app.url, signAsServer(user)))).to.equal('connected');
  });

  it('refuses every forged or wrong token with unauthorized', async () => {
    const outcomes: Record<string, string> = {};
    for (const [label, token] of Object.entries(wrongTokens(user))) {
      outcomes[label] = await handshakeOutcome(connectSocket(app.url, token));
    }
    const refusedAll = Object.fromEntries(Object.keys(outcomes).map((k) => [k, SOCKET_ERRORS.unauthorized]));
    expect(outcomes).to.deep.equal(refusedAll);
  });

  it('refuses a missing token and tokens that are not strings', async () => {
    const odd = (auth: Record<string, unknown>) =>
      io(app.url, { auth, transports: ['websocket'], reconnection: false, forceNew: true }) as TestSocket;
    expect(await handshakeOutcome(connectSocket(app.url, undefined))).to.equal('unauthorized');
    for (const token of [12345, { sub: user.id }, [user.token], null, true]) {
      expect(await handshakeOutcome(odd({ token })), JSON.stringify(token)).to.equal('unauthorized');
    }
    // A bearer header is not how sockets authenticate.
    expect(
      await handshakeOutcome(connectSocket(app.url, undefined, { authorization: `Bearer ${user.token}` })),
    ).to.equal('unauthorized');
  });

  it('refuses an access token issued before logout-all', async () => {
    const victim = await signIn(app);
    expect(await handshakeOutcome(connectSocket(app.url, victim.token))).to.equal('connected');
    expect((await apiClient(app.url).post('/api/auth/logout-all', {}, victim.token)).status).to.equal(200);
    expect(await handshakeOutcome(connectSocket(app.url, victim.token))).to.equal('unauthorized');
    const again = await signIn(app, { email: victim.email });
    expect(await handshakeOutcome(connectSocket(app.url, again.token))).to.equal('connected');
  });

  it('closes a connected socket when its token expires', async () => {
    const exp = Math.floor(Date.now() / 1000) + 2;
    const socket = connectSocket(app.url, signAsServer(user, { exp }));
    await connected(socket);
    const reason = await new Promise<string>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error('still connected 10 s after expiry')), 12_000);
      socket.once('disconnect', (r) => {
        clearTimeout(timer);
        resolve(r);
      });
    });
    socket.close();
    expect(reason).to.equal('io server disconnect');
    expect(Date.now() / 1000, 'not before the expiry').to.be.at.least(exp - 1);
  });
});
