import { z } from 'zod';
import * as a from './answers';
import {
  assignSchema,
  completeLinkSchema,
  dutySchema,
  notesSchema,
  profileSchema,
  reorderSchema,
  saveUserSchema,
  confirmEmailSchema,
  sendLinkSchema,
  skipSchema,
  toggleSchema,
  keyNameSchema,
  saleSchema,
  leadNameSchema,
  contactSchema,
  handOutSchema,
  reportDaySchemaOn,
} from '../schemas';
import { rulesChangeSchema } from '../rules';

/** A route of the API: what it takes (the body's schema) and what it answers on success. */
export interface RouteContract {
  body?: z.ZodType;
  answer: z.ZodType;
}

/**
 * Every JSON route under /api, by method and path as the server registers it. The server's
 * answers are checked against `answer` in the test build; the web's `call()` takes its types
 * from here. Routes that answer something else (the event stream, CSV, the OpenAPI document,
 * the intake API's own contract) are listed in NOT_JSON.
 */
export const routes = {
  'POST /auth/link': { body: sendLinkSchema, answer: a.ok },
  'POST /auth/complete': { body: completeLinkSchema, answer: a.session },
  'GET /auth/me': { answer: z.object({ user: a.sessionUser.nullable() }) },
  'POST /auth/logout': { answer: a.ok },
  'PATCH /profile': { body: profileSchema, answer: a.session },
  'GET /profile/notes': { answer: a.notes },
  'PUT /profile/notes': { body: notesSchema, answer: a.notes },
  'GET /weather': { answer: a.weather },

  'GET /rotation': { answer: a.rotationView },
  'POST /rotation/assign': { body: assignSchema, answer: a.assigned },
  'POST /rotation/skip': { body: skipSchema, answer: a.skipped },
  'POST /rotation/reorder': { body: reorderSchema, answer: a.reordered },
  'POST /rotation/status': { body: toggleSchema, answer: a.ok },
  'POST /rotation/duty': { body: dutySchema, answer: a.duty },

  'GET /leads': { answer: a.leadPage },
  'GET /leads/mine': { answer: a.leadPage },
  'GET /leads/mine/counts': { answer: a.myCounts },
  'POST /leads/:id/close': { answer: a.oneLead },
  'POST /leads/:id/reopen': { answer: a.oneLead },
  'POST /leads/:id/name': { body: leadNameSchema, answer: a.oneLead },
  'GET /leads/:id/document': { answer: a.leadDocument },
  'POST /leads/:id/accept': { answer: a.oneLead },
  'POST /leads/:id/contact': { body: contactSchema, answer: a.oneLead },
  'POST /leads/:id/handout': { body: handOutSchema, answer: a.oneLead },
  'GET /leads/:id/timeline': { answer: a.timeline },

  'GET /rules': { answer: a.rulesAnswer },
  'PATCH /rules': { body: rulesChangeSchema, answer: a.rulesAnswer },
  'GET /leads/kpis': { answer: a.kpis },
  'GET /floor/report': { answer: a.floorReportAnswer },
  'POST /floor/report/send': { body: reportDaySchemaOn('9999-12-31'), answer: a.reportSent },

  'GET /users': { answer: a.userList },
  'POST /users': { body: saveUserSchema, answer: a.oneUser },
  'PATCH /users/:id': { body: saveUserSchema, answer: a.oneUser },
  'POST /users/:id/disable': { answer: a.oneUser },
  'POST /users/:id/enable': { answer: a.oneUser },
  'POST /users/:id/delete': { answer: a.oneUser },
  'POST /users/:id/restore': { answer: a.oneUser },
  'GET /users/:id/audit': { answer: a.auditList },
  'POST /users/confirm-email': { body: confirmEmailSchema, answer: a.emailConfirmed },

  'GET /sales': { answer: a.tracker },
  'POST /sales': { body: saleSchema, answer: a.sale },
  'PATCH /sales/:id': { body: saleSchema, answer: a.sale },
  'DELETE /sales/:id': { answer: a.ok },

  'GET /integrations/keys': { answer: a.keyList },
  'POST /integrations/keys': { body: keyNameSchema, answer: a.createdKey },
  'POST /integrations/keys/:id/revoke': { answer: a.revokedKey },
} as const satisfies Record<string, RouteContract>;

/** Routes under /api whose answer is not a JSON document of ours. */
export const NOT_JSON = ['GET /events', 'GET /sales/export.csv', 'GET /leads/export.csv', 'GET /floor/report.csv', 'GET /docs', 'POST /v1/leads'] as const;

export type Route = keyof typeof routes;
export type Answer<R extends Route> = z.infer<(typeof routes)[R]['answer']>;
export type Body<R extends Route> = (typeof routes)[R] extends { body: z.ZodType } ? z.input<(typeof routes)[R]['body']> : never;
