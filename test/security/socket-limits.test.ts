/**
 * Sockets per account: an instance holds at most MAX_SOCKETS_PER_USER (50) for one user, also
 * when the handshakes arrive all at once; the next is refused with a sentence saying why (not
 * `unauthorized`, which would make the client renew its session), the 50 stay connected, other
 * users are unaffected, and a closed socket frees its place.
 */
import { MAX_SOCKETS_PER_USER, SOCKET_ERRORS } from '@app/common/realtime/events';
import { expect } from 'chai';
import { appSuite, type TestApp } from '../helpers/app.ts';
import { connected, connectSocket, type TestSocket } from '../helpers/sockets.ts';
import { signIn } from '../helpers/users.ts';

/** The handshake's outcome: 'connected', or the server's refusal. */
const outcome = (socket: TestSocket) =>
  connected(socket).then(
    () => 'connected',
    (err: Error) => err.message,
  );

describe('security: sockets per account', function () {
  this.timeout(60_000);
  const { app } = appSuite({ embeddedStreamer: false });
  const sockets: TestSocket[] = [];
  afterEach(() => {
    for (const s of sockets.splice(0)) s.close();
  });

  const open = (token: string) => {
    const socket = connectSocket(app.url, token);
    sockets.push(socket);
    return socket;
  };

  it('accepts 50 sockets of one user arriving at once, refuses the rest with the reason, and lets one in when one closes', async () => {
    expect(MAX_SOCKETS_PER_USER).to.equal(50);
    const user = await signIn(app);
    const attempts = Array.from({ length: MAX_SOCKETS_PER_USER + 10 }, () => open(user.token));
    const outcomes = await Promise.all(attempts.map(outcome));
    const tally = (o: string) => outcomes.filter((x) => x === o).length;
    expect({ connected: tally('connected'), refused: tally(SOCKET_ERRORS.tooManyConnections) }).to.deep.equal(
      {
        connected: MAX_SOCKETS_PER_USER,
        refused: 10,
      },
    );
    expect(SOCKET_ERRORS.tooManyConnections).to.equal(
      'Too many open connections for this account (50 at most). Close some tabs and try again.',
    );

    const open50 = attempts.filter((s) => s.connected);
    expect(await outcome(open(user.token)), 'the 51st').to.equal(SOCKET_ERRORS.tooManyConnections);
    // The refusals closed nothing.
    expect(open50.filter((s) => s.connected)).to.have.length(MAX_SOCKETS_PER_USER);

    // Another user, and another session of the same user, are counted on their own / with it.
    const other = await signIn(app);
    expect(await outcome(open(other.token))).to.equal('connected');
    const sameUserElsewhere = await signIn(app, { email: user.email });
    expect(await outcome(open(sameUserElsewhere.token))).to.equal(SOCKET_ERRORS.tooManyConnections);

    open50[0]!.close();
    await waitUntil(() => countOf(app, user.id) < MAX_SOCKETS_PER_USER);
    expect(await outcome(open(user.token)), 'after one closed').to.equal('connected');
    expect(await outcome(open(user.token)), 'full again').to.equal(SOCKET_ERRORS.tooManyConnections);
  });
});

/** The user's sockets on this instance, as the server counts them. */
const countOf = (app: TestApp, userId: string) =>
  [...app.runtime.io.of('/').sockets.values()].filter((s) => s.data.userId === userId).length;

async function waitUntil(check: () => boolean, timeoutMs = 5_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > deadline) throw new Error('timed out waiting for the socket to close');
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}
