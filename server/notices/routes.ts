import type { FastifyInstance } from 'fastify';
import type { Ctx } from '../context';
import { pushRoutes } from './push-routes';
import { smsRoutes } from './sms-routes';
import { choiceRoutes } from './choice-routes';

/** Reaching a person in his pocket: push, text, and his choices of which for what. */
export async function noticeRoutes(app: FastifyInstance, opts: { ctx: Ctx }) {
  await app.register(pushRoutes, opts);
  await app.register(smsRoutes, opts);
  await app.register(choiceRoutes);
}
