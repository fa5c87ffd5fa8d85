/**
 * A stand-in for the Web Push encryption draft (`../shared/data/samples/webpush/draft-ietf-webpush-encryption.md`,
 * RFC 8291 as a kramdown draft): the two parts the tests read, in the draft's own layout: the
 * example push message (its base64url body in a `~~~ example` block) and the intermediate
 * values (`Label:` then `: value` lines, wrapped). The values are the RFC's published test vector.
 * `readEncryptionVector` reads them back from either file.
 */

/** A value of the draft's intermediate values: the `: value` lines after `label`, joined. */
function intermediate(text: string, label: string): Buffer {
  const start = text.indexOf(`\n${label}\n`);
  if (start < 0) throw new Error(`no "${label}" in the draft`);
  const lines = text.slice(start + label.length + 2).split('\n');
  const first = lines.findIndex((line) => line.startsWith(': '));
  const value: string[] = [lines[first]!.slice(2)];
  for (const line of lines.slice(first + 1)) {
    if (!/^ {2}\S/.test(line)) break;
    value.push(line.trim());
  }
  return Buffer.from(value.join('').replace(/\s+/g, ''), 'base64url');
}

/** The example push message and the keys that decrypt it, as the draft gives them. */
export function readEncryptionVector(text: string) {
  const block = /~~~ example\nPOST [^\n]+\n[\s\S]*?\n\n([\s\S]*?)\n~~~/.exec(text);
  if (!block) throw new Error('no example push message in the draft');
  return {
    body: Buffer.from(block[1]!.replace(/\s+/g, ''), 'base64url'),
    plaintext: intermediate(text, 'Plaintext:'),
    salt: intermediate(text, 'Salt:'),
    receiver: {
      privateKey: intermediate(text, 'User agent private key (ua_private):'),
      publicKey: intermediate(text, 'User agent public key (ua_public):'),
      auth: intermediate(text, 'Authentication secret (auth_secret):'),
    },
  };
}
export function webpushEncryptionDraft(): string {
  return `# Push Message Encryption Example {#example}

The following example shows a push message being sent to a push service.

~~~ example
POST /push/JzLQ3raZJfFBR0aqvOMsLrt54w4rJUsV HTTP/1.1
Host: push.example.net
TTL: 10
Content-Length: 145
Content-Encoding: aes128gcm

DGv6ra1nlYgDCS1FRnbzlwAAEABBBP4z9KsN6nGRTbVYI_c7VJSPQTBtkgcy27ml
mlMoZIIgDll6e3vCYLocInmYWAmS6TlzAC8wEqKK6PBru3jl7A_yl95bQpu6cVPT
pK4Mqgkf1CXztLVBSt2Ks3oZwbuwXPXLWyouBWLVWGNWQexSgSxsj_Qulcy4a-fN
~~~

This example shows the ASCII encoded string, "When I grow up, I want to be a
watermelon".

# Intermediate Values for Encryption {#ex-intermediate}

Plaintext:

: V2hlbiBJIGdyb3cgdXAsIEkgd2FudCB0byBiZSBhIHdhdGVybWVsb24

Application server public key (as_public):

: BP4z9KsN6nGRTbVYI_c7VJSPQTBtkgcy27mlmlMoZIIg
  Dll6e3vCYLocInmYWAmS6TlzAC8wEqKK6PBru3jl7A8

Application server private key (as_private):

: yfWPiYE-n46HLnH0KqZOF1fJJU3MYrct3AELtAQ-oRw

User agent public key (ua_public):

: BCVxsr7N_eNgVRqvHtD0zTZsEc6-VV-JvLexhqUzORcx
  aOzi6-AYWXvTBHm4bjyPjs7Vd8pZGH6SRpkNtoIAiw4

User agent private key (ua_private):

: q1dXpw3UpT5VOmu_cf_v6ih07Aems3njxI-JWgLcM94

Salt:

: DGv6ra1nlYgDCS1FRnbzlw

Authentication secret (auth_secret):

: BTBZMqHH6r4Tts7J_aSIgg
`;
}
