import fs from 'node:fs';
import path from 'node:path';
import crypto from 'node:crypto';
import Fastify, { type FastifyInstance, type FastifyReply, type FastifyRequest, type FastifyServerOptions } from 'fastify';
import cookie from '@fastify/cookie';
import helmet from 'helmet';
import rateLimit from '@fastify/rate-limit';
import fastifyStatic from '@fastify/static';
import type { Config } from './config';
import type { Db, DbHandle } from './db';
import { ping, unreachable } from './db';
import type { Ctx } from './context';
import { createBus, type Bus } from './events/bus';
import { createMailer, escapeHtml, type Mailer } from './mail/mailer';
import { createOutbox, OUTBOX_TIMING, type OutboxTiming } from './mail/outbox';
import { createMailIn, type MailIn } from './mailin/mailin';
import { mailRoutes } from './mailin/routes';
import type { MailTiming } from './mailin/job';
import { dbStore } from './http/limits';
import { PRUNE_EVERY_MS, schedulePrune } from './db/prune';
import { ApiError } from './http/errors';
import { BAD_TEXT, textGuard } from './http/text';
import { checkAnswers } from './http/contract';
import { COMPRESSIBLE, compressApi, compressNow, precompressed, sendPrecompressed } from './http/compress';
import { DRAWING_DIR, loadDrawing } from './http/drawn';
import { dashboardHints } from './http/preload';
import { sessionPlugin } from './auth/session';
import { authRoutes } from './auth/routes';
import { oidcRoutes, signInMethodRoutes } from './auth/oidc/routes';
import { sessionRoutes } from './auth/sessions/routes';
import { passkeyRoutes } from './auth/passkeys/routes';
import { profileRoutes } from './profile/routes';
import { weatherRoutes } from './weather/routes';
import { eventRoutes } from './events/routes';
import { rotationRoutes } from './rotation/routes';
import { leadRoutes } from './leads/routes';
import { userRoutes } from './users/routes';
import { salesRoutes } from './sales/routes';
import { boardRoutes } from './sales/board';
import { tvRoutes } from './tv/routes';
import { integrationRoutes, intakeRoutes } from './intake/routes';
import { storeRoutes } from './stores/routes';
import { dealerRoutes } from './dealers/routes';
import { floorRoutes } from './floor/routes';
import { ledgerRoutes } from './ledger/routes';
import { rulesRoutes } from './rules/routes';
import { routingRoutes } from './routing/routes';
import { availabilityRoutes } from './availability/routes';
import { payPlanRoutes } from './sales/payplans';
import { deskRoutes } from './desk/routes';
import { grabRoutes } from './grabs/routes';
import { noticeRoutes } from './notices/routes';
import { createNoticeSender, mailChannel, NOTICE_TIMING, type Channels, type NoticeTiming } from './notices/sender';
import { pushChannel } from './notices/push';
import { smsChannel, smsEnabled } from './notices/sms';

export const BODY_LIMIT = 64 * 1024;
/** A request the database could not serve (it is restarting, failing over, unreachable): when to try again. */
const RETRY_AFTER_S = 2;
const DATABASE_DOWN = 'The database is not answering right now. Please try again in a few seconds.';
/** Whether the database answers within 2 s. */
const answers = (db: Db) => Promise.race([ping(db).then(() => true), new Promise<boolean>((r) => setTimeout(r, 2000, false).unref())]).catch(() => false);
const WEB_DIST = process.env.WEB_DIST ?? path.join(import.meta.dirname, '../dist');
/** Vite names what it puts under assets/ by a hash of its content: only those never change. */
const IMMUTABLE = 'public, max-age=31536000, immutable';

/** Generated once and kept in the database, so every app server on one database shares it. */
async function sessionSecret(config: Config, dbh: DbHandle): Promise<string> {
  if (config.SESSION_SECRET) return config.SESSION_SECRET;
  const fresh = crypto.randomBytes(32).toString('base64url');
  await dbh.db
    .insertInto('settings')
    .values({ key: 'session_secret', value: fresh })
    .onConflict((oc) => oc.column('key').doNothing())
    .execute();
  const row = await dbh.db.selectFrom('settings').select('value').where('key', '=', 'session_secret').executeTakeFirstOrThrow();
  return row.value;
}

