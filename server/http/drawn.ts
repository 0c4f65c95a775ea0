import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import type { FastifyBaseLogger, FastifyInstance, FastifyRequest } from 'fastify';
import { DRAWN_ID, isDrawn, type DrawnScreen, type Drawn } from '../../domain/first-data';
import { escapeHtml } from '../mail/mailer';

/** What the build's drawing module (web/entry-server.tsx, built to WEB_DIST/.server) gives. */
interface Drawing {
  setNames: (names: { appName: string; dealershipName: string; timezone: string }) => void;
  colorSchemeScript: string;
  ready: Promise<unknown>;
  draw: (
    screen: DrawnScreen,
    code: string | null,
    search: string,
    phone: boolean,
    send: (url: string, init: RequestInit) => Promise<Response>,
  ) => Promise<{ html: string; title: string; drawn: Drawn } | null>;
}

/** Where the build puts the drawing module: beside the app, in a folder the server does not serve. */
export const DRAWING_DIR = '.server';

/**
 * Starts the app's code once the drawn page has painted (after the next frame), so that on a
 * phone's network the page's styles, which the paint waits for, do not share it with the code.
 * The code's addresses are the page's own (#later). Allowed by its hash in the CSP.
 */
const START_LATER = `requestAnimationFrame(function () {
  setTimeout(function () {
    JSON.parse(document.getElementById('later').textContent).forEach(function (src, i) {
      var e = document.createElement(i ? 'link' : 'script');
      if (i) { e.rel = 'modulepreload'; e.href = src; } else { e.type = 'module'; e.src = src; }
      e.crossOrigin = '';
      document.head.appendChild(e);
    });
  });
});`;
const sha256 = (script: string) => `'sha256-${crypto.createHash('sha256').update(script).digest('base64')}'`;

/** A screen's address the server draws: /s/CODE/dashboard/overview, /dashboard (the overview), /dashboard/stats/funnel and the like, or /group. */
const ADDRESS = /^(?:(?:\/s\/([A-Za-z0-9]{2,8}))?\/dashboard(?:\/([a-z]+(?:\/[a-z]+)?))?|\/(group))\/?$/;
/** The longest query a drawn address may carry (a screen's filters); a longer one gets the plain page. */
const QUERY_MAX = 512;

/**
 * The first frame of a phone's most used screens drawn on the server, with its data: the page
 * paints as soon as it and its styles arrive, instead of after the app's code has come, started
 * and asked for the data. The app then takes the page over (hydration). The drawing asks the API
 * as the browser would, with the request's own cookie, so it sees exactly what its person may see.
 * Without a build's drawing module (the server's own tests), or when a page is not to be drawn
 * (no session, a store he may not open, a refusal), the page is the app's plain page.
 */
export async function loadDrawing(webDist: string, names: { appName: string; dealershipName: string; timezone: string }, log: FastifyBaseLogger) {
  const file = path.join(webDist, DRAWING_DIR, 'entry-server.js');
  if (!fs.existsSync(file)) return null;
  const drawing = (await import(pathToFileURL(file).href)) as Drawing;
  drawing.setNames(names);
  await drawing.ready;
  const body = /^<script[^>]*>([\s\S]*)<\/script>$/.exec(drawing.colorSchemeScript)?.[1];
  if (body === undefined) throw new Error('The drawing module gave no colour scheme script.');
  const json = (v: unknown) => JSON.stringify(v).replace(/</g, '\\u003c');

  return {
    /** The hashes of the drawn page's two inline scripts, for the CSP. */
    scriptHashes: [sha256(body), sha256(START_LATER)],
    /**
     * The drawn page for this request, or null: `page` makes the app's page for the address (with
     * its code hints, without its data's: the data comes drawn), only when one is drawn.
     */
    async pageFor(app: FastifyInstance, req: FastifyRequest, page: () => string): Promise<string | null> {
      const [pathname, query] = req.url.split('?', 2);
      const m = ADDRESS.exec(pathname);
      // The group's screen is at /group only.
      const screen = !m ? null : m[3] ? 'group' : m[2] === 'group' ? null : (m[2] ?? 'overview');
      if (!m || (query?.length ?? 0) > QUERY_MAX || !req.headers.cookie || !isDrawn(screen)) return null;
      const send = async (url: string, init: RequestInit) => {
        if (init.method && init.method !== 'GET') throw new Error('A drawn page only reads.');
        const res = await app.inject({
          method: 'GET',
          url,
          remoteAddress: req.ip,
          headers: { cookie: req.headers.cookie ?? '', 'user-agent': req.headers['user-agent'] ?? '' },
        });
        return new Response(res.body, { status: res.statusCode, headers: { 'content-type': String(res.headers['content-type'] ?? '') } });
      };
      try {
        // A phone's browser says "Mobi" in its name (as Chrome, Safari and Firefox on phones do): its page is laid out for a phone.
        const phone = /Mobi/i.test(req.headers['user-agent'] ?? '');
        const out = await drawing.draw(screen, m[1] ?? null, query ? `?${query}` : '', phone, send);
        if (!out) return null;
        // The app's code starts after the first paint; until it has taken the page over, the page
        // takes no tap (inert): a button drawn here would not yet do anything.
        const later: string[] = [];
        const rest = page().replace(
          /<script type="module" crossorigin src="([^"]+)"><\/script>|<link rel="modulepreload" crossorigin href="([^"]+)">/g,
          (_, src?: string, href?: string) => {
            if (src) later.unshift(src);
            else if (href) later.push(href);
            return '';
          },
        );
        return rest
          .replace(/<title>[^<]*<\/title>/, (plain) => (out.title ? `<title>${escapeHtml(out.title)}</title>` : plain))
          .replace('</head>', `${drawing.colorSchemeScript}</head>`)
          .replace(
            '<div id="root"></div>',
            `<div id="root" inert>${out.html}</div><script type="application/json" id="${DRAWN_ID}">${json(out.drawn)}</script>` +
              `<script type="application/json" id="later">${json(later)}</script><script>${START_LATER}</script>`,
          );
      } catch (err) {
        log.warn({ err }, 'a page could not be drawn on the server; the app draws it');
        return null;
      }
    },
  };
}
