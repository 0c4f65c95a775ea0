import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import {
  backoffMs,
  choicesChangeSchema,
  choicesSchema,
  clockSeconds,
  DEFAULT_CHOICES,
  deliveryText,
  escalationAt,
  isQuiet,
  noticeWords,
  readChoices,
  routeFor,
  timeLeftAt,
  type Choices,
} from './notices';
import { CHANNELS, CHOICE_KINDS, NOTICE_KINDS } from './notice-kinds';
import { TYPICAL_HOURS } from './hours';
import { DEFAULT_RULES, readRules, rulesSchema } from './rules';

const NY = 'America/New_York';
const LINK = 'https://portal.test/s/main/dashboard/associates?lead=7';
/** 2026-11-23 is a Monday: 10:00 AM in New York. */
const MON_10AM = new Date('2026-11-23T15:00:00Z');

describe('what reaches a salesman', () => {
  const all = (c: Choices['lead']): Choices => ({ lead: c, up_next: c, time_left: c, appointment: c });
  const both = { push: true, sms: true };
  const nothing = { push: false, sms: false };

  it('goes where he chose, when he can be reached there', () => {
    expect(routeFor('lead', all('push'), both, false)).toBe('push');
    expect(routeFor('lead', all('sms'), both, false)).toBe('sms');
    expect(routeFor('up_next', all('email'), nothing, false)).toBe('email');
    expect(routeFor('lead', all('none'), both, false)).toBeNull();
    // A lead handed on from him is told as time running out.
    expect(routeFor('handed_on', { ...all('none'), time_left: 'sms' }, both, false)).toBe('sms');
  });

  it('mails a new lead or an appointment to one who has no device, as before; nothing else falls back', () => {
    expect(routeFor('lead', all('push'), nothing, false)).toBe('email');
    expect(routeFor('appointment', all('sms'), nothing, false)).toBe('email');
    expect(routeFor('up_next', all('push'), nothing, false)).toBeNull();
    expect(routeFor('time_left', all('sms'), nothing, false)).toBeNull();
  });

  it('holds back push and texts in quiet hours, never mail', () => {
    expect(routeFor('lead', all('push'), both, true)).toBe('email');
    expect(routeFor('time_left', all('push'), both, true)).toBeNull();
    expect(routeFor('up_next', all('sms'), both, true)).toBeNull();
    expect(routeFor('lead', all('email'), both, true)).toBe('email');
  });

  it('escalates by text whatever he chose, but only to a mobile that takes texts and never in quiet hours', () => {
    expect(routeFor('escalation', all('push'), both, false)).toBe('sms');
    expect(routeFor('escalation', all('none'), both, false)).toBe('sms');
    expect(routeFor('escalation', all('push'), { push: true, sms: false }, false)).toBeNull();
    expect(routeFor('escalation', all('sms'), both, true)).toBeNull();
  });

  it('never sends what cannot reach him (property)', () => {
    const ch = fc.constantFrom(...CHANNELS);
    fc.assert(
      fc.property(fc.constantFrom(...NOTICE_KINDS), ch, ch, ch, ch, fc.boolean(), fc.boolean(), fc.boolean(), (kind, a, b, c, d, push, sms, quiet) => {
        const r = routeFor(kind, { lead: a, up_next: b, time_left: c, appointment: d }, { push, sms }, quiet);
        if (r === 'push') expect(push && !quiet).toBe(true);
        if (r === 'sms') expect(sms && !quiet).toBe(true);
        if (r === 'email') expect(kind).not.toBe('escalation');
      }),
    );
  });
});

describe('choices', () => {
  it('are one of Push, Text, E-mail or None per kind, with a clear refusal otherwise', () => {
    expect(choicesSchema.parse(DEFAULT_CHOICES)).toEqual(DEFAULT_CHOICES);
    expect(choicesSchema.safeParse({ ...DEFAULT_CHOICES, lead: 'fax' }).error?.issues[0].message).toBe('Choose Push, Text, E-mail or None');
    expect(choicesSchema.safeParse({ ...DEFAULT_CHOICES, pager: 'push' }).error?.issues[0].message).toBe('Unknown kind of notice: pager');
    expect(choicesChangeSchema.parse({ choices: null })).toEqual({ choices: null });
  });

  it('read from storage take the default for what is missing or not valid', () => {
    const store: Choices = { lead: 'sms', up_next: 'none', time_left: 'push', appointment: 'email' };
    expect(readChoices(null, store)).toEqual(store);
    expect(readChoices('not json', store)).toEqual(store);
    expect(readChoices(JSON.stringify({ lead: 'push', up_next: 'carrier pigeon' }), store)).toEqual({ ...store, lead: 'push' });
  });

  it('have a dealership default among the rules, read from a record saved before it', () => {
    expect(DEFAULT_RULES.notify).toEqual({ lead: 'push', up_next: 'push', time_left: 'push', appointment: 'push' });
    const { notify: _, ...before } = DEFAULT_RULES;
    expect(readRules(before).notify).toEqual(DEFAULT_CHOICES);
    expect(rulesSchema.shape.notify.safeParse({ ...DEFAULT_CHOICES, lead: 'pager' }).success).toBe(false);
    for (const k of CHOICE_KINDS) expect(DEFAULT_CHOICES[k]).toBeDefined();
  });
});

