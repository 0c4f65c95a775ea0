import type { FastifyInstance } from 'fastify';
import type { Ctx } from '../context';

/** A person's mobile number and the SMS provider's webhooks (built in server/notices/sms*.ts). */
export async function smsRoutes(app: FastifyInstance, opts: { ctx: Ctx }) {
  void app;
  void opts;
}
