/**
 * The sockets carry only what changed (issue #32 item 6): a streaming feed repeats a price on
 * every trade, and a quote the screen already shows is not sent again until its time is worth
 * refreshing (UNCHANGED_RESEND_MS).
 */
import type { QuotesMessage } from '@app/common/realtime/events';
import { expect } from 'chai';
import { UNCHANGED_RESEND_MS } from '../../../server/src/realtime/quote-fanout.ts';
import { appSuite } from '../../helpers/app.ts';
import { connected, connectSocket, type TestSocket } from '../../helpers/sockets.ts';
import { signIn } from '../../helpers/users.ts';
import { waitFor } from '../../helpers/wait.ts';
import { addHolding, publishPrices, tickBatch } from '../rules/support.ts';

describe('quotes on the sockets: only what changed', function () {
  this.timeout(60_000);
  const { app } = appSuite({ embeddedStreamer: false });
  let socket: TestSocket | undefined;
  afterEach(() => socket?.close());

  it('sends a repeated price once, the changed ones each time, and the repeated one again after a while', async () => {
    const user = await signIn(app);
    await addHolding(app, user, 'FANSAME');
    await addHolding(app, user, 'FANMOVE');
    socket = connectSocket(app.url, user.token);
    const got: QuotesMessage[] = [];
    socket.on('quotes', (m) => got.push(m));
    await connected(socket);
    const shown = (m: QuotesMessage) => m.quotes.map((q) => `${q.symbol}@${q.ltp}`).sort();
    const arrived = (what: string) =>
      waitFor(`${what} on the socket`, () => got.find((m) => shown(m).includes(what)));

    // The socket's user is loaded a moment after it connects: publish until the first batch lands.
    await waitFor('the first batch on the socket', async () => {
      await publishPrices(app, { FANSAME: 100, FANMOVE: 200 });
      return got.length > 0 ? true : undefined;
    });
    expect(shown(got.at(-1)!)).to.deep.equal(['FANMOVE@200', 'FANSAME@100']);

    await publishPrices(app, { FANSAME: 100, FANMOVE: 201 });
    expect(shown(await arrived('FANMOVE@201')), 'the repeated price is left out').to.deep.equal([
      'FANMOVE@201',
    ]);

    // A batch with nothing new sends nothing at all.
    const before = got.length;
    await publishPrices(app, { FANSAME: 100, FANMOVE: 201 });
    await publishPrices(app, { FANSAME: 100, FANMOVE: 202 });
    await arrived('FANMOVE@202');
    expect(got.length, 'one message for the two batches').to.equal(before + 1);

    // Later than UNCHANGED_RESEND_MS, the unchanged price goes again with its fresh time.
    const later = tickBatch({ FANSAME: 100 });
    const at = later.at + UNCHANGED_RESEND_MS + 1000;
    await app.runtime.bus.publishBatch({
      ...later,
      id: `${later.id}-later`,
      at,
      quotes: later.quotes.map((q) => ({ ...q, asOf: at })),
    });
    const again = await waitFor('FANSAME again', () =>
      got.find((m) => m.at === at && shown(m).includes('FANSAME@100')),
    );
    expect(again.quotes[0]!.asOf).to.equal(at);
  });
});
