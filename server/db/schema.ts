import type { Generated } from 'kysely';

/** Times are epoch milliseconds (UTC); money is integer cents; flags are 0/1 on both dialects. */
export interface UsersTable {
  id: string;
  email: string;
  name: string;
  role: string;
  /** 1: a group manager, who has every store. */
  all_stores: Generated<number>;
  /** The store he last chose: where his screens open. */
  store_id: number | null;
  disabled: number;
  deleted_at: number | null;
  greeting: string | null;
  notes: string | null;
  signed_in_at: number | null;
  created_at: number;
  updated_at: number;
  /** His mobile number (E.164) and when he confirmed it by the code sent to it; texts go only to a confirmed one. */
  mobile: Generated<string | null>;
  mobile_confirmed_at: Generated<number | null>;
  /** When he sent STOP from the phone: no texts until he confirms a number again. */
  sms_stopped_at: Generated<number | null>;
  /** JSON {kind: channel} of his own choices (server/notices); null: the store's default. */
  notify: Generated<string | null>;
}

interface LoginTokensTable {
  token_hash: string;
  email: string;
  expires_at: number;
  used_at: number | null;
  created_at: number;
}

interface EmailChangesTable {
  token_hash: string;
  user_id: string;
  /** The address the link makes his: the new one, or (undo) the one he had. */
  email: string;
  /** Whose link: the new address's, the current address approving, or the old one undoing (server/users/email-change.ts). */
  kind: Generated<'new' | 'old' | 'undo'>;
  requested_by: string;
  expires_at: number;
  used_at: number | null;
  created_at: number;
}

interface SessionsTable {
  id_hash: string;
  /** The public id Settings lists and signs out (never the cookie's hash). */
  sid: string;
  user_id: string;
  /** How it was made: 'link' | 'oidc' | 'passkey'. */
  via: Generated<string>;
  user_agent: string | null;
  ip: string | null;
  last_seen_at: number | null;
  /** Single sign-on: the provider's refresh token, sealed with the session secret. */
  oidc_refresh: string | null;
  /** Single sign-on: when to ask the provider again whether he may still sign in. */
  recheck_at: number | null;
  created_at: number;
  expires_at: number;
}

interface PasskeysTable {
  /** The credential's id, base64url. */
  id: string;
  user_id: string;
  name: string;
  public_key: string;
  counter: number;
  /** JSON list of the authenticator's transports. */
  transports: string | null;
  created_at: number;
  last_used_at: number | null;
}

interface AuthFlowsTable {
  id_hash: string;
  kind: string;
  user_id: string | null;
  /** JSON: the ceremony's own state (OIDC state, nonce, verifier; a WebAuthn challenge). */
  data: string;
  expires_at: number;
  created_at: number;
}

interface SettingsTable {
  key: string;
  value: string;
}

/** A rooftop: its own line, rules (JSON, '' for the defaults), clock and rows. */
export interface StoresTable {
  id: Generated<number>;
  code: string;
  name: string;
  timezone: string;
  rules: Generated<string>;
  created_at: number;
}

/** A person's place in a store: a salesman's line there; a store manager's stores. */
export interface MembershipsTable {
  user_id: string;
  store_id: number;
  position: number;
  active: Generated<number>;
  on_duty: Generated<number>;
  snooze_until: number | null;
  created_at: number;
  /** Ups per turn of the line, 1–5, and those still owed this turn (domain/routing.ts afterServe). */
  weight: Generated<number>;
  owed: Generated<number>;
  /** The most ups a day and the most open leads he takes (null: no cap). */
  daily_cap: Generated<number | null>;
  open_cap: Generated<number | null>;
  /** His own hours, JSON Sunday first (domain/rules.ts businessHoursSchema); null: whenever the store is open. */
  hours: Generated<string | null>;
  /** Why his hours or time off keep him out of every line now ("Off schedule"); null: they do not. Kept by the sweep. */
  away: Generated<string | null>;
}

/** A team of a store (New, Used, BDC, Spanish): its own line, with its own pointer. */
export interface TeamsTable {
  id: Generated<number>;
  store_id: number;
  name: string;
  pointer_pos: Generated<number>;
  created_at: number;
}

/** A person's place in a team's line. */
export interface TeamMembersTable {
  team_id: number;
  user_id: string;
  position: number;
  owed: Generated<number>;
  created_at: number;
}

/** Days a person is off, first and last included, on the store's clock. */
export interface TimeOffTable {
  id: Generated<number>;
  user_id: string;
  from_day: string;
  to_day: string;
  note: string | null;
  created_by: string;
  created_at: number;
  /** The store it holds in (a store manager's), null: every store he works in. */
  store_id: Generated<number | null>;
}

/** The SMS provider's inbound texts acted on, by message id: one sent again is ignored. */
export interface SmsInboundTable {
  message_sid: string;
  received_at: number;
}

