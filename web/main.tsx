import { startTransition } from 'react';
import { createRoot, hydrateRoot } from 'react-dom/client';
import { BrowserRouter } from 'react-router';
import { hydrate, type DehydratedState } from '@tanstack/react-query';
import { codeInPath } from './stores/paths';
import { readCode } from '../domain/stores';
import { screens } from './screens';
import { meQuery } from './session/SessionProvider';
import { FIRST, newQueryClient, Portal, Screens } from './app';
import { DRAWN_ID, isAskedAtStart, type Drawn } from '../domain/first-data';
import { localHour } from '../domain/time';
import type { SessionUser } from '../domain/contract/answers';
import { setTakingOver } from './components/AfterDraw';
import { keepDrawn } from './api/drawnAnswers';

// The page's CSP allows no eval: zod's probe for it (a new Function, when its first object schema
// is built) would be refused and reported. zod reads its settings from this global, so it is set
// here, before any schema exists, without loading zod with the sign-in page.
Object.assign(globalThis, { __zod_globalConfig: { jitless: true } });

// A screen the server drew with its data (server/http/drawn.ts): its answers go into the cache, so
// the first render here is the same as the server's and takes over its page (hydration). An
// address without a store (/dashboard/...) was drawn in the person's own store: the address
// becomes that store's first, as the app would have moved it.
const drawnText = document.getElementById(DRAWN_ID)?.textContent;
// Safe: the server wrote it with the page.
const drawn = drawnText ? (JSON.parse(drawnText) as Drawn) : null;
if (drawn && drawn.at !== window.location.pathname) {
  window.history.replaceState(window.history.state, '', `${drawn.at}${window.location.search}${window.location.hash}`);
}

// Opening a dashboard address: fetch the shell and that screen now, alongside "who am I", rather
// than one after the other once the session is known. A store's address is /s/CODE/dashboard/...;
// one from before stores, /dashboard/..., goes to the same screen in the person's own store.
const addressCode = readCode(codeInPath(window.location.pathname));
const [top, sub, part] = window.location.pathname.split('/').slice(addressCode ? 3 : 1);
/** The dashboard screen this address opens ('overview' for /dashboard itself); null elsewhere. */
const screen = top === 'dashboard' ? sub || 'overview' : top === 'group' && !addressCode ? 'group' : null;
/** The shell's and the screen's code, on its way. */
const code: Promise<unknown>[] = [];
if (screen) {
  const byPath: Record<string, () => Promise<unknown>> = {
    overview: screens.overview,
    routing: screens.routing,
    leads: screens.leads,
    associates: screens.associates,
    management: screens.management,
    settings: screens.settings,
    stats: part === 'leads' ? screens.leadsKpi : part === 'funnel' ? screens.funnel : screens.sales,
    group: screens.group,
    desk: screens.desk,
  };
  // Own keys only: /dashboard/constructor is just an unknown address.
  const first = Object.hasOwn(byPath, screen) ? byPath[screen] : undefined;
  for (const load of [screens.shell, first]) if (load) code.push(load().catch(() => undefined));
}

const queryClient = newQueryClient();
if (drawn) {
  hydrate(queryClient, drawn.state as DehydratedState);
  keepDrawn(drawn.drawnAt, drawn.state as DehydratedState);
}
// A screen's first data is asked for now (the page named it, so it is on its way): its first render
// then has it, instead of drawing placeholders and then the data once the shell and the screen have
// drawn. An address without a store (/dashboard/..., the installed app's start) named it without
// one, which the server answers from the person's own store: the address goes on to that store,
// so the answers are kept under its code once "who am I" says which it is.
const first = screen && isAskedAtStart(screen) && !drawn ? FIRST[screen] : [];
if (addressCode) for (const q of first) void queryClient.prefetchQuery(q(addressCode));
else if (first.length) {
  const asked = first.map((q) => {
    const answer = q('').queryFn();
    answer.catch(() => undefined);
    return { q, answer };
  });
  queryClient.fetchQuery(meQuery).then(
    (user) => {
      if (user?.store) for (const { q, answer } of asked) void queryClient.prefetchQuery({ queryKey: q(user.store).queryKey, queryFn: () => answer });
    },
    () => undefined,
  );
}

const root = document.getElementById('root') ?? document.body.appendChild(document.createElement('div'));

const app = (
  <Portal client={queryClient} phone={drawn?.phone}>
    <BrowserRouter>
      <Screens />
    </BrowserRouter>
  </Portal>
);
// Drawn as a transition: React then builds the first screen in slices of a few milliseconds,
// between which a phone paints and answers a tap, instead of in one long task. A drawn page is
// taken over once its screen's code is in, in one pass, rather than piece by piece as it comes.
if (drawn) void Promise.all(code).then(takeOver);
else startTransition(() => createRoot(root).render(app));

/**
 * Takes a drawn page over. The greeting's first clock (the browser's first time-zone formatter,
 * some 30 ms on a phone) is built in a task of its own first, apart from the screen's code starting
 * and from taking over.
 */
async function takeOver() {
  const nextTask = () => new Promise((next) => setTimeout(next));
  await nextTask();
  const me = queryClient.getQueryData<SessionUser | null>(meQuery.queryKey);
  const zone = me?.stores.find((s) => s.code === addressCode)?.timezone;
  if (zone) localHour(new Date(), zone);
  await nextTask();
  setTakingOver(true);
  startTransition(() => void hydrateRoot(root, app));
}
