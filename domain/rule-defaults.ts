import type { Rules } from './rules';

/** The rules before a manager changes any. Apart from their schema, so a screen that only shows them loads no schema code. */
export const DEFAULT_RULES: Rules = {
  responseWindowMinutes: 10,
  followUpHours: 24,
  skipSnoozeMinutes: 30,
  checkInOrder: false,
  holdOut: false,
  businessHours: null,
  nextFollowUpHours: 24,
  lostReasons: ['Bought elsewhere', 'Not in market', 'No response', 'Credit', 'Duplicate'],
  // Push where he turned it on; a new lead or an appointment is mailed to whoever has no device (domain/notices.ts).
  notify: { lead: 'push', up_next: 'push', time_left: 'push', appointment: 'push' },
  // No routing rules: every lead to the whole floor's line; serving someone in a team's line puts him at the back of his others (domain/routing.ts).
  routing: { rules: [], fallback: { floor: true }, backOfEveryLine: true },
};
