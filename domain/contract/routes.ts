import { z } from 'zod';
import * as a from './answers';
import * as i from './inputs';
import {
  assignSchema,
  completeLinkSchema,
  dutySchema,
  notesSchema,
  profileSchema,
  reorderSchema,
  saveUserSchema,
  editUserSchema,
  confirmEmailSchema,
  sendLinkSchema,
  skipSchema,
  toggleSchema,
  keyNameSchema,
  saleSchema,
  salePatchSchema,
  leadNameSchema,
  contactSchema,
  handOutSchema,
  reportDaySchemaOn,
  storeSchema,
  storePatchSchema,
  chooseStoreSchema,
  dealerMapSchema,
  lostSchema,
  soldSchema,
  appointmentSchema,
  showSchema,
  leadAddressSchema,
  mailLeadSchema,
  dismissMailSchema,
  tvLinkSchema,
} from '../schemas';
import { rulesChangeSchema } from '../rules';
import { routingSchema } from '../routing';
import { limitsSchema, teamBodySchema, teamMemberSchema, traitsSchema } from '../teams';
import { payPlanChangeSchema, payPlansAnswer } from '../payplan-schema';
import { funnelAnswer, funnelQuery } from '../funnel';
import { deskLog, deskPatchSchema, deskRow, deskUpSchema } from '../desk';
import { claimed, grabList, noCustomerAnswer } from '../grabs';
import { mobileCodeSchema, mobileSchema, mobileState } from '../notices-phone';
import { choicesChangeSchema, noticeChoicesAnswer } from '../notices';
import { hoursChangeSchema, timeOffSchema } from '../availability';
import { personLedger, teamLedger } from '../ledger';
import { acceptTokenSchema, pushDeviceAdded, pushDevices, pushKey, pushSubscriptionSchema } from '../push';
import { authMethods, signInSettings, signInSettingsSchema } from '../signin';
import { sessionSid } from '../sessions';
import * as pk from '../passkeys';
import * as tv from '../tv-schema';

/**
 * Who may call a route: anyone, a signed-in person, a manager, an integration by its API key, or
 * a showroom TV by its link's secret (the route checks the key or the link itself; no session counts).
 */
export type Access = 'public' | 'user' | 'manager' | 'apikey' | 'tv';

/**
 * A route of the API, defined once: who may call it, what it takes (path parameters, query,
 * body) and what it answers on success (with which status). The server implements it through
 * `implement` (server/http/implement.ts) and the web calls it through `call` (web/api/client.ts),
 * both typed from here.
 */
export interface RouteContract {
  access: Access;
  /**
   * The route acts on one store's data: the store named by the X-Store header (or ?store= for a
   * link), else the caller's own; one he may not open is 404 (server/stores/scope.ts).
   */
  store?: true;
  params?: z.ZodType<object, Record<string, string | number>>;
  query?: z.ZodType<object>;
  body?: z.ZodType;
  answer: z.ZodType;
  /** The success status; 200 unless said. */
  status?: 201;
}

const lead = i.rowId('Lead not found');
const sale = i.rowId('Sale not found');
const apiKey = i.rowId('API key not found');
const dealerMapping = i.rowId('Dealer mapping not found');
const storeless = i.rowId('This lead is not waiting for a store.');
const up = i.rowId('Up not found');
const leadAddressId = i.rowId('Lead address not found');
const mailId = i.rowId('Mail not found');
const device = i.rowId('Device not found');
const team = i.rowId('Team not found');
const teamMember = team.extend({ uid: z.string().min(1, { error: 'Not on this team' }).max(100, { error: 'Not on this team' }) });
const tvLinkId = i.rowId('TV link not found');
const timeOffId = i.personId.extend({ offId: i.rowId('Time off not found').shape.id });

