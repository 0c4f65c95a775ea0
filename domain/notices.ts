import { z } from 'zod';
import { floorState, type BusinessHours } from './hours';
import { formatClock } from './format';
import { wall } from './time';
import { DEFAULT_RULES } from './rule-defaults';
import { CHANNELS, CHOICE_KINDS, type ChoiceKind, type NoticeKind, type Route } from './notice-kinds';

/** A lead handed on from him is told as time running out, one up for grabs as a new lead; the escalation is a rule of its own. */
const CHOICE_OF: Record<Exclude<NoticeKind, 'escalation'>, ChoiceKind> = {
  lead: 'lead',
  up_next: 'up_next',
  time_left: 'time_left',
  handed_on: 'time_left',
  appointment: 'appointment',
  grab: 'lead',
};

const CHANNEL_MSG = 'Choose Push, Text, E-mail or None';
const channel = z.enum(CHANNELS, { error: CHANNEL_MSG });

/** A person's choices, or the dealership's default: one channel per kind. */
export const choicesSchema = z.strictObject(
  { lead: channel, up_next: channel, time_left: channel, appointment: channel },
  { error: (iss) => (iss.code === 'unrecognized_keys' ? `Unknown kind of notice: ${iss.keys.join(', ')}` : 'Choose a channel for each kind of notice') },
);
export type Choices = z.infer<typeof choicesSchema>;

/** The dealership's default before a manager sets one (rule-defaults.ts keeps it with the other rules). */
export const DEFAULT_CHOICES: Choices = DEFAULT_RULES.notify;

/** A person's answer to Settings: his own choices, or null to follow the dealership's. */
export const choicesChangeSchema = z.strictObject(
  { choices: choicesSchema.nullable() },
  { error: (iss) => (iss.code === 'unrecognized_keys' ? `Unknown field: ${iss.keys.join(', ')}` : 'Send your choices, or null for the dealership’s') },
);

/** Stored choices (users.notify, JSON) read with today's schema: a kind missing or no longer valid is the default's. */
export function readChoices(stored: string | null | undefined, fallback: Choices): Choices {
  if (!stored) return fallback;
  let v: unknown;
  try {
    v = JSON.parse(stored);
  } catch {
    return fallback;
  }
  const out: Choices = { ...fallback };
  if (v && typeof v === 'object') {
    for (const k of CHOICE_KINDS) {
      const c = channel.safeParse((v as Record<string, unknown>)[k]);
      if (c.success) out[k] = c.data;
    }
  }
  return out;
}

/** Kinds whose mail the portal sent before push and texts: a person without the device he chose still gets it. */
const MAILED: ReadonlySet<NoticeKind> = new Set(['lead', 'appointment']);

/** What a person can be reached by right now. */
export interface Reach {
  /** He has at least one push subscription. */
  push: boolean;
  /** A confirmed mobile, not STOPped, and texts are set up. */
  sms: boolean;
}

/**
 * Where a notice of this kind goes for him: his choice when he can be reached by it; a new lead
 * or an appointment falls back to mail (as before push and texts) when he cannot, or in quiet
 * hours, which hold back push and texts, never mail. The escalation is a text when he can get one.
 */
export function routeFor(kind: NoticeKind, choices: Choices, reach: Reach, quiet: boolean): Route | null {
  if (kind === 'escalation') return reach.sms && !quiet ? 'sms' : null;
  const chosen = choices[CHOICE_OF[kind]];
  if (chosen === 'none') return null;
  if (chosen === 'email') return 'email';
  if (reach[chosen] && !quiet) return chosen;
  return MAILED.has(kind) ? 'email' : null;
}

/**
 * Quiet hours: outside his working hours nothing buzzes. His working hours are the store's
 * business hours (a store open around the clock is never quiet).
 */
export const isQuiet = (hours: BusinessHours, now: Date, tz: string) => floorState(hours, now, tz).kind === 'closed';

/** The escalation's moment: half the response window after the lead was offered to him. */
export const escalationAt = (offeredAt: number, acceptDue: number) => offeredAt + Math.floor((acceptDue - offeredAt) / 2);

const TIME_LEFT_MS = 2 * 60_000;

/** "2 minutes left": two minutes before his Accept is due; none when the window is no longer than that. */
export const timeLeftAt = (offeredAt: number, acceptDue: number): number | null => (acceptDue - TIME_LEFT_MS > offeredAt ? acceptDue - TIME_LEFT_MS : null);

/** What a notice may say: no more than the lead's card shows. */
export interface NoticeFacts {
  customer?: string;
  vehicle?: string | null;
  /** The Accept's deadline (lead, time left), the appointment's time, or when a lead up for grabs moves on, epoch ms. */
  at?: number | null;
  /** The lead's page (behind sign-in) or the dashboard. */
  link: string;
}

