/**
 * The WhatsApp variables (docs/notifications.md#whatsapp): none set is WhatsApp off; all set is
 * `config.whatsapp` with the templates split into name and language and the Graph API's default
 * version; a partial set or a malformed template stops the config with a sentence naming them.
 */
import { expect } from 'chai';
import { parseConfig } from '@app/config';
import { configProblems } from './problems.ts';

const ALL = {
  WHATSAPP_TOKEN: 'EAAGexample-permanent-token-0123456789',
  WHATSAPP_PHONE_NUMBER_ID: '106540352242922',
  WHATSAPP_APP_SECRET: 'an-app-secret-0123456789abcdef',
  WHATSAPP_VERIFY_TOKEN: 'a-verify-token-of-ours',
  WHATSAPP_ALERT_TEMPLATE: 'portfolio_alert:en',
  WHATSAPP_CODE_TEMPLATE: 'portfolio_code:en_US',
};

const problems = configProblems;

describe('config: WhatsApp', () => {
  it('is off when none is set', () => {
    expect(parseConfig({}).whatsapp).to.equal(null);
  });

  it('is on with all six, the templates split and the Graph API at v24.0', () => {
    expect(parseConfig(ALL).whatsapp).to.deep.equal({
      token: ALL.WHATSAPP_TOKEN,
      phoneNumberId: '106540352242922',
      appSecret: ALL.WHATSAPP_APP_SECRET,
      verifyToken: ALL.WHATSAPP_VERIFY_TOKEN,
      alertTemplate: { name: 'portfolio_alert', language: 'en' },
      codeTemplate: { name: 'portfolio_code', language: 'en_US' },
      apiUrl: 'https://graph.facebook.com/v24.0',
    });
    expect(
      parseConfig({ ...ALL, WHATSAPP_API_URL: 'http://127.0.0.1:9000/v24.0/' }).whatsapp!.apiUrl,
    ).to.equal('http://127.0.0.1:9000/v24.0');
  });

  it('refuses a partial set in one sentence naming what is missing', () => {
    const { WHATSAPP_APP_SECRET: _secret, WHATSAPP_CODE_TEMPLATE: _code, ...partial } = ALL;
    const found = problems(partial);
    expect(found).to.have.length(1);
    expect(found[0]).to.match(/^WHATSAPP_APP_SECRET is required with WHATSAPP_TOKEN, /);
    expect(found[0]).to.include('(missing: WHATSAPP_APP_SECRET, WHATSAPP_CODE_TEMPLATE)');
  });

  it('refuses a template that is not name:language, and a phone number id that is not digits', () => {
    expect(problems({ ...ALL, WHATSAPP_ALERT_TEMPLATE: 'Portfolio Alert' })).to.deep.equal([
      'WHATSAPP_ALERT_TEMPLATE must be an approved template as name:language (e.g. portfolio_alert:en)',
    ]);
    expect(problems({ ...ALL, WHATSAPP_PHONE_NUMBER_ID: '+91 98765 43210' })).to.deep.equal([
      'WHATSAPP_PHONE_NUMBER_ID must be the phone number id (digits) from WhatsApp Manager',
    ]);
  });
});
