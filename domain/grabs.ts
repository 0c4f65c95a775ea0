import { z } from 'zod';

/**
 * Up for grabs (issue #32): a lead may wait in a team's claim pool (or the whole floor's) instead
 * of going down a line; the first salesman of that pool to press Claim gets it. Unclaimed in time
 * it moves to the rule's fallback team's pool (stage 1), then waits for the managers (stage 2).
 * Credit-back: a manager marks an up "No customer" and the salesman keeps his turn.
 */

/** The pools a lead goes through: the first pool, the fallback team's, the managers'. */
export const GRAB_STAGES = { first: 0, fallback: 1, managers: 2 } as const;

/** The reason an up taken from a pool is logged with: the ledger counts claims apart from rotation ups. */
export const CLAIMED = 'Claimed';
/** The reason a lead marked "No customer" is closed as lost with. */
export const NO_CUSTOMER = 'No customer';

export const claimedText = (name: string) => `Claimed by ${name}`;
export const claimedFirstText = (name: string) => `${name} claimed it first.`;
export const NOT_UP_FOR_GRABS = 'This lead is no longer up for grabs.';
export const MANAGERS_POOL = 'This lead waits for a manager to hand it out.';
export const NOT_IN_POOL_TEAM = "This lead is up for grabs for another team's floor.";
export const MANAGERS_DO_NOT_CLAIM = 'Managers hand leads out; claiming is for the floor.';
export const notEligibleText = (why: string) => `You cannot claim a lead now: ${why.toLowerCase()}.`;
export const ALREADY_NO_CUSTOMER = 'This up is already marked No customer.';
export const ONLY_ASSIGNS = 'Only an assign can be marked No customer.';

const iso = z.iso.datetime({ offset: true });

/** A lead in a claim pool as the floor sees it. */
const grabLead = z.object({
  id: z.number().int(),
  customer: z.string(),
  vehicle: z.string().nullable(),
  source: z.string(),
  /** The pool's team (null: the whole floor's). */
  team: z.object({ id: z.number().int(), name: z.string() }).nullable(),
  /** When it moves on unclaimed. */
  until: iso,
  /** Whether the reader may press Claim (in the pool's team and in line). */
  canClaim: z.boolean(),
});
export type GrabLead = z.infer<typeof grabLead>;
export const grabList = z.object({ leads: z.array(grabLead) });

export const claimed = z.object({
  leadId: z.number().int(),
  customer: z.string(),
  assignedTo: z.object({ id: z.string(), name: z.string() }),
});

export const noCustomerAnswer = z.object({
  id: z.number().int(),
  noCustomerAt: iso,
  /** Whom the up went to, and whether he is Next Up again (his turn given back). */
  targetName: z.string(),
  turnBack: z.boolean(),
  /** The lead was open and is now closed as lost ("No customer"). */
  leadClosed: z.boolean(),
});
