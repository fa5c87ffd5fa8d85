import type { ApiBrokerAccount } from '@app/common/api/brokers';
import { expect } from 'chai';
import {
  accountSyncLine,
  connectedAccounts,
  connectedNotice,
  connectionStatus,
  disconnectConsequence,
  disconnectTitle,
  lastSyncedText,
  syncResultText,
} from '../../client/src/brokers/brokerView.ts';

// 16:05 IST on 27/11/2026 is 10:35 UTC.
const SYNCED = '2026-11-27T10:35:00.000Z';
const LATER_THAT_DAY = new Date('2026-11-27T17:00:00.000Z');

function account(overrides: Partial<ApiBrokerAccount> = {}): ApiBrokerAccount {
  return {
    broker_account_id: '1',
    broker_name: 'Zerodha',
    account_label: 'AB1234',
    display_name: 'Zerodha · AB1234',
    broker_type: 'API',
    account_status: 'CONNECTED',
    holdings_count: 12,
    created_at: '2026-11-01T00:00:00.000Z',
    broker_id: 'kite',
    last_synced_at: SYNCED,
    token_expires_at: null,
    status_changed_at: null,
    ...overrides,
  };
}

describe('client: broker connection texts', () => {
  it('says when an account last synced, in IST, with the date once it is not today in India', () => {
    expect(lastSyncedText(SYNCED, LATER_THAT_DAY)).to.equal('Last synced 16:05 IST');
    // 00:30 IST on the 28th: the sync was yesterday in India, though the same UTC day.
    expect(lastSyncedText(SYNCED, new Date('2026-11-27T19:00:00.000Z'))).to.equal(
      'Last synced 27/11/2026, 16:05 IST',
    );
    expect(lastSyncedText(null, LATER_THAT_DAY)).to.equal('Not synced yet');
  });

  it("shows each API account's last sync on Holdings as name · client id · time", () => {
    expect(accountSyncLine(account(), LATER_THAT_DAY)).to.equal('Zerodha · AB1234 · synced 16:05 IST');
    expect(accountSyncLine(account({ last_synced_at: null }), LATER_THAT_DAY)).to.equal(
      'Zerodha · AB1234 · not synced yet',
    );
  });

  it('lists only accounts connected over an API, by name', () => {
    const upload = account({ broker_account_id: '2', broker_id: null, broker_type: 'CSV_IMPORT' });
    const upstox = account({ broker_account_id: '3', broker_id: 'upstox', display_name: 'Upstox · 7X1' });
    const dhan = account({ broker_account_id: '4', broker_id: 'dhan', display_name: 'Dhan · 1100' });
    expect(
      connectedAccounts([upstox, upload, account(), dhan]).map((a) => a.broker_account_id),
    ).to.deep.equal(['4', '3', '1']);
  });

  it('reads the connection status, and an unknown status as connected', () => {
    expect(connectionStatus({ account_status: 'EXPIRED' })).to.equal('EXPIRED');
    expect(connectionStatus({ account_status: 'ERROR' })).to.equal('ERROR');
    expect(connectionStatus({ account_status: 'ACTIVE' })).to.equal('CONNECTED');
  });

  it('says what a sync changed with the shared summary, and which rules it paused', () => {
    const sync = {
      broker_account_id: '1',
      added: 2,
      changed: 0,
      removed: 1,
      rules_paused: [],
      synced_at: SYNCED,
    };
    expect(syncResultText('kite', sync)).to.equal('Zerodha sync: 2 added, 1 sold');
    expect(syncResultText('kite', { ...sync, added: 0, removed: 0 })).to.equal('Zerodha sync: no changes');
    expect(syncResultText('upstox', { ...sync, rules_paused: ['INFY trailing stop'] })).to.equal(
      'Upstox sync: 2 added, 1 sold. Paused, their holding is no longer at Upstox: INFY trailing stop',
    );
  });

  it('says what Disconnect removes and that nothing changes at the broker', () => {
    expect(disconnectTitle('kite')).to.equal('Disconnect Zerodha?');
    expect(disconnectConsequence('kite', 12)).to.equal(
      'Its 12 holdings are removed from Portfolio Guard; your exit rules on them are removed too. Nothing changes at Zerodha.',
    );
    expect(disconnectConsequence('angelone', 1)).to.equal(
      'Its 1 holding is removed from Portfolio Guard; your exit rules on it are removed too. Nothing changes at Angel One.',
    );
    expect(disconnectConsequence('dhan', 0)).to.equal(
      'It has no holdings in Portfolio Guard. Nothing changes at Dhan.',
    );
  });

  it('greets a broker login that came back, and ignores an unknown broker in the address', () => {
    expect(connectedNotice('kite')).to.equal('Zerodha connected: holdings synced');
    expect(connectedNotice('angelone')).to.equal('Angel One connected: holdings synced');
    expect(connectedNotice('evil<script>')).to.equal(null);
    expect(connectedNotice(null)).to.equal(null);
  });
});
