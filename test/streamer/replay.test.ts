import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect } from 'chai';
import type { TickBatch } from '@app/common/market/tick-batch';
import { createMemoryBus } from '../../streamer/src/bus/memory.ts';
import { createProvider } from '../../streamer/src/providers/index.ts';
import {
  createReplayProvider,
  parseReplayCsv,
  ReplayFileError,
} from '../../streamer/src/providers/replay.ts';
import { createStreamer } from '../../streamer/src/streamer.ts';
import { captureLog, sleep, waitFor } from './helpers.ts';

const CSV = `time,symbol,exchange,price,prev_close
2026-07-13T09:15:00+05:30,RELIANCE,NSE,1480.50,1470
2026-07-13T09:15:00+05:30,TCS,BSE,3250,
2026-07-13T09:16:00+05:30,RELIANCE,NSE,1490.00,1470

2026-07-13T09:17:00+05:30,INFY,NSE,1580.25,1600
`;

describe('streamer: replay provider', () => {
  it('groups rows sharing a time into batches, in file order', () => {
    const batches = parseReplayCsv(CSV);
    expect(batches.map((b) => b.rows.length)).to.deep.equal([2, 1, 1]);
    expect(batches[0]!.asOf).to.equal(Date.parse('2026-07-13T09:15:00+05:30'));
    expect(batches[0]!.rows[1]).to.deep.equal({
      symbol: 'TCS',
      exchange: 'BSE',
      price: 3250,
      prevClose: null,
    });
  });

  it('reads files without a header, with CRLF line ends and bare time labels', () => {
    const batches = parseReplayCsv('t1,sbin,nse,960\r\nt1,ITC,NSE,415,410\r\nt2,SBIN,NSE,961\r\n');
    expect(batches.map((b) => b.time)).to.deep.equal(['t1', 't2']);
    expect(batches[0]!.asOf).to.equal(null);
    expect(batches[0]!.rows[0]!.symbol).to.equal('SBIN');
  });

  it('names every bad line', () => {
    const bad = 'time,symbol,exchange,price\nt1,A,NYSE,10\nt1,B,NSE,-3\nt2,C,NSE,abc,1\nt3,D,NSE\n';
    try {
      parseReplayCsv(bad, 'test.csv');
      expect.fail('should throw');
    } catch (err) {
      expect(err).to.be.instanceOf(ReplayFileError);
      const message = (err as Error).message;
      expect(message).to.include('test.csv');
      for (const line of ['line 2', 'line 3', 'line 4', 'line 5']) expect(message).to.include(line);
    }
    expect(() => parseReplayCsv('time,symbol,exchange,price\n')).to.throw(ReplayFileError, /no rows/);
  });

  it('plays exactly the file’s rows per call, whatever the watch set, then nothing', async () => {
    const provider = createReplayProvider({ batches: parseReplayCsv(CSV), now: () => 42 });
    const first = await provider.getQuotes([]);
    expect(first).to.deep.equal([
      {
        symbol: 'RELIANCE',
        exchange: 'NSE',
        ltp: 1480.5,
        prevClose: 1470,
        change: 10.5,
        changePercent: 0.71,
        asOf: Date.parse('2026-07-13T09:15:00+05:30'),
        delayMinutes: 0,
      },
      {
        symbol: 'TCS',
        exchange: 'BSE',
        ltp: 3250,
        prevClose: null,
        change: null,
        changePercent: null,
        asOf: Date.parse('2026-07-13T09:15:00+05:30'),
        delayMinutes: 0,
      },
    ]);
    expect((await provider.getQuotes([{ symbol: 'SBIN', exchange: 'NSE' }])).map((q) => q.ltp)).to.deep.equal(
      [1490],
    );
    expect(await provider.getQuotes([])).to.have.length(1);
    expect(await provider.getQuotes([])).to.deep.equal([]);
    expect(await provider.getQuotes([])).to.deep.equal([]);
  });

  it('starts over with loop', async () => {
    const provider = createReplayProvider({ batches: parseReplayCsv(CSV), loop: true });
    const prices: number[] = [];
    for (let i = 0; i < 7; i++) prices.push((await provider.getQuotes([]))[0]!.ltp);
    expect(prices).to.deep.equal([1480.5, 1490, 1580.25, 1480.5, 1490, 1580.25, 1480.5]);
  });

  it('is built from REPLAY_FILE by the factory, and a missing file is a ReplayFileError', () => {
    const dir = mkdtempSync(join(tmpdir(), 'replay-'));
    const file = join(dir, 'ticks.csv');
    writeFileSync(file, CSV);
    const provider = createProvider({ QUOTE_PROVIDER: 'replay', REPLAY_FILE: file, REPLAY_LOOP: false });
    expect(provider.name).to.equal('replay');
    expect(() =>
      createProvider({ QUOTE_PROVIDER: 'replay', REPLAY_FILE: join(dir, 'nope.csv'), REPLAY_LOOP: false }),
    ).to.throw(ReplayFileError, /nope\.csv/);
  });

  function replayStreamer(intervalMs: number) {
    const bus = createMemoryBus();
    const received: TickBatch[] = [];
    bus.onBatch((batch) => void received.push(batch));
    const streamer = createStreamer({
      bus,
      provider: createReplayProvider({ batches: parseReplayCsv(CSV) }),
      intervalMs,
      log: captureLog().log,
    });
    return { bus, received, streamer };
  }

  it('through the streamer: the first batch right after start, not one interval later', async () => {
    const { bus, received, streamer } = replayStreamer(5000);
    streamer.start();
    await waitFor('the first batch', () => received.length === 1, 2500);
    await streamer.stop();
    await bus.close();
  });

  it('through the streamer: one batch per interval, then it stops publishing', async () => {
    const { bus, received, streamer } = replayStreamer(100);
    streamer.start();
    await waitFor('three batches', () => received.length === 3);
    await sleep(350);
    await streamer.stop();
    expect(received).to.have.length(3);
    expect(received.map((batch) => batch.quotes.map((q) => q.symbol))).to.deep.equal([
      ['RELIANCE', 'TCS'],
      ['RELIANCE'],
      ['INFY'],
    ]);
    expect(received.every((batch) => batch.source === 'replay')).to.equal(true);
    await bus.close();
  });
});