/**
 * Every JSON route under /api, by method and path as the server registers it. The server's
 * answers are checked against `answer` in the test build; the web's `call()` takes its types
 * from here. Routes that answer something else (the event stream, CSV, the OpenAPI document,
 * the intake API's own contract) are listed in NOT_JSON.
 */
export const routes = {
  'POST /auth/link': { access: 'public', body: sendLinkSchema, answer: a.ok },
  'POST /auth/complete': { access: 'public', body: completeLinkSchema, answer: a.session },
  'GET /auth/me': { access: 'public', answer: z.object({ user: a.sessionUser.nullable() }) },
  'POST /auth/logout': { access: 'public', answer: a.ok },
  'GET /auth/methods': { access: 'public', answer: authMethods },
  'GET /auth/settings': { access: 'manager', answer: signInSettings },
  'PUT /auth/settings': { access: 'manager', body: signInSettingsSchema, answer: signInSettings },
  'GET /auth/sessions': { access: 'user', answer: a.signedInDevices },
  'DELETE /auth/sessions/:sid': { access: 'user', params: sessionSid, answer: a.signedOut },
  'POST /auth/sessions/end-all': { access: 'user', answer: a.signedOut },
  'GET /auth/passkeys': { access: 'user', answer: pk.passkeyList },
  'POST /auth/passkeys/add/options': { access: 'user', answer: pk.addOptions },
  'POST /auth/passkeys': { access: 'user', status: 201, body: pk.passkeyAddSchema, answer: pk.onePasskey },
  'PATCH /auth/passkeys/:id': { access: 'user', params: pk.passkeyId, body: pk.passkeyRenameSchema, answer: pk.onePasskey },
  'DELETE /auth/passkeys/:id': { access: 'user', params: pk.passkeyId, answer: a.ok },
  'POST /auth/passkeys/signin/options': { access: 'public', answer: pk.signInOptions },
  'POST /auth/passkeys/signin': { access: 'public', body: pk.passkeySignInSchema, answer: a.session },
  'PATCH /profile': { access: 'user', body: profileSchema, answer: a.session },
  'GET /profile/notes': { access: 'user', answer: a.notes },
  'PUT /profile/notes': { access: 'user', body: notesSchema, answer: a.notes },
  'GET /weather': { access: 'user', answer: a.weather },
  'PUT /profile/store': { access: 'user', body: chooseStoreSchema, answer: a.ok },
  'GET /profile/notify': { access: 'user', store: true, answer: noticeChoicesAnswer },
  'GET /ledger': { access: 'manager', store: true, answer: teamLedger },
  'GET /ledger/:id': { access: 'user', store: true, params: i.personId, answer: personLedger },
  'PUT /profile/notify': { access: 'user', store: true, body: choicesChangeSchema, answer: noticeChoicesAnswer },
  'GET /profile/mobile': { access: 'user', answer: mobileState },
  'PUT /profile/mobile': { access: 'user', body: mobileSchema, answer: mobileState },
  'POST /profile/mobile/confirm': { access: 'user', body: mobileCodeSchema, answer: mobileState },
  'DELETE /profile/mobile': { access: 'user', answer: mobileState },

  'GET /stores': { access: 'user', answer: a.storeList },
  'POST /stores': { access: 'manager', status: 201, body: storeSchema, answer: a.oneStore },
  'PATCH /stores/:code': { access: 'manager', params: i.storeCode, body: storePatchSchema, answer: a.oneStore },
  'GET /group': { access: 'manager', answer: a.groupView },
  'GET /group/keys': { access: 'manager', answer: a.keyList },
  'POST /group/keys': { access: 'manager', status: 201, body: keyNameSchema, answer: a.createdKey },
  'POST /group/keys/:id/revoke': { access: 'manager', params: apiKey, answer: a.revokedKey },
  'GET /group/dealers': { access: 'manager', answer: a.dealerMappings },
  'PUT /group/dealers': { access: 'manager', body: dealerMapSchema, answer: a.dealerMapped },
  'DELETE /group/dealers/:id': { access: 'manager', params: dealerMapping, answer: a.ok },
  'GET /group/waiting': { access: 'manager', answer: a.storelessList },
  'POST /group/waiting/:id/store': { access: 'manager', params: storeless, body: chooseStoreSchema, answer: a.ok },
  'GET /group/report': { access: 'manager', query: i.groupReportQuery, answer: a.groupReport },

  'GET /rotation': { access: 'user', store: true, query: i.rotationQuery, answer: a.rotationView },
  'POST /rotation/assign': { access: 'manager', store: true, body: assignSchema, answer: a.assigned },
  'POST /rotation/skip': { access: 'manager', store: true, body: skipSchema, answer: a.skipped },
  'POST /rotation/reorder': { access: 'manager', store: true, body: reorderSchema, answer: a.reordered },
  'POST /rotation/status': { access: 'manager', store: true, body: toggleSchema, answer: a.ok },
  'POST /rotation/duty': { access: 'user', store: true, body: dutySchema, answer: a.duty },

  'GET /leads': { access: 'manager', store: true, query: i.leadsQuery, answer: a.leadPage },
  'GET /leads/mine': { access: 'user', store: true, query: i.leadsQuery, answer: a.leadPage },
  'GET /leads/mine/counts': { access: 'user', store: true, answer: a.myCounts },
  'GET /leads/appointments': { access: 'user', store: true, answer: a.leadList },
  'POST /leads/:id/lost': { access: 'user', store: true, params: lead, body: lostSchema, answer: a.oneLead },
  'POST /leads/:id/sold': { access: 'user', store: true, params: lead, body: soldSchema, answer: a.soldLead },
  'POST /leads/:id/appointment': { access: 'user', store: true, params: lead, body: appointmentSchema, answer: a.oneLead },
  'POST /leads/:id/shown': { access: 'user', store: true, params: lead, body: showSchema, answer: a.oneLead },
  'POST /leads/:id/reopen': { access: 'user', store: true, params: lead, answer: a.oneLead },
  'POST /leads/:id/name': { access: 'user', store: true, params: lead, body: leadNameSchema, answer: a.oneLead },
  'GET /leads/:id/document': { access: 'manager', store: true, params: lead, answer: a.leadDocument },
  'POST /leads/:id/accept': { access: 'user', store: true, params: lead, answer: a.oneLead },
  'POST /leads/:id/contact': { access: 'user', store: true, params: lead, body: contactSchema, answer: a.oneLead },
  'POST /leads/:id/handout': { access: 'manager', store: true, params: lead, body: handOutSchema, answer: a.oneLead },
  'GET /grabs': { access: 'user', store: true, answer: grabList },
  'POST /leads/:id/claim': { access: 'user', store: true, params: lead, answer: claimed },
  'POST /rotation/log/:id/no-customer': { access: 'manager', store: true, params: up, answer: noCustomerAnswer },
  'GET /leads/:id/timeline': { access: 'user', store: true, params: lead, answer: a.timeline },

  'GET /rules': { access: 'user', store: true, answer: a.rulesAnswer },
  'PATCH /rules': { access: 'manager', store: true, body: rulesChangeSchema, answer: a.rulesAnswer },
  'GET /routing': { access: 'user', store: true, answer: a.routingAdmin },
  'POST /routing/teams': { access: 'manager', store: true, status: 201, body: teamBodySchema, answer: a.routingAdmin },
  'PATCH /routing/teams/:id': { access: 'manager', store: true, params: team, body: teamBodySchema, answer: a.routingAdmin },
  'DELETE /routing/teams/:id': { access: 'manager', store: true, params: team, answer: a.routingAdmin },
  'POST /routing/teams/:id/members': { access: 'manager', store: true, params: team, body: teamMemberSchema, answer: a.routingAdmin },
  'DELETE /routing/teams/:id/members/:uid': { access: 'manager', store: true, params: teamMember, answer: a.routingAdmin },
  'PATCH /routing/people/:id': { access: 'manager', store: true, params: i.personId, body: limitsSchema, answer: a.routingAdmin },
  'PUT /routing/rules': { access: 'manager', store: true, body: routingSchema, answer: a.routingAdmin },
  'POST /routing/test': { access: 'manager', store: true, body: traitsSchema, answer: a.routingTried },
  'GET /payplans': { access: 'user', store: true, answer: payPlansAnswer },
  'POST /payplans': { access: 'manager', store: true, status: 201, body: payPlanChangeSchema, answer: payPlansAnswer },
  'POST /desk/ups': { access: 'manager', store: true, status: 201, body: deskUpSchema, answer: deskRow },
  'GET /desk/log': { access: 'manager', store: true, query: i.dayQuery, answer: deskLog },
  'PATCH /desk/ups/:id': { access: 'user', store: true, params: up, body: deskPatchSchema, answer: deskRow },
  'GET /leads/kpis': { access: 'user', store: true, answer: a.kpis },
  'GET /leads/funnel': { access: 'user', store: true, query: funnelQuery, answer: funnelAnswer },
  'GET /floor/report': { access: 'manager', store: true, query: i.dayQuery, answer: a.floorReportAnswer },
  'POST /floor/report/send': { access: 'manager', store: true, body: reportDaySchemaOn('9999-12-31'), answer: a.reportSent },

  'GET /availability/:id': { access: 'user', store: true, params: i.personId, answer: a.availability },
  'PUT /availability/:id/hours': { access: 'user', store: true, params: i.personId, body: hoursChangeSchema, answer: a.availability },
  'POST /availability/:id/time-off': { access: 'user', store: true, status: 201, params: i.personId, body: timeOffSchema, answer: a.availability },
  'DELETE /availability/:id/time-off/:offId': { access: 'user', store: true, params: timeOffId, answer: a.availability },

  'GET /users': { access: 'manager', store: true, query: i.usersQuery, answer: a.userList },
  'POST /users': { access: 'manager', store: true, body: saveUserSchema, answer: a.oneUser },
  'PATCH /users/:id': { access: 'manager', store: true, params: i.personId, body: editUserSchema, answer: a.oneUser },
  'POST /users/:id/disable': { access: 'manager', store: true, params: i.personId, answer: a.oneUser },
  'POST /users/:id/enable': { access: 'manager', store: true, params: i.personId, answer: a.oneUser },
  'POST /users/:id/delete': { access: 'manager', store: true, params: i.personId, answer: a.oneUser },
  'POST /users/:id/restore': { access: 'manager', store: true, params: i.personId, answer: a.oneUser },
  'GET /users/:id/audit': { access: 'manager', store: true, params: i.personId, answer: a.auditList },
  'POST /users/:id/sign-out': { access: 'manager', store: true, params: i.personId, answer: a.signedOut },
  'POST /users/confirm-email': { access: 'public', body: confirmEmailSchema, answer: a.emailConfirmed },

  'GET /sales': { access: 'user', store: true, query: i.salesQuery, answer: a.tracker },
  'GET /sales/all': { access: 'user', answer: a.allMySales },
  'GET /sales/board': { access: 'manager', store: true, answer: a.salesBoard },
  'POST /sales': { access: 'user', store: true, status: 201, body: saleSchema, answer: a.sale },
  'PATCH /sales/:id': { access: 'user', store: true, params: sale, body: salePatchSchema, answer: a.sale },
  'DELETE /sales/:id': { access: 'user', store: true, params: sale, answer: a.ok },

  // The showroom TV by its own link: a store's managers make and revoke them; the link's secret
  // (the X-TV-Token header) opens its store's board and nothing else.
  'GET /tv/links': { access: 'manager', store: true, answer: tv.tvLinkList },
  'POST /tv/links': { access: 'manager', store: true, status: 201, body: tvLinkSchema, answer: tv.createdTvLink },
  'POST /tv/links/:id/revoke': { access: 'manager', store: true, params: tvLinkId, answer: tv.oneTvLink },
  'GET /tv/board': { access: 'tv', answer: tv.tvBoardAnswer },

  'GET /integrations/keys': { access: 'manager', store: true, answer: a.keyList },
  'POST /integrations/keys': { access: 'manager', store: true, status: 201, body: keyNameSchema, answer: a.createdKey },
  'POST /integrations/keys/:id/revoke': { access: 'manager', store: true, params: apiKey, answer: a.revokedKey },

  'GET /mail/addresses': { access: 'manager', store: true, answer: a.leadAddresses },
  'POST /mail/addresses': { access: 'manager', store: true, status: 201, body: leadAddressSchema, answer: a.addedAddress },
  'DELETE /mail/addresses/:id': { access: 'manager', store: true, params: leadAddressId, answer: a.ok },
  'POST /mail/addresses/:id/test': { access: 'manager', store: true, params: leadAddressId, answer: a.ok },
  'GET /mail': { access: 'manager', store: true, query: i.mailQuery, answer: a.mailList },
  'GET /mail/:id': { access: 'manager', store: true, params: mailId, answer: a.mailOpened },
  'POST /mail/:id/lead': { access: 'manager', store: true, params: mailId, body: mailLeadSchema, answer: a.mailHandled },
  'POST /mail/:id/dismiss': { access: 'manager', store: true, params: mailId, body: dismissMailSchema, answer: a.mailHandled },

  'GET /push/key': { access: 'user', answer: pushKey },
  'GET /push/subscriptions': { access: 'user', answer: pushDevices },
  'POST /push/subscriptions': { access: 'user', status: 201, body: pushSubscriptionSchema, answer: pushDeviceAdded },
  'DELETE /push/subscriptions/:id': { access: 'user', params: device, answer: a.ok },
  'POST /push/accept': { access: 'public', body: acceptTokenSchema, answer: a.ok },
} as const satisfies Record<string, RouteContract>;

