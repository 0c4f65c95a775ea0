import { AsyncLocalStorage } from 'node:async_hooks';
import { prerenderToNodeStream } from 'react-dom/static';
import { StaticRouter } from 'react-router';
import { dehydrate } from '@tanstack/react-query';
import { ColorSchemeScript } from '@mantine/core';
import { renderToStaticMarkup } from 'react-dom/server';
import { sendVia } from './api/client';
import { setNames } from './api/meta';
import { setTakingOver } from './components/AfterDraw';
import { meQuery } from './session/SessionProvider';
import { FIRST, newQueryClient, Portal, Screens } from './app';
import { screens } from './screens';
import { TitleSink } from './components/PageTitle';
import { readCode, storePath } from '../domain/stores';
import { DRAWN_SCREENS, type AskedAtStart, type Drawn } from '../domain/first-data';

// The server's side of a drawn page (server/http/drawn.ts): the app's own screens drawn for one
// request with the answers the API gives that request, and the cache the app takes them over with.

type Send = (url: string, init: RequestInit) => Promise<Response>;
/** Each page's calls go to its own request's answers (its session), never another's. */
const requests = new AsyncLocalStorage<Send>();
sendVia((url, init) => {
  const send = requests.getStore();
  if (!send) return Promise.reject(new Error('A call was made outside a page being drawn.'));
  return send(url, init);
});

export { setNames };
// Every render here draws a page for the app to take over.
setTakingOver(true);

/** Mantine's script that sets the colour scheme before the first paint (the page's CSP allows it by its hash). */
export const colorSchemeScript = renderToStaticMarkup(<ColorSchemeScript defaultColorScheme="auto" />);

/** The code of the drawn screens is loaded once, with the server, not with its first page. */
export const ready = Promise.all([screens.shell(), ...DRAWN_SCREENS.map((s) => screens[s]())]);

/**
 * Draws `screen` at a store's address (`code`, or the person's own store when null), laid out for
 * a phone or not, with `send` answering its calls as the API answers this request. Null when it is
 * not to be drawn here: no session, a store he may not open, or an answer that was not a success
 * (the app then asks again and says what went wrong). Nothing is asked twice: the page must not wait.
 */
export async function draw(
  screen: AskedAtStart,
  code: string | null,
  phone: boolean,
  send: Send,
): Promise<{ html: string; title: string; drawn: Drawn } | null> {
  const client = newQueryClient();
  return requests.run(send, async () => {
    const me = await client.fetchQuery({ ...meQuery, retry: false }).catch(() => null);
    const store = me?.stores.find((s) => s.code === (code === null ? me.store : readCode(code)));
    if (!store) return null;
    const asked = FIRST[screen].map((q) => q(store.code));
    await Promise.all(asked.map((q) => client.prefetchQuery({ ...q, retry: false })));
    if (asked.some((q) => client.getQueryState(q.queryKey)?.status !== 'success')) return null;
    const at = storePath(store.code, `/dashboard/${screen}`);
    const failures: unknown[] = [];
    let title = '';
    const { prelude } = await prerenderToNodeStream(
      <Portal client={client} phone={phone}>
        <TitleSink.Provider value={(t) => (title = t)}>
          <StaticRouter location={at}>
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
    return { html, title, drawn: { at, state: dehydrate(client), phone } };
  });
}
