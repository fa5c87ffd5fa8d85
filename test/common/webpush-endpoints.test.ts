import { expect } from 'chai';
import { addEndpointBody } from '../../common/src/api/endpoints.ts';
import {
  decodeBase64Url,
  deviceLabel,
  isAuthSecret,
  isHttpsEndpoint,
  isUncompressedP256Key,
  PUSH_MESSAGES,
} from '../../common/src/endpoints/webpush.ts';

/** Real browsers' User-Agent strings (2026 releases). */
const UA = {
  chromeAndroid:
    'Mozilla/5.0 (Linux; Android 10; K) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/142.0.0.0 Mobile Safari/537.36',
  safariIphone:
    'Mozilla/5.0 (iPhone; CPU iPhone OS 18_6 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.6 Mobile/15E148 Safari/604.1',
  safariIpad:
    'Mozilla/5.0 (iPad; CPU OS 18_6 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.6 Mobile/15E148 Safari/604.1',
  firefoxWindows: 'Mozilla/5.0 (Windows NT 10.0; Win64; x64; rv:145.0) Gecko/20100101 Firefox/145.0',
  edgeWindows:
    'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/142.0.0.0 Safari/537.36 Edg/142.0.0.0',
  chromeMac:
    'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/142.0.0.0 Safari/537.36',
  safariMac:
    'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.6 Safari/605.1.15',
  samsung:
    'Mozilla/5.0 (Linux; Android 14; SM-S918B) AppleWebKit/537.36 (KHTML, like Gecko) SamsungBrowser/28.0 Chrome/130.0.0.0 Mobile Safari/537.36',
  firefoxAndroid: 'Mozilla/5.0 (Android 14; Mobile; rv:145.0) Gecko/145.0 Firefox/145.0',
  chromeIphone:
    'Mozilla/5.0 (iPhone; CPU iPhone OS 18_6 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) CriOS/142.0.0.0 Mobile/15E148 Safari/604.1',
  chromeLinux:
    'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) HeadlessChrome/142.0.0.0 Safari/537.36',
};

/** A key the way a browser sends it: 65 bytes, 0x04 first. */
const P256DH = 'BLGnKjZS733uKqadvQjDxHgkiLe3h8pLDX24B-EMly3ciN26Gu2CwrrrzZFccI6AWQRaTSudKSd-fubEup0Ui9E';
const AUTH = '35pIz89ZgUJ2-gsPw3OrPw';

describe('web push: the device label', () => {
  it('names the browser and the device as Settings lists them', () => {
    expect(deviceLabel(UA.chromeAndroid)).to.equal('Chrome on Android');
    expect(deviceLabel(UA.safariIphone)).to.equal('Safari on iPhone');
    expect(deviceLabel(UA.safariIpad)).to.equal('Safari on iPad');
    expect(deviceLabel(UA.firefoxWindows)).to.equal('Firefox on Windows');
    expect(deviceLabel(UA.edgeWindows)).to.equal('Edge on Windows');
    expect(deviceLabel(UA.chromeMac)).to.equal('Chrome on Mac');
    expect(deviceLabel(UA.safariMac)).to.equal('Safari on Mac');
    expect(deviceLabel(UA.samsung)).to.equal('Samsung Internet on Android');
    expect(deviceLabel(UA.firefoxAndroid)).to.equal('Firefox on Android');
    expect(deviceLabel(UA.chromeIphone)).to.equal('Chrome on iPhone');
    expect(deviceLabel(UA.chromeLinux)).to.equal('Chrome on Linux');
  });

  it('says what it can when the User-Agent names little or nothing', () => {
    expect(deviceLabel(undefined)).to.equal('This browser');
    expect(deviceLabel('')).to.equal('This browser');
    expect(deviceLabel('curl/8.5.0')).to.equal('This browser');
    expect(deviceLabel('Something (Android 14)')).to.equal('A browser on Android');
  });
});

