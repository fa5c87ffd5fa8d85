/** The Web Push tests' notices and deliveries (sender.test.ts, transport.test.ts). */
import type { NoticeText, OutgoingDelivery } from '../../../server/src/notifications/channel.ts';
import type { FakeSubscription } from '../../helpers/fake-push-service.ts';

export const STOP: NoticeText = {
  kind: 'alert',
  title: 'INFY stop loss hit',
  body: '₹1,234.50 crossed ₹1,240.00 · 10:41 IST',
  url: 'https://app.example.test/holdings/NSE/INFY',
  tag: 'rule-5f0c2a8e-1b7d-4c52-9d1e-3f2b8a6c9e01',
  protective: true,
  symbol: 'INFY',
};

export const TARGET: NoticeText = {
  ...STOP,
  title: 'TCS target reached',
  body: '₹4,100.00 crossed ₹4,080.00 · 11:02 IST',
  url: 'https://app.example.test/holdings/NSE/TCS',
  tag: 'rule-0a1b',
  protective: false,
  symbol: 'TCS',
};

let sequence = 0;

/** An outbox row of `text` for the subscription, as the delivery worker hands it to the sender. */
export function delivery(
  subscription: Pick<FakeSubscription, 'endpoint' | 'keys'>,
  text: NoticeText = STOP,
): OutgoingDelivery {
  sequence += 1;
  return {
    id: `00000000-0000-4000-8000-${String(sequence).padStart(12, '0')}`,
    executionId: '00000000-0000-4000-8000-000000000000',
    userId: '00000000-0000-4000-8000-0000000000aa',
    attempts: 1,
    endpoint: {
      id: `ep-${sequence}`,
      value: subscription.endpoint,
      label: 'Chrome on Android',
      meta: { keys: subscription.keys },
    },
    text,
  };
}
