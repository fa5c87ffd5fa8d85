/**
 * The WhatsApp sender (docs/notifications.md#whatsapp): each delivery one template message of the
 * alert template, whose three body parameters are, in this order, the notice's title ("INFY stop
 * loss hit"), its line ("₹1,234.50 crossed ₹1,240.00 · 10:41 IST") and the link a tap opens.
 * `biz_opaque_callback_data` is the delivery's id, so Meta's status webhooks (webhook.ts) find the
 * row even before its wamid is recorded. Meta's 200 is `accepted` (delivered and read come later);
 * refusals are sorted by code (outcomes.ts).
 */
import type { WhatsAppConfig } from '@app/config';
import type { Logger } from 'pino';
import type {
  ChannelSender,
  NoticeText,
  OutgoingDelivery,
  SendOutcome,
} from '../../notifications/channel.ts';
import { sendTemplate } from './graph.ts';
import { isConfigurationRefusal, outcomeOfRefusal } from './outcomes.ts';

/** The alert template's body parameters, in the approved order: title, line, link. */
export function alertParameters(text: NoticeText): string[] {
  return [text.title, text.body, text.url];
}

export interface WhatsAppSenderDeps {
  whatsapp: WhatsAppConfig;
  log: Logger;
  /** Requests in flight at once (Meta's default throughput is 80 messages a second per number). */
  concurrency?: number;
  timeoutMs?: number;
}

export function createWhatsAppSender(deps: WhatsAppSenderDeps): ChannelSender {
  const { whatsapp, log } = deps;
  const concurrency = Math.max(1, deps.concurrency ?? 10);

  const sendOne = async (delivery: OutgoingDelivery): Promise<SendOutcome> => {
    const answer = await sendTemplate(
      whatsapp,
      {
        to: delivery.endpoint.value,
        template: whatsapp.alertTemplate,
        parameters: alertParameters(delivery.text),
        callbackData: delivery.id,
      },
      deps.timeoutMs === undefined ? {} : { timeoutMs: deps.timeoutMs },
    );
    if (answer.ok) return { kind: 'accepted', providerMessageId: answer.wamid };
    const outcome = outcomeOfRefusal(answer);
    const context = { deliveryId: delivery.id, endpointId: delivery.endpoint.id, code: answer.code };
    if (isConfigurationRefusal(answer)) {
      log.error(
        { ...context, status: answer.status, reason: answer.message },
        'WhatsApp refused our configuration (token, permission, payment or policy): fix it in Meta Business Manager',
      );
    } else if (outcome.kind !== 'retry') {
      log.warn({ ...context, outcome: outcome.kind, reason: answer.message }, 'WhatsApp message not sent');
    }
    return outcome;
  };

  return {
    channel: 'whatsapp',
    maxBatch: 100,
    async send(deliveries) {
      const outcomes: SendOutcome[] = new Array<SendOutcome>(deliveries.length);
      let next = 0;
      const lane = async () => {
        while (next < deliveries.length) {
          const index = next++;
          outcomes[index] = await sendOne(deliveries[index]!);
        }
      };
      await Promise.all(Array.from({ length: Math.min(concurrency, deliveries.length) }, lane));
      return outcomes;
    },
  };
}
