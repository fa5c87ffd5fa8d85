import { expect } from 'chai';
import { decryptPushMessage } from '../../helpers/push-decrypt.ts';
import { readShared } from '../../helpers/shared-data.ts';
import { readEncryptionVector } from '../../helpers/stand-ins/webpush-vector.ts';

/** RFC 8291 as a draft, with its example message and intermediate values. */
const DRAFT = 'data/samples/webpush/draft-ietf-webpush-encryption.md';

describe('fake push service: RFC 8291 decryption', () => {
  const vector = readEncryptionVector(readShared(DRAFT));

  it("decrypts the draft's example message to its plaintext", () => {
    // Header 86 + plaintext 41 + delimiter 1 + tag 16 = 144 bytes: the base64url shown decodes to
    // that (the draft's example says Content-Length: 145, one too many).
    expect(vector.body).to.have.length(144);
    expect(vector.body.subarray(0, 16)).to.deep.equal(vector.salt);
    const plaintext = decryptPushMessage(vector.body, vector.receiver);
    expect(plaintext).to.deep.equal(vector.plaintext);
    expect(plaintext.toString('utf8')).to.equal('When I grow up, I want to be a watermelon');
  });

  it('refuses the message when a byte of it changed, or with another auth secret', () => {
    const tampered = Buffer.from(vector.body);
    tampered[tampered.length - 20]! ^= 1;
    expect(() => decryptPushMessage(tampered, vector.receiver)).to.throw();
    const otherAuth = Buffer.from(vector.receiver.auth);
    otherAuth[0]! ^= 1;
    expect(() => decryptPushMessage(vector.body, { ...vector.receiver, auth: otherAuth })).to.throw();
  });
});
