import type { FastifyInstance } from 'fastify';
import type { Ctx } from '../context';

/** Push subscriptions and the push's Accept (built in server/notices/push*.ts). */
export async function pushRoutes(app: FastifyInstance, opts: { ctx: Ctx }) {
  void app;
  void opts;
}
