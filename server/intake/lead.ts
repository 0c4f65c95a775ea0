import type { Prospect, TradeIn } from './adf';
import { MAX_DEALER, type Dealer } from '../../domain/dealers';
import type { LeadTraits } from '../../domain/routing';

/** The customer's name folded for comparison: case, accents' composition and runs of spaces do not count. */
export const customerKey = (name: string) => name.normalize('NFC').trim().replace(/\s+/g, ' ').toLowerCase();

/** A phone number as digits, without a leading US country code: "(843) 555-0101" and "+1 843.555.0101" are one. */
export const phoneKey = (phone: string | null | undefined) => {
  const d = (phone ?? '').replace(/\D/g, '');
  return d.length === 11 && d.startsWith('1') ? d.slice(1) : d;
};
const emailKey = (email: string | null | undefined) => (email ?? '').trim().toLowerCase();

export interface Who {
  /** customerKey of the name as sent. */
  key: string;
  phone: string | null;
  email: string | null;
}

/**
 * The repeat rule. A lead under the same key and prospect id is a repeat only when it is the same
 * customer: the same name and a phone or e-mail in common (or, when neither sent a way to reach
 * them, the name alone), or when the prospect says status="resend". A reused <id> by itself
 * (the lead type, a template's constant) is not a repeat.
 */
export function isRepeat(prior: Who, incoming: Who, resend: boolean): boolean {
  if (resend) return true;
  if (!prior.key || prior.key !== incoming.key) return false;
  const [pe, ie] = [emailKey(prior.email), emailKey(incoming.email)];
  const [pp, ip] = [phoneKey(prior.phone), phoneKey(incoming.phone)];
  if (pe && pe === ie) return true;
  if (pp && pp === ip) return true;
  return !pe && !pp && !ie && !ip;
}

/** The name a lead without one comes in under: built from what the sender gave. */
export function placeholderName(phone: string, email: string): string {
  if (phone) return `Customer ${phone}`;
  return email;
}

export type Outcome =
  | {
      ok: true;
      fields: { customer: string; phone: string; email: string; vehicle: string; vin: string; comments: string; source?: string; externalId?: string };
      idSource: string;
      nameMissing: boolean;
      tradeIn: TradeIn | null;
      resend: boolean;
      dealer: Dealer;
      traits: Pick<LeadTraits, 'condition' | 'make' | 'language'>;
    }
  | { ok: false; customer: string; error: string };

const MAX_SOURCE = 100;
const MAX_TRADE_PART = 60;

/**
 * One prospect as a lead's fields, or why it cannot be one. A prospect without a name but with a
 * phone or e-mail comes in under a placeholder, flagged so a salesman fills the name in.
 */
export function prospectFields(p: Prospect, label: string): Outcome {
  const name = p.customer;
  if (!name && !p.phone && !p.email)
    return { ok: false, customer: '', error: `${label}A customer name, phone or e-mail is required (<customer><contact><name>, <phone> or <email>).` };
  for (const [part, value] of Object.entries<string>({ ...p.tradeIn }))
    if (value.length > MAX_TRADE_PART) return { ok: false, customer: name, error: `${label}trade-in ${part}: Too long (max ${MAX_TRADE_PART} characters).` };
  if (p.dealer.name.length > MAX_DEALER || p.dealer.id.length > MAX_DEALER)
    return { ok: false, customer: name, error: `${label}<vendor> is too long (max ${MAX_DEALER} characters).` };
  if (p.idSource.length > MAX_SOURCE) return { ok: false, customer: name, error: `${label}<id source> is too long (max ${MAX_SOURCE} characters).` };
  return {
    ok: true,
    fields: {
      customer: name || placeholderName(p.phone, p.email),
      phone: p.phone,
      email: p.email,
      vehicle: p.vehicle,
      vin: p.vin,
      comments: p.comments,
      source: p.provider || undefined,
      externalId: p.id || undefined,
    },
    idSource: p.idSource,
    nameMissing: !name,
    tradeIn: p.tradeIn,
    resend: p.resend,
    dealer: p.dealer,
    traits: { condition: p.condition, make: p.make, language: p.language },
  };
}
