import type { FastifyBaseLogger } from 'fastify';
import type { Config } from './config';
import type { DbHandle } from './db';
import type { Bus } from './events/bus';
import type { Mailer } from './mail/mailer';
import type { Outbox } from './mail/outbox';

/** What every feature plugin needs; built once at start and passed in. */
export interface Ctx {
  config: Config;
  dbh: DbHandle;
  bus: Bus;
  mailer: Mailer;
  /** All mail goes here; a background sender delivers it. */
  outbox: Outbox;
  secret: string;
  log: FastifyBaseLogger;
}
