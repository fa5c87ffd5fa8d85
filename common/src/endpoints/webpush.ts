/**
 * Web Push subscriptions as notification endpoints (docs/notifications.md#web-push): the format
 * checks of a browser's subscription shared by the server and Settings (zod-free, no Buffer), the
 * device label derived from a User-Agent, and the refusals word for word.
 */

/** The most browsers (devices) one user can enable alerts on. */
export const MAX_PUSH_ENDPOINTS = 10;

/** The longest endpoint URL taken (real ones are 150 to 500 characters) and the longest label. */
export const PUSH_ENDPOINT_MAX_LENGTH = 1000;
export const PUSH_LABEL_MAX_LENGTH = 60;

/** The refusals, word for word as docs/notifications.md gives them. */
export const PUSH_MESSAGES = {
  endpoint: "The subscription's endpoint must be an https URL of at most 1000 characters.",
  privateAddress:
    "The subscription's endpoint must be a push service on the internet, not a private, local or link-local address.",
  unresolved: "The subscription's endpoint names a host that cannot be found. Please try again.",
  subscription: 'Please send the push subscription: its endpoint and keys (p256dh and auth).',
  p256dh: "The subscription's p256dh key must be an uncompressed P-256 public key (65 bytes, base64url).",
  auth: "The subscription's auth secret must be 16 bytes, base64url.",
  label: `A device label must be at most ${PUSH_LABEL_MAX_LENGTH} characters.`,
  tooMany: `You can enable alerts on at most ${MAX_PUSH_ENDPOINTS} devices. Delete a device you no longer use, then try again.`,
} as const;

const BASE64URL = /^[A-Za-z0-9_-]*={0,2}$/;

/** The bytes of a base64url string, or null when it is not one. */
export function decodeBase64Url(text: string): Uint8Array | null {
  if (!BASE64URL.test(text)) return null;
  const bare = text.replace(/=+$/, '');
  if (bare.length % 4 === 1) return null;
  try {
    const binary = atob(bare.replace(/-/g, '+').replace(/_/g, '/') + '='.repeat((4 - (bare.length % 4)) % 4));
    return Uint8Array.from(binary, (c) => c.charCodeAt(0));
  } catch {
    return null;
  }
}

/** Whether `key` is base64url of 65 bytes starting 0x04 (an uncompressed point; the server checks the curve). */
export function isUncompressedP256Key(key: string): boolean {
  const bytes = decodeBase64Url(key);
  return bytes !== null && bytes.length === 65 && bytes[0] === 0x04;
}

/** Whether `secret` is base64url of 16 bytes. */
export function isAuthSecret(secret: string): boolean {
  return decodeBase64Url(secret)?.length === 16;
}

/** Whether `endpoint` is an https URL of a sane length (where it points is checked by the server). */
export function isHttpsEndpoint(endpoint: string): boolean {
  if (endpoint.length > PUSH_ENDPOINT_MAX_LENGTH) return false;
  try {
    const url = new URL(endpoint);
    return url.protocol === 'https:' && url.hostname !== '' && !url.username && !url.password;
  } catch {
    return false;
  }
}

const BROWSERS: readonly [RegExp, string][] = [
  [/\bEdg(e|A|iOS)?\//, 'Edge'],
  [/\b(OPR|Opera)\//, 'Opera'],
  [/\bSamsungBrowser\//, 'Samsung Internet'],
  [/\b(Firefox|FxiOS)\//, 'Firefox'],
  [/\b(HeadlessChrome|Chrome|CriOS|Chromium)\//, 'Chrome'],
  [/\bVersion\/[\d.]+.*\bSafari\//, 'Safari'],
];

const SYSTEMS: readonly [RegExp, string][] = [
  [/\biPhone\b/, 'iPhone'],
  [/\biPad\b/, 'iPad'],
  [/\bAndroid\b/, 'Android'],
  [/\bCrOS\b/, 'ChromeOS'],
  [/\bWindows\b/, 'Windows'],
  [/\bMacintosh\b|\bMac OS X\b/, 'Mac'],
  [/\bLinux\b/, 'Linux'],
];

/**
 * The device a subscription came from, as Settings lists it: "Chrome on Android", "Safari on
 * iPhone", "Firefox on Windows"; "This browser" when the User-Agent names neither.
 */
export function deviceLabel(userAgent: string | undefined | null): string {
  const ua = userAgent ?? '';
  const browser = BROWSERS.find(([pattern]) => pattern.test(ua))?.[1];
  const system = SYSTEMS.find(([pattern]) => pattern.test(ua))?.[1];
  if (browser && system) return `${browser} on ${system}`;
  if (browser) return browser;
  if (system) return `A browser on ${system}`;
  return 'This browser';
}
