/** Web push: a lead assigned → the push request at the push service, with 200 devices subscribed across the floor. */
import { freshDb } from '../../server/test/harness';
import { startPushService } from '../../server/test/push-service';
import { pct, round, say } from '../load';
import { seed, startServer } from '../server';
import type { Results } from '../table';

/** Devices with notifications on, spread over the floor's twelve salesmen. */
export const PUSH_DEVICES = 200;
/** Leads assigned in the measure, one every PUSH_GAP_MS (a busy Saturday's minute, squeezed). */
export const PUSH_LEADS = 60;
const PUSH_GAP_MS = 100;
const WARM_UP = 5;

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

export async function pushBench(): Promise<Results> {
  const ps = await startPushService();
  const dbh = await freshDb('sqlite');
  const { cookie } = await seed(dbh);
  const reps = await dbh.db.selectFrom('users').select('id').where('role', '=', 'staff').orderBy('email').execute();
  // Each device subscribed as a browser would (the endpoint and keys of the stand-in's own subscriptions).
  const deviceOf = new Map<string, string>();
  for (let i = 0; i < PUSH_DEVICES; i++) {
    const sub = ps.subscribe();
    const userId = reps[i % reps.length].id;
    deviceOf.set(sub.id, userId);
    await dbh.db
      .insertInto('push_subscriptions')
      .values({
        user_id: userId,
        endpoint: sub.endpoint,
        p256dh: sub.keys.p256dh,
        auth: sub.keys.auth,
        label: 'Bench phone',
        created_at: Date.now(),
        last_used_at: null,
      })
      .execute();
  }
  await dbh.release();
  const server = await startServer({ DATA_DIR: dbh.dir });
  const assign = async (customer: string) => {
    const res = await fetch(`${server.base}/api/rotation/assign`, {
      method: 'POST',
      headers: { cookie, 'content-type': 'application/json' },
      body: JSON.stringify({ customer }),
    });
    const answer = (await res.json()) as { assignedTo?: { id: string } | null };
    if (!res.ok || !answer.assignedTo) throw new Error(`assign ${customer}: ${res.status} ${JSON.stringify(answer)}`);
    return answer.assignedTo.id;
  };
  /** The lead pushes each device should get: a device of the lead's salesman, once. */
  const expected = new Map<string, number>();
  const devicesOf = (userId: string) => [...deviceOf].filter(([, u]) => u === userId).map(([d]) => d);
  const leadPushes = (customer: string) => ps.received.filter((p) => p.title === `New lead: ${customer}`);

  try {
    say(`[push] warming up: ${WARM_UP} leads…`);
    for (let i = 0; i < WARM_UP; i++) {
      const to = await assign(`Push Warm ${i}`);
      await ps.until(() => leadPushes(`Push Warm ${i}`).length >= devicesOf(to).length, 30_000, 'the warm-up pushes');
    }
    say(`[push] ${PUSH_LEADS} leads, one every ${PUSH_GAP_MS} ms, to ${reps.length} salesmen with ${PUSH_DEVICES} devices…`);
    const sentAt = new Map<string, number>();
    const assigns: Promise<void>[] = [];
    for (let i = 0; i < PUSH_LEADS; i++) {
      const customer = `Push Bench ${i}`;
      sentAt.set(customer, Date.now());
      assigns.push(
        assign(customer).then((to) => {
          expected.set(customer, devicesOf(to).length);
        }),
      );
      await sleep(PUSH_GAP_MS);
    }
    await Promise.all(assigns);
    const want = [...expected.values()].reduce((a, b) => a + b, 0);
    const done = () => [...sentAt.keys()].reduce((n, c) => n + leadPushes(c).length, 0) >= want;
    await ps.until(done, 60_000, `${want} lead pushes`).catch(() => undefined);
    const lat: number[] = [];
    let twice = 0;
    let missing = 0;
    for (const [customer, at] of sentAt) {
      const got = leadPushes(customer);
      const devices = new Set(got.map((p) => p.sub));
      twice += got.length - devices.size;
      missing += (expected.get(customer) ?? 0) - devices.size;
      for (const p of got) lat.push(p.at - at);
    }
    say(
      `[push] ${lat.length} lead pushes (${missing} missing, ${twice} twice), ${ps.received.length} pushes in all (with "You're up next"), ${ps.refused.length} refused; assign → push request p50 ${round(pct(lat, 50))} ms, p95 ${round(pct(lat, 95))} ms, max ${round(Math.max(...lat))} ms`,
    );
    if (missing || twice) throw new Error(`push bench: ${missing} lead pushes missing, ${twice} sent twice`);
    return { push_p50_ms: round(pct(lat, 50)), push_p95_ms: round(pct(lat, 95)) };
  } finally {
    await server.stop();
    await ps.close();
    await dbh.drop();
  }
}
