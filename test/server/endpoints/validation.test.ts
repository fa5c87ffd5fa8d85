import {
  addEndpointBody,
  ENDPOINT_MESSAGES,
  normalizeEndpointValue,
  PHONE_EXAMPLE,
  validateEndpoint,
} from '@app/common/api/endpoints';
import { expect } from 'chai';
import { appSuite } from '../../helpers/app.ts';
import { signIn, type SignedInUser } from '../../helpers/users.ts';
import { addEndpoint } from './support.ts';

const BLANK = 'Please enter a valid endpoint value';
const EMAIL = 'Please enter a valid email address';
const PHONE = 'Please enter a valid phone number (e.g., +919876543210)';

describe('endpoint validation', () => {
  describe('validateEndpoint, shared with the Settings form', () => {
    it('uses the documented texts verbatim', () => {
      expect(ENDPOINT_MESSAGES).to.deep.include({ blank: BLANK, email: EMAIL, phone: PHONE });
      expect(ENDPOINT_MESSAGES.duplicate).to.equal('This endpoint already exists');
      expect(PHONE_EXAMPLE).to.equal('+919876543210');
    });

    it('refuses a value that is blank after trimming, for both types', () => {
      for (const value of ['', '   ', '\t\n']) {
        expect(validateEndpoint('email', value)).to.equal(BLANK);
        expect(validateEndpoint('whatsapp', value)).to.equal(BLANK);
      }
    });

    it('checks the shape of an email', () => {
      for (const ok of ['asha@example.com', '  Asha.Rao+alerts@Mail.Example.in  ']) {
        expect(validateEndpoint('email', ok), ok).to.equal(null);
      }
      for (const bad of [
        'asha',
        'asha@',
        '@example.com',
        'asha@example',
        'a b@example.com',
        `${'a'.repeat(250)}@ex.com`,
      ]) {
        expect(validateEndpoint('email', bad), bad).to.equal(EMAIL);
      }
    });

    it('checks a phone number after removing spaces: optional +, 1-9, then 1 to 14 digits', () => {
      for (const ok of ['+919876543210', '+91 98765 43210', '919876543210', '12', '+123456789012345']) {
        expect(validateEndpoint('whatsapp', ok), ok).to.equal(null);
      }
      for (const bad of ['+0123456', '1', '+1', '+1234567890123456', '98765-43210', '+91 abc', '++91987']) {
        expect(validateEndpoint('whatsapp', bad), bad).to.equal(PHONE);
      }
    });

    it('normalizes: emails trimmed with a lower-cased key, phones without spaces', () => {
      expect(normalizeEndpointValue('email', '  Asha@Example.COM ')).to.deep.equal({
        value: 'Asha@Example.COM',
        key: 'asha@example.com',
      });
      expect(normalizeEndpointValue('whatsapp', ' +91 98765 43210 ')).to.deep.equal({
        value: '+919876543210',
        key: '+919876543210',
      });
    });

    it('the body schema applies the same checks and defaults type to email', () => {
      expect(addEndpointBody.parse({ value: 'a@example.com' })).to.deep.equal({
        type: 'email',
        value: 'a@example.com',
      });
      const bad = addEndpointBody.safeParse({ type: 'whatsapp', value: '12ab' });
      expect(bad.success).to.equal(false);
      expect(bad.error!.issues[0]!.message).to.equal(PHONE);
      // Telegram takes no value: the chat that presses Start is the endpoint.
      expect(addEndpointBody.parse({ type: 'telegram', value: 'ignored' })).to.deep.equal({
        type: 'telegram',
      });
    });
  });

  describe('POST /api/notification-endpoints answers 400 with the sentence', () => {
    const { app } = appSuite();
    let user: SignedInUser;
    before(async () => {
      user = await signIn(app, { tier: 'advanced' });
    });

    const cases: Array<[string, unknown, string]> = [
      ['blank email', { type: 'email', value: '   ' }, BLANK],
      ['blank phone', { type: 'whatsapp', value: '' }, BLANK],
      ['missing value', { type: 'email' }, BLANK],
      ['bad email', { type: 'email', value: 'not-an-email' }, EMAIL],
      ['bad phone', { type: 'whatsapp', value: '+0987' }, PHONE],
      ['unknown type', { type: 'sms', value: '+919876543210' }, 'Please choose Email or WhatsApp'],
    ];
    for (const [name, body, message] of cases) {
      it(name, async () => {
        const res = await addEndpoint(app, user.token, body as { value: string });
        expect(res.status).to.equal(400);
        expect(res.body).to.deep.equal({ success: false, error: message });
      });
    }
  });
});
