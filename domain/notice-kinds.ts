/**
 * What reaches a salesman in his pocket: a lead just his, his turn coming, time running out on
 * an Accept, a lead handed on from him, an appointment in an hour; and the escalation, a text at
 * half the response window that goes out whatever he chose. A lead up for grabs in his team's
 * claim pool reaches him as he chose for a new lead.
 */
export const NOTICE_KINDS = ['lead', 'up_next', 'time_left', 'handed_on', 'appointment', 'escalation', 'grab'] as const;
export type NoticeKind = (typeof NOTICE_KINDS)[number];

/** What a person chooses for, one row each in Settings → What reaches you. */
export const CHOICE_KINDS = ['lead', 'up_next', 'time_left', 'appointment'] as const;
export type ChoiceKind = (typeof CHOICE_KINDS)[number];

export const CHOICE_LABELS: Record<ChoiceKind, string> = {
  lead: 'New lead',
  up_next: 'You’re up next',
  time_left: 'Time running out',
  appointment: 'Appointments',
};

export const CHANNELS = ['push', 'sms', 'email', 'none'] as const;
export type NoticeChannel = (typeof CHANNELS)[number];
/** Where a notice actually goes: a push to each device, a text to his mobile, or mail. */
export type Route = Exclude<NoticeChannel, 'none'>;

export const CHANNEL_LABELS: Record<NoticeChannel, string> = { push: 'Push', sms: 'Text', email: 'E-mail', none: 'None' };
