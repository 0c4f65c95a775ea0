import { z } from 'zod';
import { teamNameSchema, type Routing, type Target } from './routing';
import { MAX_DAILY_CAP, MAX_OPEN_CAP, MAX_WEIGHT } from './routing-terms';
import { isCleanLines, isOneLine, notOneLineText } from './text';

/**
 * What a manager sends to keep a store's teams, each person's weight and caps, and to try a lead
 * on the routing rules (server/routing/routes.ts); and the words that say where a lead would go.
 */

const strict = <T extends z.ZodRawShape>(shape: T) =>
  z.strictObject(shape, { error: (iss) => (iss.code === 'unrecognized_keys' ? `Unknown field: ${iss.keys.join(', ')}` : 'Invalid request body') });

export const teamBodySchema = strict({ name: teamNameSchema });

const WHOM = 'Say which salesman to add';
export const teamMemberSchema = strict({ uid: z.string({ error: WHOM }).trim().min(1, { error: WHOM }).max(100, { error: WHOM }) });

const WEIGHT_MSG = `Weight must be a whole number from 1 to ${MAX_WEIGHT}`;
const DAILY_MSG = `Daily cap must be a whole number from 1 to ${MAX_DAILY_CAP}; leave it empty for no cap`;
const OPEN_MSG = `Open-leads cap must be a whole number from 1 to ${MAX_OPEN_CAP}; leave it empty for no cap`;
const whole = (max: number, error: string) => z.number({ error }).int({ error }).min(1, { error }).max(max, { error });

/** A person's weight and caps in a store (null: no cap); any of them, at least one. */
export const limitsSchema = strict({
  weight: whole(MAX_WEIGHT, WEIGHT_MSG).optional(),
  dailyCap: whole(MAX_DAILY_CAP, DAILY_MSG).nullable().optional(),
  openCap: whole(MAX_OPEN_CAP, OPEN_MSG).nullable().optional(),
}).refine((v) => Object.keys(v).length > 0, { error: 'Say what to change: weight, daily cap or open-leads cap' });
export type Limits = z.infer<typeof limitsSchema>;

const trait = (label: string, max: number, lines = false) =>
  z
    .string({ error: `${label} must be text` })
    .trim()
    .max(max, { error: `${label} must be at most ${max} characters`, abort: true })
    .refine(lines ? isCleanLines : isOneLine, { error: notOneLineText(label) })
    .optional();

/** A sample lead to try on the routing rules: what the rules read of a lead (domain/routing.ts LeadTraits), each part optional. */
export const traitsSchema = strict({
  source: trait('Source', 100),
  key: trait('Key', 100),
  mailbox: trait('Mail address', 254),
  /** "new", "used" or what a sender writes ("pre-owned"). */
  condition: trait('Vehicle', 20),
  make: trait('Make', 40),
  language: trait('Language', 20),
  comments: trait('Comments', 2000, true),
});
export type TraitsInput = z.infer<typeof traitsSchema>;

/** Every team a routing names: its rules' targets, their up-for-grabs next line, its fallback. */
export function teamsNamed(r: Routing): number[] {
  const ids: number[] = [];
  const add = (t: Target | null | undefined) => t && 'team' in t && ids.push(t.team);
  for (const rule of r.rules) {
    add(rule.to);
    add(rule.grab?.then);
  }
  add(r.fallback);
  return [...new Set(ids)];
}

/** A line in words: "Spanish team" or "whole floor". */
const lineName = (team: { name: string } | null) => (team ? `${team.name} team` : 'whole floor');

/** Why a lead goes where it goes: 'Rule 2 "Spanish" → Spanish team', or 'No rule matched → the store default (whole floor)'. */
export function routedText(rule: { index: number; name: string } | null, team: { name: string } | null): string {
  return rule ? `Rule ${rule.index + 1} "${rule.name}" → ${lineName(team)}` : `No rule matched → the store default (${lineName(team)})`;
}