/** A text's final status that came before its id was stored on the notice; applied when it is. */
export interface SmsEarlyStatusTable {
  provider_id: string;
  state: 'delivered' | 'failed';
  error: string | null;
  received_at: number;
}

/** The fairness ledger: each person whose turn came before the one served at an up, and why he was out. */
export interface PassedOverTable {
  id: Generated<number>;
  store_id: number;
  log_id: number;
  lead_id: number | null;
  /** The line (null: the whole floor). */
  team_id: number | null;
  user_id: string;
  /** domain/rotation.ts PassKind; `why` its detail (passDetail: a count, the away text, the rule's name), said in words by passText. */
  kind: 'off' | 'snooze' | 'away' | 'hold' | 'cap' | 'open' | 'rule';
  why: string;
  created_at: number;
}

/** An ADF sender's dealer (vendor name or id) mapped to the store its leads go to. */
interface DealerStoresTable {
  id: Generated<number>;
  /** dealerKey of the name or id (domain/dealers.ts): what an incoming lead's dealer is matched by. */
  dealer_key: string;
  /** As the manager typed it. */
  dealer: string;
  store_id: number;
  created_by: string;
  created_at: number;
}

/** One row per store (its id is the store's): the row its rotation transactions lock. */
interface RotationStateTable {
  id: number;
  pointer_pos: number;
  last_assigned_to: string | null;
  last_assigned_at: number | null;
  updated_by: string | null;
}

interface RotationLogTable {
  id: Generated<number>;
  type: 'assign' | 'skip' | 'beback' | 'closed' | 'reorder';
  customer: string | null;
  target_id: string;
  target_name: string;
  reason: string | null;
  manager_id: string | null;
  manager_name: string;
  pointer_pos_after: number;
  lead_id: number | null;
  created_at: number;
  store_id: number;
  /** The team line the up went through (null: the whole floor) and the routing rule that sent it there. */
  team_id: Generated<number | null>;
  rule: Generated<string | null>;
  /** A manager marked the up "No customer" (a fake or duplicate lead): it does not count, and the salesman kept his turn. */
  no_customer_at: Generated<number | null>;
  no_customer_by: Generated<string | null>;
}

export interface LeadsTable {
  id: Generated<number>;
  /** null: an intake lead no store claimed yet (its dealer is unmapped); it waits for a group manager. */
  store_id: number | null;
  /** The dealer a group key's lead named: its name, and its id (domain/dealers.ts). */
  dealer: Generated<string | null>;
  dealer_ref: Generated<string | null>;
  customer: string;
  assigned_to: string;
  assigned_to_name: string;
  assigned_by: string | null;
  assigned_by_name: string;
  assigned_at: number;
  status: 'new' | 'handed' | 'closed';
  follow_up_due: number;
  closed: number;
  source: string;
  closed_at: number | null;
  closed_by_id: string | null;
  closed_by_name: string | null;
  phone: string | null;
  email: string | null;
  vehicle: string | null;
  vin: string | null;
  comments: string | null;
  external_source: string | null;
  external_id: string | null;
  /** The customer's name as the sender gave it, folded (case, spaces): a repeat needs the same one. */
  customer_key: string | null;
  /** JSON {year, make, model, odometer} of an ADF trade-in vehicle. */
  trade_in: string | null;
  /** 1: the sender gave no name; the customer is a placeholder until a salesman fills it in. */
  name_missing: Generated<number>;
  /** The ADF document the lead came in, readable by managers. */
  document_id: number | null;
  /** When the salesman who holds it got it; null on leads from before Accept existed. */
  offered_at: number | null;
  /** Until when he may accept it before it is handed on; null when the window is off or it was accepted. */
  accept_due: number | null;
  accepted_at: number | null;
  first_contact_at: number | null;
  /** How often it was taken back for want of an Accept. */
  handoffs: Generated<number>;
  /** 1: a returning customer asked for this salesman; it cost no one a turn. */
  be_back: Generated<number>;
  /** The team line it went through (null: the whole floor). */
  team_id: Generated<number | null>;
  /** Up for grabs: in the claim pool of grab_team (null: the whole floor's) until grab_until; grab_stage 0 first pool, 1 the fallback's, 2 the managers'. */
  grab_until: Generated<number | null>;
  grab_team: Generated<number | null>;
  grab_stage: Generated<number>;
  /** Its kept stage (domain/stages.ts); null before the first contact. `closed` is 1 when Sold or Lost. */
  stage: Generated<'contacted' | 'appointment' | 'shown' | 'sold' | 'lost' | 'closed' | null>;
  lost_reason: Generated<string | null>;
  appointment_at: Generated<number | null>;
  appointment_reminded_at: Generated<number | null>;
  /** When it first had an appointment set, and first showed (the funnel, domain/funnel.ts); null: not yet. */
  appointment_set_at: Generated<number | null>;
  shown_at: Generated<number | null>;
  /** The desk log of a walk-in up (source 'Walk-in'): 1 when he brought a trade-in, 1 when a worksheet was written. */
  trade_in_flag: Generated<number>;
  worksheet: Generated<number>;
  /** The manager the salesman turned the customer over to ("T.O."). */
  to_manager_id: Generated<string | null>;
  to_manager_name: Generated<string | null>;
  /** When the customer left. */
  time_out: Generated<number | null>;
}

