/*
 * Portfolio Guard's service worker (docs/notifications.md#web-push), served at /sw.js with scope /.
 * It only shows alerts: a `push` carries JSON {title, body, url, tag} from the server
 * (server/src/channels/webpush/sender.ts) and becomes a notification; a tap focuses a tab of the
 * app already open (taking it to the alert's page) or opens one. No caching, no offline pages.
 */

self.addEventListener('install', () => {
  self.skipWaiting();
});

self.addEventListener('activate', (event) => {
  event.waitUntil(self.clients.claim());
});

/** The push's JSON, or a plain alert when it has none (a push must always show something). */
function noticeOf(data) {
  const fallback = {
    title: 'Portfolio Guard alert',
    body: 'Open Portfolio Guard to see it.',
    url: '/history',
    tag: 'portfolio-guard',
  };
  if (!data) return fallback;
  try {
    const notice = data.json();
    return { ...fallback, ...notice };
  } catch {
    return { ...fallback, body: data.text() || fallback.body };
  }
}

self.addEventListener('push', (event) => {
  const notice = noticeOf(event.data);
  event.waitUntil(
    self.registration.showNotification(notice.title, {
      body: notice.body,
      tag: notice.tag,
      // A newer notice for the same rule replaces the older one; it still alerts.
      renotify: true,
      data: { url: notice.url },
      icon: '/icons/icon-192.png',
      badge: '/icons/badge-96.png',
      lang: 'en-IN',
    }),
  );
});

/** The URL to open, kept on this app's origin. */
function targetOf(notification) {
  try {
    const url = new URL(
      notification.data && notification.data.url ? notification.data.url : '/',
      self.location.origin,
    );
    return url.origin === self.location.origin ? url.href : new URL('/', self.location.origin).href;
  } catch {
    return new URL('/', self.location.origin).href;
  }
}

self.addEventListener('notificationclick', (event) => {
  event.notification.close();
  const target = targetOf(event.notification);
  event.waitUntil(
    self.clients.matchAll({ type: 'window', includeUncontrolled: true }).then((windows) => {
      const open = windows.find((w) => w.url.startsWith(self.location.origin));
      if (open) return open.focus().then((w) => (w && 'navigate' in w ? w.navigate(target) : w));
      return self.clients.openWindow(target);
    }),
  );
});