/** A notice's words: the push's title and text, and the text message (which carries the link). */
export interface NoticeWords {
  title: string;
  text: string;
  sms: string;
}

const about = (f: NoticeFacts) => [f.customer, f.vehicle].filter(Boolean).join(', ');

/** Whole minutes left until `at` (at least 1). */
const minutesLeft = (at: number, now: number) => Math.max(1, Math.ceil((at - now) / 60_000));
const plural = (n: number, one: string) => `${n} ${one}${n === 1 ? '' : 's'}`;

export function noticeWords(kind: NoticeKind, f: NoticeFacts, now: Date, tz: string): NoticeWords {
  const who = about(f);
  const by = f.at ? formatClock(new Date(f.at), tz) : null;
  switch (kind) {
    case 'lead':
      return {
        title: `New lead: ${f.customer}`,
        text: [f.vehicle, by && `Accept by ${by}.`].filter(Boolean).join('. ') || 'Open it to accept.',
        sms: `New lead: ${who}. Accept: ${f.link}`,
      };
    case 'up_next':
      return { title: 'You’re up next', text: 'The next lead is yours.', sms: `You’re up next: the next lead is yours. ${f.link}` };
    case 'time_left': {
      const left = plural(f.at ? minutesLeft(f.at, now.getTime()) : 2, 'minute');
      return { title: `${left} left to accept`, text: who, sms: `${left} left to accept ${who}. Accept: ${f.link}` };
    }
    case 'escalation':
      return {
        title: `Still waiting: ${f.customer}`,
        text: [f.vehicle, by && `Accept by ${by}.`].filter(Boolean).join('. '),
        sms: `Still waiting for your Accept: ${who}${by ? `, by ${by}` : ''}. Accept: ${f.link}`,
      };
    case 'handed_on':
      return {
        title: `Handed on: ${f.customer}`,
        text: 'Not accepted in time; it went on to the next salesman.',
        sms: `${who} was handed on: not accepted in time.`,
      };
    case 'grab':
      return {
        title: `Up for grabs: ${f.customer}`,
        text: [f.vehicle, `First to claim gets it${by ? `, until ${by}` : ''}.`].filter(Boolean).join('. '),
        sms: `Up for grabs: ${who}. First to claim gets it: ${f.link}`,
      };
    case 'appointment':
      return {
        title: `Appointment${by ? ` at ${by}` : ''}: ${f.customer}`,
        text: f.vehicle ?? 'Open the lead to get ready.',
        sms: `Appointment${by ? ` at ${by}` : ''}: ${who}. ${f.link}`,
      };
  }
}

/** "9:02:03" on the zone's clock, what a delivery shows on the lead's timeline. */
export function clockSeconds(d: Date, tz: string): string {
  const { hour, minute, second } = wall(d, tz);
  const two = (n: number) => String(n).padStart(2, '0');
  return `${hour % 12 || 12}:${two(minute)}:${two(second)}`;
}

const ROUTE_WORDS: Record<Route, string> = { push: 'Push', sms: 'Text', email: 'E-mail' };

/** A notice on the lead's timeline: "Push sent 9:02:03", "Text delivered 9:02:05", "Text failed: <reason>". */
export function deliveryText(
  n: {
    channel: Route;
    state: 'queued' | 'sent' | 'delivered' | 'failed';
    error: string | null;
    created_at: number;
    sent_at: number | null;
    delivered_at: number | null;
  },
  tz: string,
): string {
  const what = ROUTE_WORDS[n.channel];
  switch (n.state) {
    case 'queued':
      return `${what} waiting to go (queued ${clockSeconds(new Date(n.created_at), tz)})`;
    case 'sent':
      return `${what} sent ${clockSeconds(new Date(n.sent_at ?? n.created_at), tz)}`;
    case 'delivered':
      return `${what} delivered ${clockSeconds(new Date(n.delivered_at ?? n.sent_at ?? n.created_at), tz)}`;
    case 'failed':
      return `${what} failed: ${n.error ?? 'no reason given'}`;
  }
}

/** The retry after `attempts` failed tries: 1 s doubling, at most 5 minutes. */
export const backoffMs = (attempts: number, first = 1000, max = 5 * 60_000) => Math.min(first * 2 ** Math.max(0, attempts - 1), max);

/** Settings → What reaches you: what reaches him now, whether it is his own choice, and the dealership's default. */
export const noticeChoicesAnswer = z.object({ choices: choicesSchema, own: z.boolean(), dealership: choicesSchema });
export type NoticeChoicesAnswer = z.infer<typeof noticeChoicesAnswer>;
