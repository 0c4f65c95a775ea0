import type { Target } from './routing';

/**
 * Routing's limits and words (domain/routing.ts holds its rules and schemas): apart, so a screen
 * that shows them loads no schema code; a form checks with the schemas once fetched
 * (web/forms/checks.ts).
 */

export const MAX_TEAMS = 20;
export const MAX_WEIGHT = 5;
export const MAX_DAILY_CAP = 200;
export const MAX_OPEN_CAP = 500;

/** Where a lead goes when no rule sends it to a team: the whole floor's line. */
export const FLOOR: Target = { floor: true };

/** Words that say which language a customer wants, by code; found in the comments. */
export const LANGUAGE_WORDS: Record<string, string[]> = {
  es: ['espanol', 'habla espanol', 'hablo espanol', 'spanish', 'en espanol'],
  fr: ['francais', 'french'],
  pt: ['portugues', 'portuguese'],
  zh: ['chinese', 'mandarin', 'cantonese'],
  vi: ['vietnamese', 'tieng viet'],
  ko: ['korean'],
};
