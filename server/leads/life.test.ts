import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { DIALECTS, MANAGER, testApp, type TestApp } from '../test/harness';
import { insertUser } from '../users/repo';
import { dayKey } from '../../domain/time';
import { localTimeOf } from '../../domain/stages';
import { atClock } from '../../domain/hours';
import { sweep } from '../rotation/handout';

const HOUR = 3_600_000;

/**
 * A lead's life through the API: accept, contact with the next follow-up, appointment, shown,
 * Sold with its sale (once per action id), Lost with a reason and Reopen; who may do what; and
 * what a bad request gets.
 */
describe.each(DIALECTS)("a lead's life on %s", (dialect) => {
  let t: TestApp;
  let boss: string;
  let ann: { id: string; cookie: string };
  let ben: { id: string; cookie: string };
  let tz = '';

  const call = (cookie: string, method: 'GET' | 'POST' | 'PATCH', url: string, payload?: object) =>
    t.app.inject({ method, url: `/api${url}`, headers: { cookie }, payload });
  const row = (id: number) => t.db.selectFrom('leads').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
  /** A time n hours from now on the store's clock, as a date-time field sends it. */
  const local = (hours: number) => {
    const d = new Date(Date.now() + hours * HOUR);
    const w = new Intl.DateTimeFormat('en-GB', { timeZone: tz, hour: '2-digit', minute: '2-digit', hourCycle: 'h23' }).format(d);
    return `${dayKey(d, tz)}T${w}`;
  };
  const today = () => dayKey(new Date(), tz);
  /** The appointment's time has come: it was a minute ago. */
  const comeToAppointment = (id: number) =>
    t.db
      .updateTable('leads')
      .set({ appointment_at: Date.now() - 60_000 })
      .where('id', '=', id)
      .execute();

  beforeAll(async () => {
    t = await testApp(dialect);
    tz = t.store.config.APP_TIMEZONE;
    boss = await t.signIn(MANAGER);
    const a = await insertUser(t.db, { email: 'ann.life@dealer.test', name: 'Ann Life', onDuty: true });
    const b = await insertUser(t.db, { email: 'ben.life@dealer.test', name: 'Ben Life' });
    ann = { id: a.id, cookie: await t.signIn('ann.life@dealer.test') };
    ben = { id: b.id, cookie: await t.signIn('ben.life@dealer.test') };
  });
  afterAll(() => t.close());

  let lead = 0;
  beforeEach(async () => {
    const r = await call(boss, 'POST', '/rotation/assign', { customer: `Life ${Date.now()}` });
    expect(r.json().assignedTo.id).toBe(ann.id);
    lead = r.json().leadId;
  });

  it('walks from Waiting for accept to Sold, each step on the timeline with who and when, and the sale names its customer and lead', async () => {
    const l = await row(lead);
    expect((await call(ann.cookie, 'GET', `/leads/mine?q=${encodeURIComponent(l.customer)}`)).json().leads[0].stage).toBe('waiting');
    // Overdue before the contact; the contact's next follow-up clears it.
    await t.db
      .updateTable('leads')
      .set({ follow_up_due: Date.now() - HOUR })
      .where('id', '=', lead)
      .execute();
    const next = local(30);
    const contact = await call(ann.cookie, 'POST', `/leads/${lead}/contact`, {
      channel: 'Call',
      outcome: 'Talked',
      note: 'Wants a test drive',
      nextFollowUp: next,
    });
    expect(contact.statusCode, contact.body).toBe(200);
    expect(contact.json().lead).toMatchObject({ stage: 'contacted', overdue: false });
    expect(Number((await row(lead)).follow_up_due)).toBe(atClock(next.slice(0, 10), next.slice(11), tz).getTime());
    const at = local(48);
    expect((await call(ann.cookie, 'POST', `/leads/${lead}/appointment`, { at })).json().lead).toMatchObject({
      stage: 'appointment',
      can: { markShown: false },
    });
    // Two days ahead: not shown, nor a no-show, before its day.
    expect((await call(boss, 'POST', `/leads/${lead}/shown`, { shown: true })).json()).toEqual({
      error: 'Mark Shown or No-show on the day of the appointment.',
    });
    expect((await call(boss, 'POST', `/leads/${lead}/shown`, { shown: false })).json()).toEqual({
      error: 'Mark Shown or No-show on the day of the appointment.',
    });
    expect((await row(lead)).stage).toBe('appointment');
    await comeToAppointment(lead);
    expect((await call(boss, 'POST', `/leads/${lead}/shown`, { shown: true })).json().lead.stage).toBe('shown');
    const sold = await call(ann.cookie, 'POST', `/leads/${lead}/sold`, {
      actionId: `sold-${lead}`,
      date: today(),
      frontGross: '2,500',
      vehicleType: 'used',
      split: 'full',
    });
    expect(sold.statusCode, sold.body).toBe(200);
    expect(sold.json().lead).toMatchObject({ stage: 'sold', closed: true, closedByName: 'Ann Life' });
    expect(sold.json().sale).toMatchObject({
      customer: l.customer,
      leadId: lead,
      frontGrossCents: 250000,
      commissionCents: 75000,
      vehicleType: 'used',
      repName: 'Ann Life',
    });
    const sales = (await call(ann.cookie, 'GET', '/sales')).json().sales;
    expect(sales.filter((s: { leadId: number }) => s.leadId === lead)).toHaveLength(1);
    const entries = (await call(boss, 'GET', `/leads/${lead}/timeline`)).json().entries;
    expect(entries.map((e: { type: string; actorName: string }) => `${e.type} ${e.actorName}`)).toEqual([
      'assigned User',
      'accepted Ann Life',
      'contacted Ann Life',
      'appointment_set Ann Life',
      'shown User',
      'sold Ann Life',
    ]);
    expect(entries[2]).toMatchObject({ channel: 'Call', outcome: 'Talked', note: 'Wants a test drive' });
    expect(Date.parse(entries[3].appointmentAt)).toBe(atClock(at.slice(0, 10), at.slice(11), tz).getTime());
    // Sold is the end: nothing moves it.
    expect((await call(ann.cookie, 'POST', `/leads/${lead}/contact`, { channel: 'Text' })).json().error).toBe('This lead is sold.');
    expect((await call(boss, 'POST', `/leads/${lead}/reopen`)).statusCode).toBe(409);
  });

  it('a contact without a time sets the next follow-up from the rule; a no-show returns the lead to Contacted', async () => {
    expect((await call(boss, 'PATCH', '/rules', { nextFollowUpHours: 5 })).statusCode).toBe(200);
    const before = Date.now();
    await call(ann.cookie, 'POST', `/leads/${lead}/contact`, { channel: 'Text' });
    const due = Number((await row(lead)).follow_up_due);
    expect(due).toBeGreaterThanOrEqual(before + 5 * HOUR);
    expect(due).toBeLessThan(Date.now() + 5 * HOUR + 1000);
    await call(ann.cookie, 'POST', `/leads/${lead}/appointment`, { at: local(3) });
    await comeToAppointment(lead);
    const noShow = await call(ann.cookie, 'POST', `/leads/${lead}/shown`, { shown: false });
    expect(noShow.json().lead).toMatchObject({ stage: 'contacted', appointmentAt: null });
    expect((await call(ann.cookie, 'POST', `/leads/${lead}/shown`, { shown: true })).json().error).toBe('This lead has no appointment to mark.');
    await call(boss, 'PATCH', '/rules', { nextFollowUpHours: 24 });
  });

  it('Sold twice with one action id makes one sale, even at once; another Sold is refused', async () => {
    const body = { actionId: `twice-${lead}`, date: today(), frontGross: '1800' };
    const answers = await Promise.all([1, 2, 3].map(() => call(ann.cookie, 'POST', `/leads/${lead}/sold`, body)));
    expect(answers.map((a) => a.statusCode)).toEqual([200, 200, 200]);
    expect(new Set(answers.map((a) => a.json().sale.id)).size).toBe(1);
    const sales = await t.db.selectFrom('sales').select('id').where('lead_id', '=', lead).execute();
    expect(sales).toHaveLength(1);
    const other = await call(ann.cookie, 'POST', `/leads/${lead}/sold`, { ...body, actionId: `other-${lead}` });
    expect(other.statusCode).toBe(409);
    expect(await t.db.selectFrom('sales').select('id').where('lead_id', '=', lead).execute()).toHaveLength(1);
  });

  it("another salesman cannot move, sell or log contacts on Ann's lead, and a manager cannot sell it for her", async () => {
    const before = await row(lead);
    const tries: [string, string, object][] = [
      [ben.cookie, 'contact', { channel: 'Call' }],
      [ben.cookie, 'appointment', { at: local(5) }],
      [ben.cookie, 'sold', { actionId: 'ben-1', date: today(), frontGross: '900' }],
      [ben.cookie, 'lost', { reason: 'Credit' }],
      [ben.cookie, 'shown', { shown: true }],
      [boss, 'sold', { actionId: 'boss-1', date: today(), frontGross: '900' }],
      [boss, 'contact', { channel: 'Call' }],
    ];
    for (const [cookie, step, body] of tries) {
      const r = await call(cookie, 'POST', `/leads/${lead}/${step}`, body);
      expect(r.statusCode, step).toBe(403);
      expect(r.json().error, step).not.toContain('Ann');
    }
    expect(await row(lead)).toEqual(before);
    expect(await t.db.selectFrom('sales').select('id').where('lead_id', '=', lead).execute()).toEqual([]);
  });

  it('Lost asks for a reason; Reopen returns the lead to Contacted', async () => {
    expect((await call(ann.cookie, 'POST', `/leads/${lead}/lost`, {})).json().error).toBe('Choose why the lead was lost');
    const lost = await call(ann.cookie, 'POST', `/leads/${lead}/lost`, { reason: 'Bought elsewhere', note: 'Found one cheaper' });
    expect(lost.json().lead).toMatchObject({ stage: 'lost', lostReason: 'Bought elsewhere', closed: true });
    const reopened = await call(ann.cookie, 'POST', `/leads/${lead}/reopen`);
    expect(reopened.json().lead).toMatchObject({ stage: 'contacted', lostReason: null, closed: false });
  });

  it('a lead closed with no stage kept reads Closed (before stages), offers no contact or appointment, and the server refuses them', async () => {
    // As a lead closed before stages (or by the old demo) was left: closed, accepted, no stage.
    const at = Date.now() - HOUR;
    await t.db.updateTable('leads').set({ closed: 1, status: 'closed', closed_at: at, accepted_at: at, stage: null }).where('id', '=', lead).execute();
    const before = await row(lead);
    const l = (await call(ann.cookie, 'GET', `/leads/mine?q=${encodeURIComponent(before.customer)}`)).json().leads[0];
    expect(l).toMatchObject({ stage: 'closed', closed: true });
    // Reopening a lead someone else closed is a manager's.
    expect(l.can).toMatchObject({ contact: false, appoint: false, sell: false, lose: false, reopen: false });
    const refusal = 'This lead was closed before stages were kept. Reopen it first.';
    expect((await call(ann.cookie, 'POST', `/leads/${lead}/contact`, { channel: 'Text' })).json()).toEqual({ error: refusal });
    expect((await call(ann.cookie, 'POST', `/leads/${lead}/appointment`, { at: local(3) })).json()).toEqual({ error: refusal });
    expect(await row(lead)).toEqual(before);
    expect((await call(boss, 'POST', `/leads/${lead}/reopen`)).json().lead).toMatchObject({ stage: 'contacted', closed: false });
  });

  it("exports each lead with its stage and lost reason, its times on the store's clock", async () => {
    await call(ann.cookie, 'POST', `/leads/${lead}/lost`, { reason: 'Credit' });
    const l = await row(lead);
    const csv = (await call(boss, 'GET', '/leads/export.csv')).body.split('\r\n');
    expect(csv[0]).toBe(
      'Lead,Store,Customer,Source,Salesman,Assigned,Accepted,SecondsToAccept,FirstContact,SecondsToFirstContact,HandedOn,Stage,LostReason,Closed',
    );
    const at = localTimeOf(new Date(Number(l.assigned_at)), tz).replace('T', ' ');
    expect(csv.find((line) => line.startsWith(`${lead},`))).toBe(`${lead},MAIN,${l.customer},BDC Portal,Ann Life,${at},,,,,0,Lost,Credit,yes`);
  });

  it('reminds the salesman an hour before an appointment, once', async () => {
    const reminders = () => t.smtp.inbox.filter((m) => m.to.includes('ann.life@dealer.test') && m.subject.startsWith('Appointment at '));
    /** The reminders once there are n of them (mail leaves the outbox shortly after the sweep). */
    const untilReminders = async (n: number) => {
      await expect.poll(() => reminders().length, { timeout: 5000 }).toBeGreaterThanOrEqual(n);
      return reminders();
    };
    const before = reminders().length;
    const l = await row(lead);
    await call(ann.cookie, 'POST', `/leads/${lead}/appointment`, { at: local(0.8) });
    await sweep(t.store);
    const [mail] = (await untilReminders(before + 1)).slice(before);
    expect(mail.subject).toMatch(new RegExp(`^Appointment at .+: ${l.customer}$`));
    expect(mail.text).toContain('mark Shown or No-show');
    // A second sweep sends nothing more: the next reminder she gets is the next appointment's.
    await sweep(t.store);
    const other = (await call(boss, 'POST', '/rotation/assign', { customer: `Second ${Date.now()}` })).json().leadId;
    await call(ann.cookie, 'POST', `/leads/${other}/appointment`, { at: local(0.5) });
    await sweep(t.store);
    const after = (await untilReminders(before + 2)).slice(before);
    expect(after.map((m) => m.subject.split(': ')[1])).toEqual([l.customer, (await row(other)).customer]);
  });

  it("lists today's appointments: a salesman his own, a manager every one", async () => {
    const at = local(0.1);
    await call(ann.cookie, 'POST', `/leads/${lead}/appointment`, { at });
    // Minutes before midnight the appointment falls tomorrow: then no one lists it today.
    const today = at.slice(0, 10) === dayKey(new Date(), tz);
    const ids = async (cookie: string) => (await call(cookie, 'GET', '/leads/appointments')).json().leads.map((l: { id: number }) => l.id);
    expect((await ids(ann.cookie)).includes(lead)).toBe(today);
    expect((await ids(boss)).includes(lead)).toBe(today);
    expect(await ids(ben.cookie)).not.toContain(lead);
  });

  it("the day's floor report counts appointments set and leads sold, per salesman and for the team", async () => {
    const report = async () => (await call(boss, 'GET', '/floor/report')).json().report;
    const ann0 = (r: { associates: { name: string; appointments: number; sold: number; closed: number }[] }) =>
      r.associates.find((a) => a.name === 'Ann Life')!;
    const before = await report();
    await call(ann.cookie, 'POST', `/leads/${lead}/appointment`, { at: local(5) });
    await call(ann.cookie, 'POST', `/leads/${lead}/sold`, { actionId: `floor-${lead}`, date: today(), frontGross: '1200' });
    const after = await report();
    // Minutes before midnight the steps may fall on the next day: then they are that day's.
    if (dayKey(new Date(), tz) !== before.day) return;
    expect(ann0(after)).toMatchObject({
      appointments: ann0(before).appointments + 1,
      sold: ann0(before).sold + 1,
      closed: ann0(before).closed + 1,
    });
    expect(after.team).toMatchObject({ appointments: before.team.appointments + 1, sold: before.team.sold + 1 });
    const csv = (await t.app.inject({ method: 'GET', url: '/api/floor/report.csv', headers: { cookie: boss } })).body.split('\r\n');
    expect(csv[0]).toMatch(/,Leads closed,Appointments set,Sold$/);
  });

  it('refuses bad input with a clear message and changes nothing', async () => {
    const before = await row(lead);
    const bad: [string, object, RegExp][] = [
      ['appointment', { at: local(-3) }, /Appointment cannot be in the past/],
      ['appointment', { at: local(24 * 400) }, /within a year/],
      ['appointment', { at: '2026-02-30T10:00' }, /date and time like/],
      ['appointment', { at: 'tomorrow' }, /date and time like/],
      ['appointment', {}, /Appointment must be a date and time/],
      ['contact', { channel: 'Call', outcome: 'Maybe' }, /Outcome must be one of/],
      ['contact', { channel: 'Call', nextFollowUp: local(-2) }, /Next follow-up cannot be in the past/],
      ['contact', { channel: 'Call', note: 'x'.repeat(10_000) }, /too long|at most/i],
      ['contact', { channel: 'Call', note: 'bad\u0000note' }, /NUL|invalid/],
      ['lost', { reason: 'y'.repeat(61) }, /too long|at most/i],
      ['sold', { date: today(), frontGross: '900' }, /actionId required/],
      ['sold', { actionId: 'x', date: '2999-01-01', frontGross: '900' }, /future/],
      ['sold', { actionId: 'x', date: today(), frontGross: 'lots' }, /gross/i],
      ['shown', { shown: 'yes' }, /shown true or false/],
    ];
    for (const [step, body, error] of bad) {
      const r = await call(ann.cookie, 'POST', `/leads/${lead}/${step}`, body);
      expect(r.statusCode, `${step} ${JSON.stringify(body).slice(0, 50)}`).toBe(400);
      expect(r.json().error).toMatch(error);
    }
    expect(await row(lead)).toEqual(before);
  });
});