/** A lead's timeline besides its assigns (which rotation_log keeps): accepted, handed on, contacted, closed, reopened. */
export interface LeadEventsTable {
  id: Generated<number>;
  lead_id: number;
  /** closed: a close before leads had stages (no outcome). */
  type: 'accepted' | 'handed_on' | 'contacted' | 'closed' | 'reopened' | 'parked' | 'appointment_set' | 'shown' | 'no_show' | 'sold' | 'lost';
  actor_id: string | null;
  actor_name: string;
  channel: string | null;
  note: string | null;
  /** A contact's outcome; a lost lead's reason; an appointment's time. */
  outcome: Generated<string | null>;
  reason: Generated<string | null>;
  appointment_at: Generated<number | null>;
  created_at: number;
}

/** Each save of the dealership rules: who, when, and what changed (JSON {field: {from, to}}). */
interface RulesAuditTable {
  id: Generated<number>;
  store_id: number;
  actor_id: string | null;
  actor_name: string;
  changes: string;
  at: number;
}

/** ADF documents as they came in (decoded text, at most the 1 MB intake limit), shown to managers. */
interface IntakeDocumentsTable {
  id: Generated<number>;
  /** 0: it came by mail (mail_messages). */
  api_key_id: number;
  body: string;
  created_at: number;
}

/** Integration keys: only the SHA-256 of the key is kept; the key itself is shown once. */
interface ApiKeysTable {
  id: Generated<number>;
  /** null: a key for the whole group; its leads go to the store their dealer is mapped to. */
  store_id: number | null;
  name: string;
  key_hash: string;
  prefix: string;
  created_by: string | null;
  created_at: number;
  last_used_at: number | null;
  revoked_at: number | null;
}

/** A showroom TV's view-only link to its store's board (server/tv); the secret is kept only as a keyed hash. */
interface TvLinksTable {
  id: Generated<number>;
  store_id: number;
  name: string;
  token_hash: string;
  created_by: string | null;
  created_at: number;
  last_seen_at: number | null;
  revoked_at: number | null;
}

/**
 * An intake request's answer kept per key and Idempotency-Key; status null while it runs.
 * created_at is when the running claim was taken: a claim older than the lease was left by a crash.
 */
interface IdempotencyKeysTable {
  api_key_id: number;
  key: string;
  created_at: number;
  status: number | null;
  body: string | null;
  request_hash: string | null;
}

/** A manager's assign or skip, kept by the action id the form made, so a repeat replays it. */
interface RotationActionsTable {
  id: string;
  /** What was asked, so the same id with another request is refused. */
  request: string;
  result: string;
  created_at: number;
}

export interface SalesTable {
  id: Generated<number>;
  store_id: number;
  user_id: string;
  rep_name: string;
  date: string;
  vehicle_type: 'new' | 'used';
  front_gross_cents: number;
  plan_type: 'flat' | 'percent';
  plan_percent: number | null;
  plan_flat: number | null;
  plan_split: number;
  commission_cents: number;
  created_at: number;
  created_by: string;
  /** The lead this sale closed (one sale per lead); null: a walk-in sold on the spot, or a sale logged before sales had leads. */
  lead_id: Generated<number | null>;
  customer: Generated<string | null>;
}

/** A store's pay plan from a day on (domain/payplan.ts); rows are only added: the last made for a day wins. */
interface PayPlansTable {
  id: Generated<number>;
  store_id: number;
  effective_from: string;
  /** The PayPlan as JSON. */
  plan: string;
  created_by: string;
  created_by_name: string;
  created_at: number;
}

interface AuditLogTable {
  id: Generated<number>;
  user_id: string;
  actor_id: string | null;
  actor_name: string;
  action: string;
  changes: string;
  at: number;
}

/** Mail on its way: waiting until sent, failed (gave up) or dropped (a link request that sends nothing). */
interface OutboxTable {
  id: Generated<number>;
  kind: 'signin' | 'lead' | 'report' | 'email';
  recipient: string;
  /** The sealed mail; emptied once the row is done. */
  body: string;
  state: 'waiting' | 'sent' | 'failed' | 'dropped';
  attempts: number;
  next_at: number;
  lease_until: number | null;
  expires_at: number;
  last_error: string | null;
  created_at: number;
  done_at: number | null;
}

