/**
 * How History words a delivery (docs/notifications.md#where-each-alert-went): 'Email sent', 'Push
 * failed', 'WhatsApp read'; never 'delivered' or 'read' for Telegram or push, which cannot know.
 */
import { CHANNELS, DELIVERY_STATUSES } from '@app/common/notifications/channels';
import { expect } from 'chai';
import {
  deliveryBadgeText,
  deliveryStatusWord,
  deliveryTime,
  deliveryTone,
} from '../../client/src/routes/history/executionDisplay.ts';

describe('client: History words each delivery', () => {
  it('names the channel and its status on the badge', () => {
    expect(deliveryBadgeText({ channel: 'email', status: 'sent' })).to.equal('Email sent');
    expect(deliveryBadgeText({ channel: 'webpush', status: 'accepted' })).to.equal('Push accepted');
    expect(deliveryBadgeText({ channel: 'whatsapp', status: 'read' })).to.equal('WhatsApp read');
    expect(deliveryBadgeText({ channel: 'telegram', status: 'failed' })).to.equal('Telegram failed');
    expect(deliveryBadgeText({ channel: 'email', status: 'queued' })).to.equal('Email queued');
    expect(deliveryStatusWord({ channel: 'whatsapp', status: 'delivered' })).to.equal('Delivered');
  });

  it('never says delivered or read for Telegram or push, whatever a row holds', () => {
    for (const status of DELIVERY_STATUSES) {
      expect(deliveryBadgeText({ channel: 'telegram', status })).to.not.match(/delivered|read/);
      expect(deliveryBadgeText({ channel: 'webpush', status })).to.not.match(/delivered|read/);
    }
    expect(deliveryBadgeText({ channel: 'telegram', status: 'delivered' })).to.equal('Telegram sent');
    expect(deliveryBadgeText({ channel: 'webpush', status: 'read' })).to.equal('Push accepted');
  });

  it('colours failed red, delivered and read green, sent and accepted blue, queued grey', () => {
    const tones = DELIVERY_STATUSES.map((status) => `${status} ${deliveryTone(status)}`);
    expect(tones).to.deep.equal([
      'queued neutral',
      'sent primary',
      'accepted primary',
      'delivered gain',
      'read gain',
      'failed loss',
    ]);
    expect(
      CHANNELS.map((channel) => deliveryBadgeText({ channel, status: 'sent' }).split(' ')[0]),
    ).to.deep.equal(['Email', 'Push', 'Telegram', 'WhatsApp']);
  });

  it('gives the time in IST', () => {
    expect(deliveryTime('2026-11-27T05:01:05.000Z')).to.equal('27/11/2026, 10:31:05 IST');
  });
});
