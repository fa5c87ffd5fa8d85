/**
 * A broker's instrument master (streamer/src/streams/instrument-master.ts): read again each
 * morning before the open; a failed download keeps the list held and is retried with back-off.
 */
import { expect } from 'chai';
import { createInstrumentMaster, msUntilIstMinute } from '../../../streamer/src/streams/instrument-master.ts';
import { angelTokensFromScripMaster } from '../../../streamer/src/streams/angelone/scrip-master.ts';
import {
  angelEquity,
  startFakeScripMasters,
  type FakeScripMasters,
} from '../../helpers/fake-brokers/scrip-masters.ts';
import { captureLog, waitFor } from '../helpers.ts';

const EIGHT_IST = 8 * 60;

describe('instrument master', () => {
  let masters: FakeScripMasters;
  before(async () => (masters = await startFakeScripMasters()));
  after(() => masters.close());

  it('is read again at the next 08:00 in India, whatever the hour of the server', () => {
    // 07:59 IST is 02:29 UTC.
    expect(msUntilIstMinute(Date.UTC(2026, 10, 27, 2, 29), EIGHT_IST)).to.equal(60_000);
    // At 08:00 IST sharp the next read is tomorrow's.
    expect(msUntilIstMinute(Date.UTC(2026, 10, 27, 2, 30), EIGHT_IST)).to.equal(24 * 3600_000);
    // 23:00 IST (17:30 UTC) → nine hours later.
    expect(msUntilIstMinute(Date.UTC(2026, 10, 27, 17, 30), EIGHT_IST)).to.equal(9 * 3600_000);
  });

  it('keeps the list it holds while downloads fail, retries, and takes the next list', async () => {
    masters.angel = [angelEquity('NSE', 'SBIN', '3045')];
    const log = captureLog();
    const events: string[] = [];
    const master = createInstrumentMaster({
      name: 'angelone',
      url: masters.angelUrl,
      parse: angelTokensFromScripMaster,
      log: log.log,
      timing: { initialBackoffMs: 40, maxBackoffMs: 80, nextReloadMs: () => 100 },
    });
    expect(master.get('NSE:SBIN')).to.equal(undefined);
    master.start({ onLoaded: () => events.push('loaded'), onFailed: (reason) => events.push(reason) });
    try {
      await waitFor('the first list', () => master.loaded);
      expect(master.get('NSE:SBIN')).to.equal('3045');

      masters.failNext = 3;
      masters.angel = [angelEquity('NSE', 'INFY', '1594')];
      const reads = masters.reads.angel;
      await waitFor('a failed reload', () => events.includes('the angelone instrument master answered 500'));
      expect(master.get('NSE:SBIN')).to.equal('3045');
      await waitFor('the next list', () => master.get('NSE:INFY') === '1594');
      expect(masters.reads.angel - reads).to.be.at.least(4);
      expect(events.filter((e) => e.includes('answered 500'))).to.have.length(3);
      expect(master.get('NSE:SBIN')).to.equal(undefined);
    } finally {
      master.stop();
    }
  });

  it('counts a file without a single equity as a failed download', async () => {
    masters.angel = [];
    const failures: string[] = [];
    const master = createInstrumentMaster({
      name: 'angelone',
      url: masters.angelUrl,
      parse: angelTokensFromScripMaster,
      log: captureLog().log,
      timing: { initialBackoffMs: 1000, maxBackoffMs: 1000 },
    });
    master.start({ onLoaded: () => failures.push('loaded'), onFailed: (reason) => failures.push(reason) });
    try {
      await waitFor('a failure', () => failures[0]);
      expect(failures).to.deep.equal(['the angelone instrument master lists no NSE or BSE equity']);
      expect(master.loaded).to.equal(false);
    } finally {
      master.stop();
    }
  });
});