/** An address the portal takes lead mail for (server/mailin): a store's, or (store_id null) the group's. */
interface LeadAddressesTable {
  id: Generated<number>;
  address: string;
  store_id: number | null;
  created_by: string | null;
  created_at: number;
}

/** What became of a lead mail: made leads, waits for a manager, dismissed, could not be handled, or was a test (read, nothing handed out). */
export type MailState = 'received' | 'taken' | 'review' | 'dismissed' | 'failed' | 'test';

/** A mail taken in for a lead address, kept 30 days; its detail is sealed (server/mail/seal.ts), its raw message apart (mail_raw). */
export interface MailMessagesTable {
  id: Generated<number>;
  address_id: number;
  store_id: number | null;
  message_key: string;
  via: 'smtp' | 'imap';
  sender: string;
  subject: string;
  /** Its parts in mail_raw. */
  raw_key: string;
  size: number;
  state: MailState;
  attempts: number;
  next_at: number;
  lease_until: number | null;
  /** JSON: the leads made (id, customer, status, assigned to) or, dismissed, the reason. */
  outcome: string;
  /** Sealed JSON: the text a person reads and why nothing was taken. */
  detail: string;
  handled_by: string | null;
  received_at: number;
  done_at: number | null;
}

/** A lead mail as it came, sealed, in parts; deleted once the mail is handled (kept while it waits for review). */
interface MailRawTable {
  raw_key: string;
  part: number;
  bytes: Buffer;
  created_at: number;
}

/** A rate-limit counter shared by every app server: hits in the window ending at reset_at. */
interface RateLimitsTable {
  key: string;
  hits: number;
  reset_at: number;
}

/** A device a person turned push notifications on from (the browser's PushSubscription). */
interface PushSubscriptionsTable {
  id: Generated<number>;
  user_id: string;
  endpoint: string;
  p256dh: string;
  auth: string;
  label: string;
  /** The session that turned them on (sessions.sid): they end with it. Null: from before sessions were listed. */
  session_sid: Generated<string | null>;
  created_at: number;
  last_used_at: number | null;
}

/** A six-digit code sent to a mobile number, hashed; confirming it makes the number his. */
interface MobileCodesTable {
  user_id: string;
  mobile: string;
  code_hash: string;
  tries: number;
  expires_at: number;
  created_at: number;
}

/** A push, text or mail to one person on one channel, with its delivery state (server/notices). */
export interface NoticesTable {
  id: Generated<number>;
  user_id: string;
  store_id: number | null;
  lead_id: number | null;
  kind: string;
  channel: 'push' | 'sms' | 'email';
  target: string;
  once_key: string;
  body: string;
  state: 'queued' | 'sent' | 'delivered' | 'failed';
  attempts: number;
  next_at: number;
  lease_until: number | null;
  expires_at: number;
  error: string | null;
  provider_id: string | null;
  created_at: number;
  sent_at: number | null;
  delivered_at: number | null;
}

/** A push's Accept: accepts its own lead for its own person, once. */
interface AcceptTokensTable {
  token_hash: string;
  lead_id: number;
  user_id: string;
  expires_at: number;
  used_at: number | null;
}

interface FloorDaysTable {
  store_id: number;
  day: string;
  closed_at: number;
}

export interface Database {
  users: UsersTable;
  stores: StoresTable;
  memberships: MembershipsTable;
  dealer_stores: DealerStoresTable;
  pay_plans: PayPlansTable;
  login_tokens: LoginTokensTable;
  email_changes: EmailChangesTable;
  sessions: SessionsTable;
  passkeys: PasskeysTable;
  auth_flows: AuthFlowsTable;
  settings: SettingsTable;
  rotation_state: RotationStateTable;
  rotation_log: RotationLogTable;
  leads: LeadsTable;
  intake_documents: IntakeDocumentsTable;
  sales: SalesTable;
  audit_log: AuditLogTable;
  api_keys: ApiKeysTable;
  tv_links: TvLinksTable;
  idempotency_keys: IdempotencyKeysTable;
  rotation_actions: RotationActionsTable;
  outbox: OutboxTable;
  lead_addresses: LeadAddressesTable;
  mail_messages: MailMessagesTable;
  mail_raw: MailRawTable;
  rate_limits: RateLimitsTable;
  lead_events: LeadEventsTable;
  rules_audit: RulesAuditTable;
  floor_days: FloorDaysTable;
  push_subscriptions: PushSubscriptionsTable;
  mobile_codes: MobileCodesTable;
  notices: NoticesTable;
  accept_tokens: AcceptTokensTable;
  teams: TeamsTable;
  team_members: TeamMembersTable;
  time_off: TimeOffTable;
  sms_inbound: SmsInboundTable;
  sms_early_status: SmsEarlyStatusTable;
  passed_over: PassedOverTable;
}
