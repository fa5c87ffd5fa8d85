import type { AlertExecution } from '@app/common/realtime/events';
import { leadsItsNotice } from '@app/common/rules/notice';
import { expect } from 'chai';
import {
  alertTitle,
  bellBadge,
  bellLabel,
  feedTime,
  priceAlertSentence,
  toastContent,
} from '../../client/src/alerts/alertDisplay.ts';
import {
  executionPriceLines,
  executionSubject,
  ruleTypeLabel,
  statusLabel,
  statusTone,
} from '../../client/src/routes/history/executionDisplay.ts';

const execution = (over: Partial<AlertExecution> = {}): AlertExecution => ({
  id: 'e1',
  symbol: 'RELIANCE',
  exchange: 'NSE',
  trigger_type: 'TRAILING_STOP_LOSS',
  status: 'PENDING',
  execution_type: 'ALERT',
  trigger_price: 1450.8,
  execution_price: 1440,
  message: 'RELIANCE fell to ₹1,440.00, at or below your trailing stop at ₹1,450.80',
  executed_at: '2026-11-22T08:35:09.000Z',
  rule_id: 'r1',
  price_alert_id: null,
  over_quota: false,
  notice_id: null,
  ...over,
});

describe('client: alerts display', () => {
  it('titles a toast by symbol and what fired, with the LTP', () => {
    expect(toastContent(execution())).to.deep.equal({
      id: 'e1',
      title: 'RELIANCE · Trailing stop hit',
      body: 'RELIANCE fell to ₹1,440.00, at or below your trailing stop at ₹1,450.80',
      ltp: 'LTP ₹1,440.00',
      inAppOnly: false,
      tone: 'stop',
    });
    expect(toastContent(execution({ message: null })).body).to.equal('Trigger ₹1,450.80, hit at ₹1,440.00');
    expect(toastContent(execution({ status: 'IN_APP_ONLY' })).inAppOnly).to.equal(true);
    expect(toastContent(execution({ over_quota: true })).inAppOnly).to.equal(true);
    expect(alertTitle('PRICE_ABOVE')).to.equal('Price alert');
    expect(alertTitle('TAKE_PROFIT')).to.equal('Profit target reached');
    expect(alertTitle('SOMETHING_NEW')).to.equal('SOMETHING NEW');
  });

  it("gives a notice one toast, its lead's; a stop loss reads as a stop, a profit target as a target", () => {
    expect(leadsItsNotice(execution())).to.equal(true);
    expect(leadsItsNotice(execution({ id: 'lead', notice_id: 'lead' }))).to.equal(true);
    expect(leadsItsNotice(execution({ id: 'member', notice_id: 'lead' }))).to.equal(false);
    expect(toastContent(execution({ trigger_type: 'FIXED_STOP_LOSS' })).tone).to.equal('stop');
    expect(toastContent(execution({ trigger_type: 'TAKE_PROFIT' })).tone).to.equal('target');
    expect(toastContent(execution({ trigger_type: 'PRICE_BELOW' })).tone).to.equal('notice');
    expect(toastContent(execution({ execution_type: 'REARM' })).tone).to.equal('notice');
  });

  it('titles a re-arming "Re-armed", in the bell and in History', () => {
    const rearmed = execution({
      execution_type: 'REARM',
      status: 'IN_APP_ONLY',
      message: 'RELIANCE recovered to ₹1,030.00: your stop loss is armed again at ₹1,000.00',
    });
    expect(toastContent(rearmed)).to.deep.include({ title: 'RELIANCE · Re-armed', inAppOnly: true });
    expect(ruleTypeLabel('FIXED_STOP_LOSS', 'REARM')).to.equal('Re-armed · Fixed stop loss');
    expect(ruleTypeLabel('FIXED_STOP_LOSS', 'ALERT')).to.equal('Fixed stop loss');
    expect(ruleTypeLabel('PRICE_ABOVE', 'ALERT')).to.equal('Price above');
  });

  it('names the bell by its unread count and caps the badge', () => {
    expect(bellLabel(0)).to.equal('Alerts, none unread');
    expect(bellLabel(3)).to.equal('Alerts, 3 unread');
    expect(bellBadge(0)).to.equal(null);
    expect(bellBadge(7)).to.equal('7');
    expect(bellBadge(120)).to.equal('99+');
  });

  it('shows feed times in IST and price alerts in words', () => {
    expect(feedTime('2026-11-22T08:35:09.000Z')).to.equal('22/11/2026, 14:05:09 IST');
    expect(priceAlertSentence({ symbol: 'INFY', direction: 'above', price: 1600 })).to.equal(
      'INFY rises to ₹1,600.00',
    );
    expect(priceAlertSentence({ symbol: 'INFY', direction: 'below', price: 1400 })).to.equal(
      'INFY falls to ₹1,400.00',
    );
  });

  it("colours SUCCESS green, FAILED red and anything else yellow, IN_APP_ONLY too ('In-app only')", () => {
    expect(statusLabel('IN_APP_ONLY')).to.equal('In-app only');
    expect(statusTone('IN_APP_ONLY')).to.equal('warning');
    expect(statusTone('SKIPPED')).to.equal('warning');
    expect([statusLabel('PENDING'), statusTone('PENDING')]).to.deep.equal(['Sending', 'warning']);
    expect([statusLabel('SUCCESS'), statusLabel('FAILED'), statusLabel('SUCCESS', 'DIGEST')]).to.deep.equal([
      'Alert sent',
      'Not sent',
      'Sent',
    ]);
    expect([statusLabel(''), statusTone('SUCCESS'), statusTone('FAILED')]).to.deep.equal([
      'Sending',
      'gain',
      'loss',
    ]);
  });

  it("shows an endpoint's test as 'Test message', 'Sent', with no prices", () => {
    const test = execution({ symbol: '', execution_type: 'TEST', trigger_type: 'TEST', status: 'SUCCESS' });
    expect([executionSubject(test), statusLabel(test.status, test.execution_type)]).to.deep.equal([
      'Test message',
      'Sent',
    ]);
    expect(executionPriceLines(test)).to.deep.equal([]);
    expect(executionSubject(execution())).to.equal('RELIANCE');
  });
});
