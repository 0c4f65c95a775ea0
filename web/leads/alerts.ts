import type { Lead } from '../api/leads';
import { storePath } from '../../domain/stores';

/** What this browser lets the portal do about notifications. */
export type AlertPermission = NotificationPermission | 'unsupported';

export const alertPermission = (): AlertPermission => (typeof Notification === 'undefined' ? 'unsupported' : Notification.permission);

export async function askForAlerts(): Promise<AlertPermission> {
  if (typeof Notification === 'undefined') return 'unsupported';
  return Notification.requestPermission();
}

/**
 * Tells a salesman of a new lead while the portal is in the background. Phones show
 * notifications only through the service worker; desktop browsers without one take the plain kind.
 */
export function showLeadNotification(lead: Lead, store: string) {
  if (alertPermission() !== 'granted') return;
  const title = `New lead: ${lead.customer}`;
  // The lead's own store: the click opens it there whichever store the tab shows by then.
  const url = storePath(store, `/dashboard/associates?lead=${lead.id}`);
  const options: NotificationOptions = {
    body: lead.acceptDue ? 'Open the portal to accept it before the time runs out.' : 'Open the portal to accept it.',
    // The push about the same lead (sw.js) has the same tag: one notification, not two.
    tag: url,
    icon: '/icons/icon-192.png',
    data: { url },
  };
  const plain = () => {
    const n = new Notification(title, options);
    n.onclick = () => {
      window.focus();
      n.close();
    };
  };
  if ('serviceWorker' in navigator && navigator.serviceWorker.controller) {
    void navigator.serviceWorker.ready
      .then(async (r) => {
        // The push came first: it stays, with its Accept.
        if ((await r.getNotifications({ tag: url })).length) return;
        await r.showNotification(title, options);
      })
      .catch(plain);
  } else plain();
}

/** The service worker makes the portal installable; it keeps no copy of any API answer (see sw.js). */
export function registerServiceWorker() {
  if (!('serviceWorker' in navigator) || !window.isSecureContext) return;
  navigator.serviceWorker.register('/sw.js').catch(() => undefined);
}