/** What a request looks like in the log: never a sign-in token from a link (t=), nor a TV link's (tv=), never a cookie. */
function safeRequest(req: { method: string; url: string; ip?: string }) {
  return { method: req.method, url: req.url.replace(/([?&]tv?=)[^&]*/g, '$1[redacted]'), ip: req.ip };
}

export interface AppOptions {
  config: Config;
  dbh: DbHandle;
  logger?: Exclude<FastifyServerOptions['logger'], boolean | undefined>;
  mailer?: Mailer;
  bus?: Bus;
  /** How often waiting leads are offered again (tests shorten it). */
  sweepMs?: number;
  /** The mail sender's poll, retry and lease times (tests shorten them). */
  outboxTiming?: Partial<OutboxTiming>;
  /** How often expired rows are deleted (tests shorten it). */
  pruneMs?: number;
  /** The built web app (default: WEB_DIST or ./dist). */
  webDist?: string;
  /** What time it is for the intake API's per-key limit (tests move it; default Date.now). */
  intakeClock?: () => number;
  /** The lead mail reader's poll, retry and lease times (tests shorten them). */
  mailTiming?: Partial<MailTiming>;
  /** The notice sender's poll, retry and lease times (tests shorten them). */
  noticeTiming?: Partial<NoticeTiming>;
  /** Channels in place of push, texts and mail (tests). */
  channels?: Channels;
  /** How long this server answers for a session without the database (server/auth/session-cache.ts; 0: never). */
  sessionKeepMs?: number;
}

declare module 'fastify' {
  interface FastifyInstance {
    /** What every feature shares: configuration, database, bus, mail (decorated in buildApp). */
    ctx: Ctx;
    /** Every route with its declared access, for the authorisation test. */
    routeList: RouteInfo[];
    /** Lead mail in: the receiver, the mailbox and their reader (tests reach the receiver's port). */
    mailIn: MailIn;
  }
}

export interface RouteInfo {
  method: string | string[];
  url: string;
  access: string | undefined;
}

/** Rendered pages kept (a screen's hints in a store); beyond, a page is made for its request. */
const PAGES_KEPT = 1000;