/** Routes under /api whose answer is not a JSON document of ours. */
export const NOT_JSON = [
  'GET /events',
  // The showroom TV's live stream, opened with its link's secret in ?tv=.
  'GET /tv/events',
  'GET /sales/export.csv',
  'GET /sales/board.csv',
  'GET /leads/export.csv',
  'GET /leads/funnel.csv',
  'GET /floor/report.csv',
  'GET /group/report.csv',
  'GET /docs',
  'POST /v1/leads',
  // The SMS provider's webhooks: form-encoded, signed, answered with TwiML.
  'POST /sms/inbound',
  'POST /sms/status',
] as const;

export type Route = keyof typeof routes;
type Def<R extends Route> = (typeof routes)[R];
export type Answer<R extends Route> = z.infer<Def<R>['answer']>;
export type Body<R extends Route> = Def<R> extends { body: z.ZodType } ? z.input<Def<R>['body']> : never;
/** What the caller writes in the path and query, and what the server reads there once parsed. */
export type ParamsIn<R extends Route> = Def<R> extends { params: z.ZodType } ? z.input<Def<R>['params']> : never;
export type Params<R extends Route> = Def<R> extends { params: z.ZodType } ? z.output<Def<R>['params']> : Record<never, never>;
export type QueryIn<R extends Route> = Def<R> extends { query: z.ZodType } ? z.input<Def<R>['query']> : never;
export type Query<R extends Route> = Def<R> extends { query: z.ZodType } ? z.output<Def<R>['query']> : Record<never, never>;
export type BodyOut<R extends Route> = Def<R> extends { body: z.ZodType } ? z.output<Def<R>['body']> : undefined;
export type AccessOf<R extends Route> = Def<R>['access'];
export type InStore<R extends Route> = Def<R> extends { store: true } ? true : false;
