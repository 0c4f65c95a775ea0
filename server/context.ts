import type { FastifyBaseLogger } from 'fastify';
import type { Config } from './config';
import { atStore, type DbHandle, type StoreDb } from './db';
import { storeBus, type Bus } from './events/bus';
import type { Store } from '../domain/stores';
import type { Mailer } from './mail/mailer';
import type { Outbox } from './mail/outbox';
import type { Notices } from './notices/sender';

/** What every feature plugin needs; built once at start and passed in. */
export interface Ctx {
  config: Config;
  dbh: DbHandle;
  bus: Bus;
  mailer: Mailer;
  /** All mail goes here; a background sender delivers it. */
  outbox: Outbox;
  /** Push, texts and their mail (server/notices); absent where no sender runs. */
  notices?: Notices;
  secret: string;
  log: FastifyBaseLogger;
}

/** The context of one store's work: its data, its events, its clock. */
export interface StoreCtx extends Ctx {
  dbh: StoreDb;
  store: Store;
}

/**
 * The context as a store's routes and jobs see it: the database handle acts on that store, the
 * bus stamps that store on every event, and the dealership's clock (APP_TIMEZONE) is the store's.
 */
export const inStore = (ctx: Ctx, store: Store): StoreCtx => ({
  ...ctx,
  config: { ...ctx.config, APP_TIMEZONE: store.timezone },
  dbh: atStore(ctx.dbh, store.id, store.timezone),
  bus: storeBus(ctx.bus, store.id),
  store,
});
