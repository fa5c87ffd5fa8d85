/**
 * The browser's side of Web Push for the fake push service (fake-push-service.ts): RFC 8291
 * decryption of an aes128gcm message with a subscription's keys, and a received push whose
 * payload is decrypted when first read (a push service never decrypts; the browser does, later).
 */
import { createDecipheriv, createECDH, createHmac } from 'node:crypto';

const hmac = (key: Buffer, data: Buffer) => createHmac('sha256', key).update(data).digest();

/**
 * RFC 8291 decryption of one aes128gcm push message with the browser's keys: header
 * salt(16) | rs(4) | idlen(1) | keyid(idlen: the sender's public key), then one record.
 * Throws when the message is not what the RFC says (wrong keys, tampering, bad padding).
 */
export function decryptPushMessage(
  body: Buffer,
  receiver: { privateKey: Buffer; publicKey: Buffer; auth: Buffer },
): Buffer {
  if (body.length < 21) throw new Error('shorter than the aes128gcm header');
  const salt = body.subarray(0, 16);
  const rs = body.readUInt32BE(16);
  const idLength = body[20]!;
  const senderPublic = body.subarray(21, 21 + idLength);
  const record = body.subarray(21 + idLength);
  if (idLength !== 65 || senderPublic[0] !== 0x04) throw new Error('keyid is not an uncompressed P-256 key');
  if (record.length > rs) throw new Error('more than one record');
  const ecdh = createECDH('prime256v1');
  ecdh.setPrivateKey(receiver.privateKey);
  const ecdhSecret = ecdh.computeSecret(senderPublic);
  const prkKey = hmac(receiver.auth, ecdhSecret);
  const keyInfo = Buffer.concat([Buffer.from('WebPush: info\0'), receiver.publicKey, senderPublic]);
  const ikm = hmac(prkKey, Buffer.concat([keyInfo, Buffer.from([1])]));
  const prk = hmac(salt, ikm);
  const cek = hmac(prk, Buffer.from('Content-Encoding: aes128gcm\0\x01')).subarray(0, 16);
  const nonce = hmac(prk, Buffer.from('Content-Encoding: nonce\0\x01')).subarray(0, 12);
  const decipher = createDecipheriv('aes-128-gcm', cek, nonce);
  decipher.setAuthTag(record.subarray(record.length - 16));
  const padded = Buffer.concat([decipher.update(record.subarray(0, record.length - 16)), decipher.final()]);
  let end = padded.length - 1;
  while (end >= 0 && padded[end] === 0) end--;
  if (padded[end] !== 0x02) throw new Error('the padding delimiter is not 0x02 (RFC 8291)');
  return padded.subarray(0, end);
}

/** `record` with `payload` and `decryptError`, worked out once when first read. */
export function withLazyPayload<R extends object>(
  body: Buffer,
  keys: { privateKey: Buffer; publicKey: Buffer; authBytes: Buffer },
  record: R,
): R & { readonly payload: string | null; readonly decryptError: string | null } {
  let outcome: { payload: string | null; decryptError: string | null } | undefined;
  const decrypted = () => {
    if (outcome) return outcome;
    try {
      const payload = decryptPushMessage(body, {
        privateKey: keys.privateKey,
        publicKey: keys.publicKey,
        auth: keys.authBytes,
      }).toString('utf8');
      outcome = { payload, decryptError: null };
    } catch (err) {
      outcome = { payload: null, decryptError: (err as Error).message };
    }
    return outcome;
  };
  return Object.defineProperties(record, {
    payload: { get: () => decrypted().payload, enumerable: true },
    decryptError: { get: () => decrypted().decryptError, enumerable: true },
  }) as R & { readonly payload: string | null; readonly decryptError: string | null };
}