describe('quiet hours, the escalation and time running out', () => {
  it('are quiet while the store is closed, never when it is open around the clock', () => {
    expect(isQuiet(TYPICAL_HOURS, MON_10AM, NY)).toBe(false);
    expect(isQuiet(TYPICAL_HOURS, new Date('2026-11-23T04:00:00Z'), NY)).toBe(true);
    // Sunday: closed all day.
    expect(isQuiet(TYPICAL_HOURS, new Date('2026-11-22T17:00:00Z'), NY)).toBe(true);
    expect(isQuiet(null, new Date('2026-11-22T04:00:00Z'), NY)).toBe(false);
  });

  it('escalates at half the window and warns two minutes before it ends', () => {
    const offered = MON_10AM.getTime();
    expect(escalationAt(offered, offered + 10 * 60_000)).toBe(offered + 5 * 60_000);
    expect(timeLeftAt(offered, offered + 10 * 60_000)).toBe(offered + 8 * 60_000);
    // A window of two minutes or less has no warning: it would come with the lead.
    expect(timeLeftAt(offered, offered + 2 * 60_000)).toBeNull();
  });

  it('escalate strictly inside the window (property)', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 2e12 }), fc.integer({ min: 2, max: 120 * 60_000 }), (offered, window) => {
        const at = escalationAt(offered, offered + window);
        expect(at).toBeGreaterThan(offered);
        expect(at).toBeLessThan(offered + window);
        const left = timeLeftAt(offered, offered + window);
        if (left !== null) expect(left).toBeGreaterThan(offered);
      }),
    );
  });

  it('back off doubling from a second up to five minutes', () => {
    expect([1, 2, 3, 4].map((n) => backoffMs(n))).toEqual([1000, 2000, 4000, 8000]);
    expect(backoffMs(30)).toBe(5 * 60_000);
  });
});

describe('what a notice says', () => {
  const lead = { customer: 'Jane Doe', vehicle: '2024 Accord', at: MON_10AM.getTime() + 10 * 60_000, link: LINK };

  it('a new lead: the customer and vehicle; a text carries the link to the lead behind sign-in', () => {
    expect(noticeWords('lead', lead, MON_10AM, NY)).toEqual({
      title: 'New lead: Jane Doe',
      text: '2024 Accord. Accept by 10:10 AM.',
      sms: `New lead: Jane Doe, 2024 Accord. Accept: ${LINK}`,
    });
  });

  it('the others, short', () => {
    expect(noticeWords('up_next', { link: LINK }, MON_10AM, NY).title).toBe('You’re up next');
    expect(noticeWords('time_left', { ...lead, at: MON_10AM.getTime() + 2 * 60_000 }, MON_10AM, NY)).toMatchObject({
      title: '2 minutes left to accept',
      sms: `2 minutes left to accept Jane Doe, 2024 Accord. Accept: ${LINK}`,
    });
    expect(noticeWords('time_left', { ...lead, at: MON_10AM.getTime() + 30_000 }, MON_10AM, NY).title).toBe('1 minute left to accept');
    expect(noticeWords('escalation', lead, MON_10AM, NY).sms).toBe(`Still waiting for your Accept: Jane Doe, 2024 Accord, by 10:10 AM. Accept: ${LINK}`);
    expect(noticeWords('handed_on', lead, MON_10AM, NY).title).toBe('Handed on: Jane Doe');
    expect(noticeWords('appointment', { ...lead, at: MON_10AM.getTime() + 3600_000 }, MON_10AM, NY).title).toBe('Appointment at 11:00 AM: Jane Doe');
  });

  it('never more than the card: no phone, no e-mail, no comments (property)', () => {
    fc.assert(
      fc.property(fc.constantFrom(...NOTICE_KINDS), fc.string({ minLength: 1, maxLength: 30 }), (kind, customer) => {
        const w = noticeWords(kind, { customer, vehicle: null, at: null, link: LINK }, MON_10AM, NY);
        for (const s of [w.title, w.text, w.sms]) expect(s).not.toMatch(/undefined|null/);
      }),
    );
  });
});

describe('a delivery on the lead’s timeline', () => {
  const base = {
    created_at: Date.parse('2026-11-23T14:02:01Z'),
    sent_at: Date.parse('2026-11-23T14:02:03Z'),
    delivered_at: Date.parse('2026-11-23T14:02:05Z'),
    error: null,
  };
  it('reads "Push sent 9:02:03", "Text delivered 9:02:05", "Text failed: <reason>"', () => {
    expect(clockSeconds(new Date(base.sent_at), NY)).toBe('9:02:03');
    expect(deliveryText({ ...base, channel: 'push', state: 'sent' }, NY)).toBe('Push sent 9:02:03');
    expect(deliveryText({ ...base, channel: 'sms', state: 'delivered' }, NY)).toBe('Text delivered 9:02:05');
    expect(deliveryText({ ...base, channel: 'sms', state: 'failed', error: 'Unreachable number' }, NY)).toBe('Text failed: Unreachable number');
  });
});
