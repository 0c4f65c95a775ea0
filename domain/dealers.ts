/**
 * The dealer an intake lead names: an ADF document's <vendor> (its <vendorname> and <id>), or a
 * JSON lead's "dealer". A sender that uses one key for the whole group is told apart by it.
 */
export interface Dealer {
  name: string;
  id: string;
}

export const MAX_DEALER = 200;
export const BAD_DEALER = `Dealer is required (its name or id as the sender writes it, at most ${MAX_DEALER} characters)`;

/** A dealer's name or id folded for comparison: case, composition and runs of spaces do not count. */
export const dealerKey = (s: string) => s.normalize('NFC').trim().replace(/\s+/g, ' ').toLowerCase();

/** How a dealer is shown: "Northside Honda (4471)", or whichever of the two it sent; '' for none. */
export const dealerLabel = (d: Dealer) => (d.name && d.id && dealerKey(d.name) !== dealerKey(d.id) ? `${d.name} (${d.id})` : d.name || d.id);

/**
 * The store a group key's lead goes to: a mapping of its dealer's id wins over one of its name
 * (two rooftops may share a trading name, never an id); null when neither is mapped.
 */
export function storeOfDealer<S>(mapped: ReadonlyMap<string, S>, d: Dealer): S | null {
  for (const part of [d.id, d.name]) {
    const hit = part ? mapped.get(dealerKey(part)) : undefined;
    if (hit !== undefined) return hit;
  }
  return null;
}
