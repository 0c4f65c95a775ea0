import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { DIALECTS, MANAGER, testApp, type TestApp } from '../test/harness';
import { insertUser } from '../users/repo';
import { setPlaces } from '../test/places';
import { until } from '../test/until';
import { openDb } from '../db';
import { inStore } from '../context';
import { sweep } from '../rotation/handout';
import type { Channel, Outgoing, Sent } from './channels';
import { createNoticeSender, noticeBox } from './sender';
import { notify } from './service';

/** A channel in the test's hands: it records what it was given and answers as told. */
function fake() {
  const got: Outgoing[] = [];
  let answer: (n: Outgoing) => Sent = (n) => ({ ok: true, providerId: `p-${n.id}` });
  const channel: Channel = {
    async send(n) {
      const a = answer(n);
      if (a.ok) got.push(n);
      return a;
    },
  };
  return { got, channel, answer: (f: (n: Outgoing) => Sent) => (answer = f) };
}

const timing = { pollMs: 50, backoffMs: 50, maxBackoffMs: 200, leaseMs: 5000 };
const SMS = { SMS_ACCOUNT: 'AC-test', SMS_TOKEN: 'sms-token', SMS_FROM: '+15550000000' };

describe.each(DIALECTS)('notices on %s', (dialect) => {
  let t: TestApp;
  let boss: string;
  const push = fake();
  const sms = fake();
  const mail = fake();
  let ann: string;
  let ben: string;

  beforeAll(async () => {
    t = await testApp(dialect, SMS, { channels: { push: push.channel, sms: sms.channel, email: mail.channel }, noticeTiming: timing, sweepMs: 3_600_000 });
    boss = await t.signIn(MANAGER);
  });
  afterAll(() => t.close());

  beforeEach(async () => {
    for (const table of ['leads', 'notices', 'push_subscriptions', 'rotation_log'] as const) await t.db.deleteFrom(table).execute();
    await t.db.updateTable('rotation_state').set({ pointer_pos: 0 }).execute();
    await t.db.deleteFrom('users').where('email', 'like', 'rep.%').execute();
    await setPlaces(t.db, { on_duty: 0 });
    ann = (await insertUser(t.db, { email: 'rep.ann@dealer.test', name: 'Ann', onDuty: true })).id;
    ben = (await insertUser(t.db, { email: 'rep.ben@dealer.test', name: 'Ben', onDuty: true })).id;
    for (const f of [push, sms, mail]) {
      f.got.length = 0;
      f.answer((n) => ({ ok: true, providerId: `p-${n.id}` }));
    }
  });

  const subscribe = async (userId: string, n: number) => {
    const ids: number[] = [];
    for (let i = 0; i < n; i++) {
      const r = await t.db
        .insertInto('push_subscriptions')
        .values({ user_id: userId, endpoint: `https://push.test/${userId}/${i}`, p256dh: 'k', auth: 'a', label: 'Test phone', created_at: Date.now() })
        .returning('id')
        .executeTakeFirstOrThrow();
      ids.push(Number(r.id));
    }
    return ids;
  };
  const assign = async (customer: string) => {
    const r = await t.app.inject({ method: 'POST', url: '/api/rotation/assign', headers: { cookie: boss }, payload: { customer } });
    expect(r.statusCode).toBe(200);
    return r.json<{ leadId: number; assignedTo: { id: string; name: string } }>();
  };
  const rows = (where: { kind?: string; leadId?: number } = {}) =>
    t.db
      .selectFrom('notices')
      .selectAll()
      .$if(!!where.kind, (q) => q.where('kind', '=', where.kind!))
      .$if(where.leadId !== undefined, (q) => q.where('lead_id', '=', where.leadId!))
      .orderBy('id')
      .execute();

  it('an assign pushes exactly once to each of his devices, with the customer and an Accept; Next Up hears he is; nothing by mail', async () => {
    const devices = await subscribe(ann, 2);
    await subscribe(ben, 1);
    const { leadId, assignedTo } = await assign('Jane Doe');
    expect(assignedTo.name).toBe('Ann');
    await until(() => push.got.filter((n) => n.kind === 'lead').length === 2 && push.got.some((n) => n.kind === 'up_next'), 'pushes for the lead and Next Up');
    const leads = push.got.filter((n) => n.kind === 'lead');
    expect(leads.map((n) => n.target).sort()).toEqual(devices.map(String).sort());
    for (const n of leads)
      expect(n.body).toMatchObject({
        title: 'New lead: Jane Doe',
        url: expect.stringContaining(`/dashboard/associates?lead=${leadId}`),
        accept: expect.any(String),
      });
    expect(push.got.find((n) => n.kind === 'up_next')).toMatchObject({ userId: ben, body: { title: 'You’re up next' } });

    // The same event again (another app server, a replay) is the same rows; a later lead shows nothing more went out.
    await notify(t.store, [{ kind: 'lead', userId: ann, leadId, key: `lead:${leadId}:${ann}` }]);
    await setPlaces(t.db, { on_duty: 0 }, (q) => q.where('id', '=', ben));
    const second = await assign('John Roe');
    await until(() => push.got.filter((n) => n.leadId === second.leadId).length === 2, 'the second lead pushed');
    expect(push.got.filter((n) => n.leadId === leadId)).toHaveLength(2);
    expect(await rows({ leadId })).toHaveLength(2);
    expect((await rows({ leadId })).map((r) => [r.state, r.body, r.provider_id])).toEqual([
      ['sent', '', expect.stringMatching(/^p-/)],
      ['sent', '', expect.stringMatching(/^p-/)],
    ]);
    // He has a device: the lead was not also mailed.
    await t.drained();
    expect(t.smtp.count('rep.ann@dealer.test')).toBe(0);
  });

  it('mails a new lead, as before, to one with no device, and queues no notice for it', async () => {
    const { leadId } = await assign('Mail Only');
    await t.smtp.mailTo('rep.ann@dealer.test', 5000);
    expect(await rows({ leadId })).toEqual([]);
  });

  it('retries a push service that is down with backoff, and sends once after it recovers', async () => {
    await subscribe(ann, 1);
    await setPlaces(t.db, { on_duty: 0 }, (q) => q.where('id', '=', ben));
    push.answer(() => ({ ok: false, error: 'The push service answered 503.' }));
    const { leadId } = await assign('Retry Person');
    await until(async () => (await rows({ leadId, kind: 'lead' }))[0]?.attempts >= 3, 'three attempts');
    const waiting = (await rows({ leadId, kind: 'lead' }))[0];
    expect(waiting).toMatchObject({ state: 'queued', error: 'The push service answered 503.' });
    expect(Number(waiting.next_at)).toBeGreaterThan(Date.now() - 1000);
    push.answer((n) => ({ ok: true, providerId: `p-${n.id}` }));
    await until(async () => (await rows({ leadId, kind: 'lead' }))[0].state === 'sent', 'sent after recovery');
    // A later lead goes out too, and this one was sent exactly once.
    const later = await assign('Later Person');
    await until(() => push.got.some((n) => n.leadId === later.leadId), 'the later push');
    expect(push.got.filter((n) => n.leadId === leadId)).toHaveLength(1);
  });

  it('a device that is gone loses its subscription and its notice fails with the reason; an expired one is given up', async () => {
    const [gone] = await subscribe(ann, 1);
    await setPlaces(t.db, { on_duty: 0 }, (q) => q.where('id', '=', ben));
    push.answer(() => ({ ok: false, error: 'The device is gone (410).', gone: true }));
    const { leadId } = await assign('Gone Device');
    await until(async () => (await rows({ leadId, kind: 'lead' }))[0]?.state === 'failed', 'failed');
    expect((await rows({ leadId, kind: 'lead' }))[0]).toMatchObject({ error: 'The device is gone (410).', body: '' });
    expect(await t.db.selectFrom('push_subscriptions').select('id').where('id', '=', gone).execute()).toEqual([]);

    await subscribe(ann, 1);
    push.answer(() => ({ ok: false, error: 'The push service answered 500.' }));
    const late = await assign('Too Late');
    await until(async () => (await rows({ leadId: late.leadId, kind: 'lead' }))[0]?.attempts >= 1, 'tried');
    await t.db
      .updateTable('notices')
      .set({ expires_at: Date.now() - 1, next_at: Date.now() })
      .where('lead_id', '=', late.leadId)
      .execute();
    await until(async () => (await rows({ leadId: late.leadId, kind: 'lead' }))[0].state === 'failed', 'given up');
    expect((await rows({ leadId: late.leadId, kind: 'lead' }))[0].error).toBe('Expired before it could be sent.');
  });

  it('two app servers on one database send each notice once', async () => {
    const other = await openDb({ databaseUrl: t.dbh.url, dataDir: t.dbh.dir });
    const second = fake();
    const sender = createNoticeSender(other, { push: second.channel }, t.app.ctx.secret, t.app.log, timing);
    try {
      const box = noticeBox(t.app.ctx.secret);
      const now = Date.now();
      const n = 40;
      await t.db
        .insertInto('notices')
        .values(
          Array.from({ length: n }, (_, i) => ({
            user_id: ann,
            store_id: 1,
            lead_id: null,
            kind: 'up_next',
            channel: 'push' as const,
            target: String(i),
            once_key: `both:${i}`,
            body: box.sealJson({ title: `n${i}`, text: '', url: '' }),
            state: 'queued' as const,
            attempts: 0,
            next_at: now,
            lease_until: null,
            expires_at: now + 60_000,
            created_at: now,
          })),
        )
        .execute();
      sender.start();
      t.app.ctx.notices?.wake();
      await until(async () => (await rows({ kind: 'up_next' })).every((r) => r.state === 'sent'), 'all sent');
      const all = [...push.got, ...second.got].filter((x) => x.body.title.startsWith('n'));
      expect(all).toHaveLength(n);
      expect(new Set(all.map((x) => x.id)).size).toBe(n);
    } finally {
      await sender.stop();
      await other.close();
    }
  });

  it('the sweep: a text at half the window even to one who chose push, "2 minutes left" as chosen, and the one who missed it hears it went on', async () => {
    await subscribe(ann, 1);
    await t.db.updateTable('users').set({ mobile: '+15551230001', mobile_confirmed_at: Date.now() }).where('id', '=', ann).execute();
    await setPlaces(t.db, { on_duty: 0 }, (q) => q.where('id', '=', ben));
    const { leadId } = await assign('Slow Sam');
    await setPlaces(t.db, { on_duty: 1 }, (q) => q.where('id', '=', ben));
    const lead = await t.db.selectFrom('leads').select(['offered_at', 'assigned_at', 'accept_due']).where('id', '=', leadId).executeTakeFirstOrThrow();
    const offered = Number(lead.offered_at ?? lead.assigned_at);
    const due = Number(lead.accept_due);
    await until(() => push.got.some((n) => n.leadId === leadId), 'the lead pushed');
    expect(sms.got).toEqual([]);

    // Two app servers sweep at the same moment: one escalation.
    const other = await openDb({ databaseUrl: t.dbh.url, dataDir: t.dbh.dir });
    try {
      const half = new Date(offered + (due - offered) / 2 + 1000);
      await Promise.all([sweep(t.store, half), sweep(inStore({ ...t.app.ctx, dbh: other }, t.store.store), half)]);
    } finally {
      await other.close();
    }
    await until(() => sms.got.length === 1, 'the escalation');
    expect(await rows({ leadId, kind: 'escalation' })).toHaveLength(1);
    expect(sms.got[0]).toMatchObject({
      kind: 'escalation',
      target: '+15551230001',
      body: { text: expect.stringMatching(/^Still waiting for your Accept: Slow Sam, by .*\. Accept: http.*lead=\d+$/) },
    });
    // Swept again: still one escalation.
    await sweep(t.store, new Date(due - 2 * 60_000 + 1000));
    await until(() => push.got.some((n) => n.kind === 'time_left'), '2 minutes left');
    expect(push.got.find((n) => n.kind === 'time_left')?.body.title).toBe('2 minutes left to accept');
    expect(sms.got).toHaveLength(1);

    await sweep(t.store, new Date(due + 1000));
    await until(() => push.got.some((n) => n.kind === 'handed_on'), 'handed on');
    expect(push.got.find((n) => n.kind === 'handed_on')).toMatchObject({ userId: ann, body: { title: 'Handed on: Slow Sam' } });
    // Ben has no device: the lead is mailed to him, as before.
    await t.smtp.mailTo('rep.ben@dealer.test', 5000);
    expect(sms.got).toHaveLength(1);
  });

  it('each person chooses per kind, or follows the dealership’s default a manager sets; a bad choice is refused and changes nothing', async () => {
    const rep = await t.signIn('rep.ann@dealer.test');
    const get = async () => (await t.app.inject({ method: 'GET', url: '/api/profile/notify', headers: { cookie: rep } })).json();
    const put = (payload: object) => t.app.inject({ method: 'PUT', url: '/api/profile/notify', headers: { cookie: rep }, payload });
    const dealership = { lead: 'push', up_next: 'push', time_left: 'push', appointment: 'push' };
    expect(await get()).toEqual({ choices: dealership, own: false, dealership });

    const mine = { lead: 'sms', up_next: 'none', time_left: 'email', appointment: 'push' };
    expect((await put({ choices: mine })).json()).toEqual({ choices: mine, own: true, dealership });
    const bad = await put({ choices: { ...mine, lead: 'fax' } });
    expect([bad.statusCode, bad.json().error]).toEqual([400, 'Choose Push, Text, E-mail or None']);
    expect((await put({ choices: { ...mine, pager: 'push' } })).statusCode).toBe(400);
    expect((await get()).choices).toEqual(mine);

    // A text for a new lead, as he chose; "2 minutes left" by mail.
    await t.db.updateTable('users').set({ mobile: '+15551230003', mobile_confirmed_at: Date.now() }).where('id', '=', ann).execute();
    await setPlaces(t.db, { on_duty: 0 }, (q) => q.where('id', '=', ben));
    const { leadId } = await assign('Text Me');
    await until(() => sms.got.some((n) => n.leadId === leadId), 'the text');
    expect(sms.got.find((n) => n.leadId === leadId)?.body.text).toMatch(
      new RegExp(`^New lead: Text Me\\. Accept: http.*/dashboard/associates\\?lead=${leadId}$`),
    );

    // The manager's default reaches those who follow it.
    const rules = await t.app.inject({
      method: 'PATCH',
      url: '/api/rules',
      headers: { cookie: boss },
      payload: { notify: { ...dealership, up_next: 'none' } },
    });
    expect(rules.statusCode).toBe(200);
    expect((await put({ choices: null })).json()).toEqual({
      choices: { ...dealership, up_next: 'none' },
      own: false,
      dealership: { ...dealership, up_next: 'none' },
    });
    // At once, with no assign in between: "You're up next" is not queued for him any more.
    await subscribe(ann, 1);
    await notify(t.store, [{ kind: 'up_next', userId: ann, leadId: null, key: 'up_next:default-test' }]);
    await notify(t.store, [{ kind: 'handed_on', userId: ann, leadId, key: 'handed_on:default-test' }]);
    expect((await rows()).filter((r) => r.once_key.includes('default-test')).map((r) => r.kind)).toEqual(['handed_on']);
    const refused = await t.app.inject({ method: 'PATCH', url: '/api/rules', headers: { cookie: rep }, payload: { notify: dealership } });
    expect(refused.statusCode).toBe(403);
    await t.app.inject({ method: 'PATCH', url: '/api/rules', headers: { cookie: boss }, payload: { notify: dealership } });
  });

  it('sends no "2 minutes left" still queued once he accepted', async () => {
    await subscribe(ann, 1);
    await setPlaces(t.db, { on_duty: 0 }, (q) => q.where('id', '=', ben));
    const { leadId } = await assign('Quick Accept');
    await until(() => push.got.some((n) => n.leadId === leadId), 'the lead pushed');
    push.answer(() => ({ ok: false, error: 'The push service answered 503.' }));
    const lead = await t.db.selectFrom('leads').select(['accept_due']).where('id', '=', leadId).executeTakeFirstOrThrow();
    await sweep(t.store, new Date(Number(lead.accept_due) - 60_000));
    await until(async () => (await rows({ leadId, kind: 'time_left' }))[0]?.attempts >= 1, 'tried');
    await t.db.updateTable('leads').set({ accepted_at: Date.now(), accept_due: null }).where('id', '=', leadId).execute();
    push.answer((n) => ({ ok: true, providerId: `p-${n.id}` }));
    await until(async () => (await rows({ leadId, kind: 'time_left' }))[0].state === 'failed', 'given up');
    expect((await rows({ leadId, kind: 'time_left' }))[0].error).toBe('Not sent: the lead was accepted or handed on before it could go.');
    expect(push.got.filter((n) => n.kind === 'time_left')).toEqual([]);
  });

  it('sends no text still queued once he sent STOP, or removed the number', async () => {
    await t.db
      .updateTable('users')
      .set({ mobile: '+15551230002', mobile_confirmed_at: Date.now(), notify: JSON.stringify({ lead: 'sms' }) })
      .where('id', '=', ann)
      .execute();
    await setPlaces(t.db, { on_duty: 0 }, (q) => q.where('id', '=', ben));
    sms.answer(() => ({ ok: false, error: 'The provider answered 503.' }));
    const { leadId } = await assign('Stopped Sue');
    await until(async () => (await rows({ leadId, kind: 'lead' }))[0]?.attempts >= 1, 'tried');
    // STOP from his phone (as the signed webhook records it) while the text waits for its retry.
    await t.db.updateTable('users').set({ sms_stopped_at: Date.now() }).where('id', '=', ann).execute();
    sms.answer((n) => ({ ok: true, providerId: `p-${n.id}` }));
    await until(async () => (await rows({ leadId, kind: 'lead' }))[0].state === 'failed', 'given up');
    expect((await rows({ leadId, kind: 'lead' }))[0].error).toBe('Not sent: texts to this number were stopped or it was removed.');
    expect(sms.got).toEqual([]);
    await t.db.updateTable('users').set({ mobile: null, mobile_confirmed_at: null, sms_stopped_at: null, notify: null }).where('id', '=', ann).execute();
  });

  it('shows each delivery on the lead’s timeline, and the KPIs time the assign to the first notice delivered', async () => {
    await subscribe(ann, 1);
    await t.db.updateTable('users').set({ mobile: '+15551230004', mobile_confirmed_at: Date.now() }).where('id', '=', ann).execute();
    await setPlaces(t.db, { on_duty: 0 }, (q) => q.where('id', '=', ben));
    sms.answer(() => ({ ok: false, error: 'The SMS provider answered 400: invalid number', permanent: true }));
    const { leadId } = await assign('Timeline Tess');
    await until(async () => (await rows({ leadId })).some((r) => r.state === 'sent'), 'the push sent');
    const lead = await t.db.selectFrom('leads').select(['offered_at', 'accept_due']).where('id', '=', leadId).executeTakeFirstOrThrow();
    await sweep(t.store, new Date((Number(lead.offered_at) + Number(lead.accept_due)) / 2 + 1000));
    await until(async () => (await rows({ leadId, kind: 'escalation' }))[0]?.state === 'failed', 'the text failed');

    const timeline = await t.app.inject({ method: 'GET', url: `/api/leads/${leadId}/timeline`, headers: { cookie: boss } });
    const notices = timeline.json().entries.filter((e: { type: string }) => e.type === 'notice');
    expect(notices.map((e: { note: string; targetName: string }) => [e.note, e.targetName])).toEqual([
      [expect.stringMatching(/^Push sent \d{1,2}:\d\d:\d\d$/), 'Ann'],
      ['Text failed: The SMS provider answered 400: invalid number', 'Ann'],
    ]);

    const kpis = (await t.app.inject({ method: 'GET', url: '/api/leads/kpis', headers: { cookie: boss } })).json();
    expect(kpis.firstNotice).toMatchObject({ count: 1, medianMs: expect.any(Number) });
    expect(kpis.firstNotice.medianMs).toBeLessThan(10_000);
  });

  it('keeps quiet outside the store’s hours: no push, no text, no escalation; the lead is mailed', async () => {
    await subscribe(ann, 1);
    await t.db.updateTable('users').set({ mobile: '+15551230002', mobile_confirmed_at: Date.now() }).where('id', '=', ann).execute();
    await setPlaces(t.db, { on_duty: 0 }, (q) => q.where('id', '=', ben));
    const closed = Array.from({ length: 7 }, () => null);
    const { leadId } = await (async () => {
      await t.db
        .updateTable('stores')
        .set({ rules: JSON.stringify({ businessHours: closed }) })
        .where('id', '=', 1)
        .execute();
      return assign('Night Owl');
    })();
    await t.smtp.mailTo('rep.ann@dealer.test', 5000);
    const lead = await t.db.selectFrom('leads').select(['offered_at', 'assigned_at', 'accept_due']).where('id', '=', leadId).executeTakeFirstOrThrow();
    if (lead.accept_due !== null) await sweep(t.store, new Date(Number(lead.accept_due) - 60_000));
    expect(await rows({ leadId })).toEqual([]);
    await t.db.updateTable('stores').set({ rules: '' }).where('id', '=', 1).execute();
    expect(push.got).toEqual([]);
    expect(sms.got).toEqual([]);
  });
});
