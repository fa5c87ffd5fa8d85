/**
 * A WhatsApp number's six-digit code, sent as the approved code template
 * (docs/notifications.md#whatsapp); the endpoints (server/src/endpoints/whatsapp-code.ts) issue,
 * store and check the code, and get this as their `CodeMessages`.
 */
import type { WhatsAppConfig } from '@app/config';
import type { Logger } from 'pino';
import type { EndpointRow } from '../../endpoints/presenter.ts';
import type { CodeMessages, CodeSendOutcome } from '../../endpoints/whatsapp-code.ts';
import { sendTemplate } from './graph.ts';
import { isConfigurationRefusal, outcomeOfRefusal, refusalReason } from './outcomes.ts';

interface CodeMessageDeps {
  whatsapp: WhatsAppConfig;
  log: Logger;
}

/** The code messages of a configured WhatsApp. */
export function createWhatsAppCodeMessages(deps: CodeMessageDeps): CodeMessages {
  return { send: (endpoint, raw) => sendCode(deps, endpoint, raw) };
}

/** Sends the code template to the endpoint's number; Meta's refusal is logged and reported, not thrown. */
async function sendCode(
  deps: CodeMessageDeps,
  endpoint: Pick<EndpointRow, 'id' | 'value' | 'userId'>,
  raw: string,
): Promise<CodeSendOutcome> {
  const answer = await sendTemplate(deps.whatsapp, {
    to: endpoint.value,
    template: deps.whatsapp.codeTemplate,
    parameters: [raw],
  });
  if (answer.ok) return 'sent';
  const context = { endpointId: endpoint.id, userId: endpoint.userId, reason: refusalReason(answer) };
  if (isConfigurationRefusal(answer)) {
    deps.log.error(context, 'WhatsApp refused our configuration sending a verification code');
    return 'transient';
  }
  const outcome = outcomeOfRefusal(answer);
  deps.log.warn(context, 'WhatsApp verification code not sent');
  return outcome.kind === 'retry' ? 'transient' : 'permanent';
}
