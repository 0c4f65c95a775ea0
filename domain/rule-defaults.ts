import type { Rules } from './rules';

/** The rules before a manager changes any. Apart from their schema (as their names are), so a screen that only shows them loads no schema code. */
export const DEFAULT_RULES: Rules = {
  responseWindowMinutes: 10,
  followUpHours: 24,
  skipSnoozeMinutes: 30,
  checkInOrder: false,
  holdOut: false,
  businessHours: null,
  nextFollowUpHours: 24,
  saleCheckAbove: 25_000,
  lostReasons: ['Bought elsewhere', 'Not in market', 'No response', 'Credit', 'Duplicate'],
  // Push where he turned it on; a new lead or an appointment is mailed to whoever has no device (domain/notices.ts).
  notify: { lead: 'push', up_next: 'push', time_left: 'push', appointment: 'push' },
  // No routing rules: every lead to the whole floor's line; serving someone in a team's line puts him at the back of his others (domain/routing.ts).
  routing: { rules: [], fallback: { floor: true }, backOfEveryLine: true },
};

export const RULE_LABELS: Record<keyof Rules, string> = {
  responseWindowMinutes: 'Response window (minutes)',
  followUpHours: 'Follow-up due (hours)',
  skipSnoozeMinutes: 'Skip snooze (minutes)',
  checkInOrder: 'Serve in check-in order',
  holdOut: 'Hold out salesmen with past-due follow-ups',
  businessHours: 'Business hours',
  nextFollowUpHours: 'Next follow-up after (hours)',
  saleCheckAbove: 'Ask before saving a front gross above ($)',
  lostReasons: 'Lost reasons',
  notify: 'What reaches salesmen',
  routing: 'Routing rules',
};

/** Whether a key (of a stored record, an audit entry) names a rule. */
export const isRuleKey = (k: string): k is keyof Rules => Object.hasOwn(RULE_LABELS, k);