describe('web push: subscription checks', () => {
  it('takes a P-256 key of 65 bytes starting 0x04 and an auth secret of 16 bytes, base64url', () => {
    expect(isUncompressedP256Key(P256DH)).to.equal(true);
    expect(decodeBase64Url(P256DH)).to.have.length(65);
    expect(isAuthSecret(AUTH)).to.equal(true);
    expect(isAuthSecret(`${AUTH}==`)).to.equal(true);
  });

  it('refuses keys of the wrong length, a compressed point and other alphabets', () => {
    expect(isUncompressedP256Key(P256DH.slice(0, -4))).to.equal(false);
    expect(isUncompressedP256Key(`A${P256DH.slice(1)}`)).to.equal(false); // first byte 0x00, not 0x04
    expect(isUncompressedP256Key(P256DH.replace(/-/g, '+'))).to.equal(false);
    expect(isUncompressedP256Key('')).to.equal(false);
    expect(isAuthSecret(AUTH.slice(0, 21))).to.equal(false);
    expect(isAuthSecret(`${AUTH}AAAA`)).to.equal(false);
    expect(isAuthSecret('35pIz89ZgUJ2/gsPw3OrPw')).to.equal(false);
  });

  it('takes only https endpoints without credentials, of at most 1000 characters', () => {
    expect(isHttpsEndpoint('https://fcm.googleapis.com/fcm/send/abc:APA91b')).to.equal(true);
    expect(isHttpsEndpoint('http://fcm.googleapis.com/fcm/send/abc')).to.equal(false);
    expect(isHttpsEndpoint('https://user:pw@push.example.net/x')).to.equal(false);
    expect(isHttpsEndpoint('javascript:alert(1)')).to.equal(false);
    expect(isHttpsEndpoint('not a url')).to.equal(false);
    expect(isHttpsEndpoint(`https://push.example.net/${'a'.repeat(1000)}`)).to.equal(false);
  });

  it('reads a webpush body with its sentences, and keeps email and WhatsApp bodies as they were', () => {
    const subscription = {
      endpoint: 'https://fcm.googleapis.com/fcm/send/x',
      keys: { p256dh: P256DH, auth: AUTH },
    };
    const ok = addEndpointBody.safeParse({ type: 'webpush', subscription, label: '  Work laptop ' });
    expect(ok.success && ok.data).to.deep.equal({ type: 'webpush', subscription, label: 'Work laptop' });
    const blankLabel = addEndpointBody.safeParse({ type: 'webpush', subscription, label: ' ' });
    expect(blankLabel.success && blankLabel.data).to.deep.equal({
      type: 'webpush',
      subscription,
      label: undefined,
    });
    const message = (body: unknown) => {
      const parsed = addEndpointBody.safeParse(body);
      return parsed.success ? null : parsed.error.issues[0]!.message;
    };
    expect(message({ type: 'webpush' })).to.equal(PUSH_MESSAGES.subscription);
    expect(message({ type: 'webpush', subscription: { endpoint: subscription.endpoint } })).to.equal(
      PUSH_MESSAGES.subscription,
    );
    expect(
      message({ type: 'webpush', subscription: { ...subscription, endpoint: 'http://x.in/p' } }),
    ).to.equal(PUSH_MESSAGES.endpoint);
    expect(
      message({ type: 'webpush', subscription: { ...subscription, keys: { p256dh: AUTH, auth: AUTH } } }),
    ).to.equal(PUSH_MESSAGES.p256dh);
    expect(
      message({ type: 'webpush', subscription: { ...subscription, keys: { p256dh: P256DH, auth: P256DH } } }),
    ).to.equal(PUSH_MESSAGES.auth);
    expect(message({ type: 'webpush', subscription, label: 'x'.repeat(61) })).to.equal(PUSH_MESSAGES.label);
    expect(addEndpointBody.parse({ value: 'a@example.com' })).to.deep.equal({
      type: 'email',
      value: 'a@example.com',
    });
    expect(message({ type: 'fax', value: '1' })).to.equal('Please choose Email or WhatsApp');
    expect(message({ type: 'email', value: 'nope' })).to.equal('Please enter a valid email address');
  });
});