export async function buildApp(opts: AppOptions): Promise<FastifyInstance> {
  const { config, dbh } = opts;
  const app = Fastify({
    logger: opts.logger ? { ...opts.logger, serializers: { req: safeRequest } } : false,
    bodyLimit: BODY_LIMIT,
    // Only behind a proxy may X-Forwarded-For name the client; otherwise anyone could pick
    // their own address and step around the per-client sign-in limit.
    trustProxy: config.TRUST_PROXY,
    // Before routing: an address the router cannot decode, or too long a path parameter.
    // Fastify's own answers repeat the address, and a link's token may be in it.
    frameworkErrors: (err, _req, reply: FastifyReply) => {
      if (err.code === 'FST_ERR_MAX_PARAM_LENGTH') void reply.status(414).send({ error: 'The address is too long.' });
      else if (err.code === 'FST_ERR_BAD_URL') void reply.status(400).send({ error: BAD_TEXT, code: 'bad_text' });
      else void reply.status(400).send({ error: 'Bad request.' });
    },
  });
  const secret = await sessionSecret(config, dbh);
  const mailer = opts.mailer ?? createMailer(config, app.log);
  // API answers are personal and change all the time: no browser or proxy may keep a copy.
  // An internal tool: no search engine may list any of it (robots.txt below says the same).
  app.addHook('onRequest', async (req, reply) => {
    reply.header('x-robots-tag', 'noindex, nofollow');
    if (req.url.startsWith('/api/') || req.url === '/api') reply.header('cache-control', 'no-store');
  });
  compressApi(app);

  textGuard(app);
  if (config.NODE_ENV === 'test') checkAnswers(app);
  const ctx: Ctx = {
    config,
    dbh,
    log: app.log,
    bus: opts.bus ?? (await createBus(dbh.pool, app.log)),
    mailer,
    outbox: createOutbox(dbh, mailer, secret, app.log, { ...OUTBOX_TIMING, ...opts.outboxTiming }),
    secret,
  };
  ctx.notices = createNoticeSender(
    dbh,
    opts.channels ?? { push: pushChannel(ctx), sms: smsEnabled(config) ? smsChannel(ctx) : undefined, email: mailChannel(ctx.outbox) },
    secret,
    app.log,
    { ...NOTICE_TIMING, ...opts.noticeTiming },
  );
  app.decorate('ctx', ctx);
  const mailIn = createMailIn(ctx, opts.mailTiming);
  app.decorate('mailIn', mailIn);
  // Every route with its declared access, for the authorisation test.
  const routeList: RouteInfo[] = [];
  app.decorate('routeList', routeList);
  app.addHook('onRoute', (r) => {
    routeList.push({ method: r.method, url: r.url, access: r.config?.access });
  });
  const streams = new Set<() => void>();

  const webDist = path.resolve(opts.webDist ?? WEB_DIST);
  const hasWeb = fs.existsSync(path.join(webDist, 'index.html'));
  const drawing = hasWeb
    ? await loadDrawing(webDist, { appName: config.APP_NAME, dealershipName: config.DEALERSHIP_NAME ?? '', timezone: config.APP_TIMEZONE }, app.log)
    : null;

  await app.register(cookie);
  // Helmet's headers, made once: @fastify/helmet made them anew, parsing the policy, at every request.
  const secure = helmet({
    contentSecurityPolicy: {
      directives: {
        defaultSrc: ["'self'"],
        // A drawn page (./http/drawn.ts) sets its colour scheme and starts its code with two inline scripts.
        scriptSrc: ["'self'", ...(drawing?.scriptHashes ?? [])],
        // Mantine sets CSS variables through style attributes and one style element.
        styleSrc: ["'self'", "'unsafe-inline'"],
        imgSrc: ["'self'", 'data:'],
        connectSrc: ["'self'"],
        fontSrc: ["'self'", 'data:'],
        objectSrc: ["'none'"],
        frameAncestors: ["'none'"],
        baseUri: ["'self'"],
        formAction: ["'self'"],
        upgradeInsecureRequests: config.secureCookies ? [] : null,
      },
    },
    strictTransportSecurity: config.secureCookies,
  });
  app.addHook('onRequest', (req, reply, done) => secure(req.raw, reply.raw, () => done()));
  // Counted in the database, so the limits hold across every app server on it.
  await app.register(rateLimit, { global: false, store: dbStore(dbh.db) });

  // Fastify's own 404 repeats the address in its message and its log line; a link's token is in it.
  app.setNotFoundHandler(async (_req, reply) => reply.status(404).send({ error: 'Not found.' }));

  app.setErrorHandler((err: Error & { statusCode?: unknown; code?: string }, req, reply) => {
    if (err instanceof ApiError) return reply.status(err.status).send({ error: err.message, code: err.code, field: err.field });
    const status = typeof err.statusCode === 'number' ? err.statusCode : 500;
    if (status === 413) return reply.status(413).send({ error: 'The request is too large.' });
    if (status === 429) return reply.status(429).send({ error: 'Too many requests. Please wait a minute and try again.' });
    if (status >= 400 && status < 500) {
      const msg = err.code === 'FST_ERR_CTP_INVALID_JSON_BODY' || err instanceof SyntaxError ? 'The request body is not valid JSON.' : err.message;
      return reply.status(status).send({ error: msg });
    }
    const database = unreachable(err);
    if (database) {
      req.log.warn({ err, database }, `the database could not be reached (${database}); the request was refused with 503`);
      return reply.status(503).header('retry-after', String(RETRY_AFTER_S)).send({ error: DATABASE_DOWN, code: 'database_unavailable' });
    }
    req.log.error({ err }, 'request failed');
    return reply.status(500).send({ error: 'Something went wrong on the server. Please try again.' });
  });

  // Cross-site requests are refused: a state change must come from our own pages.
  const allowedOrigin = new URL(config.PUBLIC_URL).origin;
  app.addHook('onRequest', async (req) => {
    if (req.method === 'GET' || req.method === 'HEAD' || req.method === 'OPTIONS') return;
    const origin = req.headers.origin;
    if (!origin) return;
    const host = req.headers.host;
    if (origin !== allowedOrigin && origin !== `http://${host}` && origin !== `https://${host}`) {
      throw new ApiError(403, 'Cross-site request refused.');
    }
  });

  await app.register(sessionPlugin, { ctx, keepMs: opts.sessionKeepMs });

  // Up or down for anyone (a load balancer, a monitor); the details (database, mail backlog) only
  // for a manager or HEALTH_TOKEN: the backlog moves with sign-in requests for known addresses.
  const healthToken = config.HEALTH_TOKEN ? crypto.createHash('sha256').update(config.HEALTH_TOKEN).digest() : null;
  const mayReadHealth = (req: FastifyRequest) => {
    if (req.user?.role === 'manager') return true;
    const bearer = /^Bearer\s+(\S+)$/i.exec(req.headers.authorization ?? '')?.[1];
    return !!(healthToken && bearer && crypto.timingSafeEqual(healthToken, crypto.createHash('sha256').update(bearer).digest()));
  };
  app.get('/healthz', { config: { access: 'public' } }, async (req, reply) => {
    try {
      await ping(dbh.db);
      return mayReadHealth(req) ? { ok: true, database: dbh.dialect, outbox: await ctx.outbox.backlog() } : { ok: true };
    } catch {
      return reply.status(503).header('retry-after', String(RETRY_AFTER_S)).send({ ok: false });
    }
  });
  app.get('/robots.txt', { config: { access: 'public' } }, async (_req, reply) =>
    reply.header('cache-control', 'public, max-age=86400').type('text/plain; charset=utf-8').send('User-agent: *\nDisallow: /\n'),
  );
  let ready = true;
  // Ready while not shutting down and the database answers: a load balancer sends no one here while it does not.
  app.get('/readyz', { config: { access: 'public' } }, async (_req, reply) =>
    ready && (await answers(dbh.db)) ? { ok: true } : reply.status(503).header('retry-after', String(RETRY_AFTER_S)).send({ ok: false }),
  );

  await app.register(
    async (api) => {
      await api.register(authRoutes, { ctx });
      await api.register(signInMethodRoutes, { ctx });
      await api.register(sessionRoutes, { ctx });
      await api.register(passkeyRoutes, { ctx });
      await api.register(profileRoutes, { ctx });
      await api.register(weatherRoutes, { ctx });
      await api.register(eventRoutes, { ctx, streams });
      await api.register(storeRoutes, { ctx });
      await api.register(dealerRoutes, { ctx });
      await api.register(rotationRoutes, { ctx, sweepMs: opts.sweepMs });
      await api.register(leadRoutes, { ctx });
      await api.register(rulesRoutes);
      await api.register(routingRoutes);
      await api.register(availabilityRoutes);
      await api.register(payPlanRoutes);
      await api.register(deskRoutes);
      await api.register(grabRoutes);
      await api.register(floorRoutes, { ctx });
      await api.register(ledgerRoutes);
      await api.register(userRoutes, { ctx });
      await api.register(salesRoutes, { ctx });
      await api.register(boardRoutes, { ctx });
      await api.register(tvRoutes, { ctx, streams });
      await api.register(intakeRoutes, { prefix: '/v1', ctx, clock: opts.intakeClock });
      await api.register(integrationRoutes, { ctx });
      await api.register(noticeRoutes, { ctx });
      await api.register(mailRoutes, { mailIn });
      api.all('/*', { config: { access: 'public' } }, async () => {
        throw new ApiError(404, 'No such API route.');
      });
    },
    { prefix: '/api' },
  );

  // Single sign-on's browser redirects: outside /api like the pages, before the pages' catch-all.
  await app.register(oidcRoutes, { ctx });

  if (hasWeb) {
    // index.html is a template (it names the app): only the rendered page below is ever served.
    await app.register(fastifyStatic, {
      root: webDist,
      wildcard: false,
      index: false,
      globIgnore: ['index.html', '**/*.br', '**/*.gz', `${DRAWING_DIR}/**`],
      // The build writes file.br and file.gz beside each text file (see vite.config.ts).
      preCompressed: true,
      cacheControl: false,
      setHeaders: (res, file) => {
        res.setHeader('cache-control', path.relative(webDist, file).startsWith(`assets${path.sep}`) ? IMMUTABLE : 'no-cache');
        if (COMPRESSIBLE.test(file.replace(/\.(br|gz)$/, ''))) res.setHeader('vary', 'Accept-Encoding');
      },
    });
    const template = fs
      .readFileSync(path.join(webDist, 'index.html'), 'utf8')
      .replaceAll('__APP_NAME__', escapeHtml(config.APP_NAME))
      .replaceAll('__DEALERSHIP_NAME__', escapeHtml(config.DEALERSHIP_NAME ?? ''))
      .replaceAll('__APP_TIMEZONE__', escapeHtml(config.APP_TIMEZONE));
    // One page per set of hints (a dashboard screen's code and its store's data), compressed once.
    // An address may name any store code: once so many are kept, a new one gets its screen's page
    // without the store's data (never a compression per request).
    const hintsFor = dashboardHints(webDist);
    const pages = new Map<string, ReturnType<typeof precompressed>>();
    const pageFor = (url: string): ReturnType<typeof precompressed> => {
      const hints = hintsFor(url);
      let page = pages.get(hints);
      if (!page) {
        if (pages.size >= PAGES_KEPT && url.startsWith('/s/')) return pageFor(url.replace(/^\/s\/[^/?]*/, ''));
        pages.set(hints, (page = precompressed(template.replace('</head>', `${hints}</head>`))));
      }
      return page;
    };
    // Every non-API path is the single-page app; it shows its own "Page Not Found". A screen the
    // server draws is that person's own page: never kept by a cache.
    const page = async (req: FastifyRequest, reply: FastifyReply) => {
      if (req.url.startsWith('/assets/')) return reply.status(404).header('cache-control', 'no-store').send({ error: 'Not found.' });
      const drawn = await drawing?.pageFor(app, req, () => template.replace('</head>', `${hintsFor(req.url, true)}</head>`));
      reply.type('text/html; charset=utf-8');
      if (drawn) return reply.header('cache-control', 'no-store').send(await compressNow(req, reply, drawn));
      return sendPrecompressed(req, reply.header('cache-control', 'no-cache'), pageFor(req.url));
    };
    app.get('/*', { config: { access: 'public' } }, page);
    app.get('/', { config: { access: 'public' } }, page);
  }

  let stopPruning = async () => {};
  app.addHook('onReady', async () => {
    ctx.outbox.start();
    ctx.notices?.start();
    await mailIn.start();
    stopPruning = schedulePrune(dbh, app.log, opts.pruneMs ?? PRUNE_EVERY_MS);
  });
  app.addHook('onClose', async () => {
    ready = false;
    for (const end of [...streams]) end();
    await mailIn.stop();
    await ctx.notices?.stop();
    await ctx.outbox.stop();
    await stopPruning();
    await ctx.bus.close();
  });
  app.addHook('preClose', async () => {
    ready = false;
    for (const end of [...streams]) end();
  });
  // A request still at work when closing began ends its connection with its answer: kept alive and
  // idle, that connection held the close until its keep-alive ran out (a burst of assigns answered
  // together after SIGTERM left one open for the 10 s the stop waits).
  app.addHook('onSend', (_req, reply, payload, done) => {
    if (!ready) reply.header('connection', 'close');
    done(null, payload);
  });

  return app;
}
