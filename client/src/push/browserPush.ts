/**
 * Alerts on this device (docs/notifications.md#web-push): what this browser can do, and the steps
 * of "Enable alerts on this device", each taken only on the user's tap: ask permission, register
 * the service worker (/sw.js, scope /), subscribe with the server's VAPID key, hand the
 * subscription to the server. The server turns it into a `webpush` endpoint.
 */
import type { ApiVapidPublicKey } from '@app/common/api/endpoints';
import { api } from '../api/client.ts';

/** The sentences Settings shows, word for word as docs/notifications.md gives them. */
export const PUSH_TEXTS = {
  enable: 'Enable alerts on this device',
  enabled: 'Alerts are on for this device: Portfolio Guard will notify you here when a rule triggers.',
  unsupported:
    'This browser cannot receive alerts from Portfolio Guard. Use a recent Chrome, Edge, Firefox or Safari, or get alerts by email.',
  ios: 'On iPhone, add Portfolio Guard to your Home Screen first (Share → Add to Home Screen), then open it from there to enable alerts.',
  denied:
    'Notifications are blocked for Portfolio Guard in this browser. To allow them, open the site settings (the icon beside the address bar), set Notifications to Allow, then tap Enable alerts on this device again.',
  dismissed:
    'Alerts were not enabled: the browser asked for permission and it was not given. Tap the button to ask again.',
  failed: 'Alerts could not be enabled on this device. Please try again.',
} as const;

/** What this browser allows: alerts, nothing, or first an install to the Home Screen (iOS). */
export type PushSupport = 'supported' | 'unsupported' | 'ios-install-first';

interface NavigatorWithStandalone extends Navigator {
  /** iOS Safari: true when opened from the Home Screen. */
  standalone?: boolean;
}

function isIos(nav: NavigatorWithStandalone): boolean {
  // iPadOS 13+ says it is a Mac; a Mac has no touch screen.
  return /iPhone|iPad|iPod/.test(nav.userAgent) || (nav.platform === 'MacIntel' && nav.maxTouchPoints > 1);
}

export function pushSupport(nav: NavigatorWithStandalone = navigator, win: Window = window): PushSupport {
  if (isIos(nav) && nav.standalone !== true) return 'ios-install-first';
  const capable = 'serviceWorker' in nav && 'PushManager' in win && 'Notification' in win;
  return capable ? 'supported' : 'unsupported';
}

/** base64url → the bytes `applicationServerKey` takes. */
export function base64UrlToBytes(text: string): Uint8Array<ArrayBuffer> {
  const base64 = text.replace(/-/g, '+').replace(/_/g, '/');
  const binary = atob(base64 + '='.repeat((4 - (base64.length % 4)) % 4));
  const bytes = new Uint8Array(new ArrayBuffer(binary.length));
  for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
  return bytes;
}

function sameKey(a: ArrayBuffer | null | undefined, b: Uint8Array): boolean {
  if (!a || a.byteLength !== b.length) return false;
  const view = new Uint8Array(a);
  return view.every((byte, i) => byte === b[i]);
}

/** This browser's current push subscription, if it has one (asks nothing). */
export async function currentSubscription(): Promise<PushSubscription | null> {
  if (pushSupport() !== 'supported') return null;
  const registration = await navigator.serviceWorker.getRegistration('/');
  return (await registration?.pushManager.getSubscription()) ?? null;
}

export type EnableResult =
  | { kind: 'subscribed'; subscription: PushSubscriptionJSON }
  | { kind: 'denied' | 'dismissed' | 'unsupported' | 'ios-install-first' };

/**
 * The steps after the tap, up to the subscription to POST: permission (asked here, never on page
 * load), the service worker, then a subscription with the server's current key (an old one made
 * with another key is dropped: its pushes would be refused).
 */
export async function subscribeThisDevice(): Promise<EnableResult> {
  const support = pushSupport();
  if (support !== 'supported') return { kind: support };
  const permission = await Notification.requestPermission();
  if (permission === 'denied') return { kind: 'denied' };
  if (permission !== 'granted') return { kind: 'dismissed' };
  await navigator.serviceWorker.register('/sw.js', { scope: '/' });
  const registration = await navigator.serviceWorker.ready;
  const { public_key } = await api.get<ApiVapidPublicKey>('/push/vapid-public-key');
  const key = base64UrlToBytes(public_key);
  const existing = await registration.pushManager.getSubscription();
  if (existing && !sameKey(existing.options.applicationServerKey, key)) await existing.unsubscribe();
  const subscription =
    (existing && sameKey(existing.options.applicationServerKey, key) ? existing : null) ??
    (await registration.pushManager.subscribe({ userVisibleOnly: true, applicationServerKey: key }));
  return { kind: 'subscribed', subscription: subscription.toJSON() };
}

/** Drops this browser's subscription when it is `endpoint` (its endpoint row was deleted). */
export async function unsubscribeIfThisDevice(endpoint: string): Promise<void> {
  const subscription = await currentSubscription();
  if (subscription?.endpoint === endpoint) await subscription.unsubscribe();
}
