import { call } from '../api/client';

/** This browser's push subscription, if it has one. */
export async function ownSubscription() {
  if (!('serviceWorker' in navigator)) return null;
  const reg = await navigator.serviceWorker.getRegistration('/');
  return (await reg?.pushManager.getSubscription()) ?? null;
}

/**
 * On sign-out: this browser stops getting his pushes (a desk PC's next user must not get his
 * leads, nor their Accept). At most `ms`: signing out never waits on it.
 */
export async function forgetThisDevice(ms = 2000) {
  const forget = async () => {
    const sub = await ownSubscription();
    if (!sub) return;
    const { devices } = await call('GET /push/subscriptions');
    const mine = devices.find((d) => d.endpoint === sub.endpoint);
    if (mine) await call('DELETE /push/subscriptions/:id', { params: { id: mine.id } });
    await sub.unsubscribe();
  };
  await Promise.race([forget().catch(() => undefined), new Promise((r) => setTimeout(r, ms))]);
}
