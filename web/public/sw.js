// Plain JavaScript served as it is (a service worker runs in its own global scope, which the type check of web/ does not know).
// The portal's service worker: it makes the app installable, shows lead notifications and the
// server's pushes (server/notices/push.ts), whose Accept accepts the lead without opening the app.
// It caches nothing: every answer, above all the API's, comes from the network as it is.
self.addEventListener('install', () => self.skipWaiting());
self.addEventListener('activate', (event) => event.waitUntil(self.clients.claim()));
self.addEventListener('fetch', () => {
  // No respondWith: the browser fetches as if there were no worker.
});

const HOME = '/dashboard/overview';
const ICON = '/icons/icon-192.png';

/** The link's place in the portal, opened on this origin whatever address it names. */
function ownPath(link) {
  try {
    const u = new URL(link, self.location.origin);
    return u.pathname + u.search + u.hash;
  } catch {
    return HOME;
  }
}

/** A push: what the lead's card shows ({title, text, url, accept?}), with Accept (when it carries a token) and Open. */
self.addEventListener('push', (event) => {
  let d = {};
  try {
    d = (event.data && event.data.json()) || {};
  } catch {
    d = { text: event.data ? event.data.text() : '' };
  }
  const url = ownPath(d.url);
  const accept = typeof d.accept === 'string' ? d.accept : null;
  const actions = accept
    ? [
        { action: 'accept', title: 'Accept' },
        { action: 'open', title: 'Open' },
      ]
    : [{ action: 'open', title: 'Open' }];
  event.waitUntil(
    self.registration.showNotification(d.title || 'BDC Portal', {
      body: d.text || '',
      icon: ICON,
      // A later push about the same lead takes the earlier one's place.
      tag: url,
      renotify: true,
      data: { url, accept },
      actions,
    }),
  );
});

/** Accepts on their way, by token: a second tap on Accept meanwhile does nothing. */
const accepting = new Set();

/** Accept from the notification: the token alone accepts this lead for him, once; the answer shows in its place. */
async function acceptFrom(notification) {
  const { url, accept } = notification.data;
  accepting.add(accept);
  try {
    let title = 'Lead accepted';
    let body = notification.title;
    try {
      const res = await fetch('/api/push/accept', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        credentials: 'omit',
        body: JSON.stringify({ token: accept }),
      });
      if (!res.ok) {
        const said = await res.json().catch(() => null);
        title = 'Not accepted';
        body = (said && typeof said.error === 'string' && said.error) || 'The lead could not be accepted. Open it in the portal.';
      }
    } catch {
      title = 'Not accepted';
      body = 'The portal cannot be reached. Check your connection, then open the lead to accept it.';
    }
    await self.registration.showNotification(title, { body, icon: ICON, tag: url, data: { url, accept: null }, actions: [{ action: 'open', title: 'Open' }] });
  } finally {
    accepting.delete(accept);
  }
}

function open(url) {
  return self.clients.matchAll({ type: 'window', includeUncontrolled: true }).then((list) => {
    for (const c of list) {
      if ('focus' in c) {
        c.navigate(url);
        return c.focus();
      }
    }
    return self.clients.openWindow(url);
  });
}

self.addEventListener('notificationclick', (event) => {
  const data = event.notification.data || {};
  // Accept's answer takes the notification's place (the same tag, so the same notification to the
  // browser): closing it first could land after the answer and close that instead.
  if (event.action === 'accept' && data.accept) {
    if (!accepting.has(data.accept)) event.waitUntil(acceptFrom(event.notification));
    return;
  }
  event.notification.close();
  event.waitUntil(open(data.url || HOME));
});
