import { AsyncLocalStorage } from 'node:async_hooks';
import { prerenderToNodeStream } from 'react-dom/static';
import { StaticRouter } from 'react-router';
import { dehydrate, type Query } from '@tanstack/react-query';
import { ColorSchemeScript } from '@mantine/core';
import { renderToStaticMarkup } from 'react-dom/server';
import { sendVia } from './api/client';
import { setNames } from './api/meta';
import { setTakingOver } from './components/AfterDraw';
import { meQuery } from './session/SessionProvider';
import { newQueryClient, Portal, Screens } from './app';
import { screens } from './screens';
import { TitleSink } from './components/PageTitle';
import { readCode, storePath } from '../domain/stores';
import { addressVia } from './stores/paths';
import { isInBrowserOnly } from './components/AfterDraw';
import type { DrawnScreen, Drawn } from '../domain/first-data';

// The server's side of a drawn page (server/http/drawn.ts): the app's own screens drawn for one
// request with the answers the API gives that request, and the cache the app takes them over with.

type Send = (url: string, init: RequestInit) => Promise<Response>;
/** Each page's calls go to its own request's answers (its session), never another's, from its own address. */
const requests = new AsyncLocalStorage<{ send: Send; at: string }>();
sendVia((url, init) => {
  const page = requests.getStore();
  if (!page) return Promise.reject(new Error('A call was made outside a page being drawn.'));
  return page.send(url, init);
});
addressVia(() => requests.getStore()?.at ?? '');

export { setNames };
// Every render here draws a page for the app to take over.
setTakingOver(true);

/** Mantine's script that sets the colour scheme before the first paint (the page's CSP allows it by its hash). */
export const colorSchemeScript = renderToStaticMarkup(<ColorSchemeScript defaultColorScheme="auto" />);

/** The screens' code is loaded once, with the server, not with its first page. */
export const ready = Promise.all(Object.values(screens).map((load) => load()));

/** Renders that may find more to ask for (a part that asks once the first answer is in); a page that needs more is left to the app. */
const PASSES = 3;

/** A query the drawn screen asked for and has no answer yet: enabled, not fetched, not one left to the browser. */
function unanswered(q: Query) {
  const { enabled, queryFn } = q.options as { enabled?: boolean | ((q: Query) => boolean); queryFn?: unknown };
  const on = typeof enabled === 'function' ? enabled(q) : enabled !== false;
  return on && typeof queryFn === 'function' && q.state.status === 'pending' && q.state.fetchStatus === 'idle' && !isInBrowserOnly(q.meta);
}

/**
 * Draws `screen` at a store's address (`code`, or the person's own store when null) with its
 * query (`search`, '' or '?...', read by the screen as in the browser), laid out for
 * a phone or not, with `send` answering its calls as the API answers this request. The screen's
 * own queries say what it needs: it is drawn, what it asked for is fetched, and it is drawn again
 * with the answers, until it asks for nothing more. Null when it is not to be drawn here: no
 * session, a store he may not open, an answer that was not a success (the app then asks again
 * and says what went wrong), or a screen that kept asking.
 */
export async function draw(
  screen: DrawnScreen,
  code: string | null,
  search: string,
  phone: boolean,
  send: Send,
): Promise<{ html: string; title: string; drawn: Drawn } | null> {
  const drawnAt = Date.now();
  const client = newQueryClient();
  // Nothing is asked twice: the page must not wait.
  client.setDefaultOptions({ queries: { ...client.getDefaultOptions().queries, retry: false } });
  const page = { send, at: '' };
  return requests.run(page, async () => {
    const me = await client.fetchQuery(meQuery).catch(() => null);
    const store = me?.stores.find((s) => s.code === (code === null ? me.store : readCode(code)));
    if (!store) return null;
    // The group's screen has an address of its own, in the person's own store's shell.
    const at = screen === 'group' ? '/group' : storePath(store.code, `/dashboard/${screen}`);
    page.at = at;
    let title = '';
    const render = async () => {
      title = '';
      const failures: unknown[] = [];
      const { prelude } = await prerenderToNodeStream(
        <Portal client={client} phone={phone}>
          <TitleSink.Provider value={(t) => (title = t)}>
            <StaticRouter location={at + search}>
              <Screens />
            </StaticRouter>
          </TitleSink.Provider>
        </Portal>,
        // One piece: no boundary is sent apart to be put in place by an inline script (the CSP has none).
        { onError: (err) => void failures.push(err), progressiveChunkSize: Number.POSITIVE_INFINITY },
      );
      if (failures.length) throw new AggregateError(failures, 'The screen could not be drawn whole.');
      let html = '';
      for await (const chunk of prelude) html += String(chunk);
      return html;
    };
    for (let pass = 1; pass <= PASSES; pass++) {
      const html = await render();
      const asked = client.getQueryCache().findAll().filter(unanswered);
      // A screen that sent its person elsewhere (a guard) drew no title: the app moves him on.
      if (!title) return null;
      if (!asked.length) return { html, title, drawn: { at, drawnAt, state: dehydrate(client), phone } };
      await Promise.all(asked.map((q) => q.fetch().catch(() => undefined)));
      if (asked.some((q) => q.state.status !== 'success')) return null;
    }
    return null;
  });
}
