import { readCode, storePath } from '../../domain/stores';

/** The store code an address names (/s/NSH/dashboard/...), as written there; null when it names none. */
export function codeInPath(pathname: string): string | null {
  const m = /^\/s\/([^/]+)/.exec(pathname);
  return m ? decodeURIComponent(m[1]) : null;
}

/** The store the current address names, read as a code (capitals); null outside a store's screens. */
let pathname = () => window.location.pathname;
/** Where the address is read: the browser's, or (web/entry-server.tsx) that of the page being drawn. */
export const addressVia = (fn: () => string) => {
  pathname = fn;
};
export const codeInAddress = () => readCode(codeInPath(pathname()));

/** The same screen in another store: /s/NSH/dashboard/routing → /s/DTN/dashboard/routing; elsewhere its overview. */
export function sameScreenIn(pathname: string, code: string): string {
  const here = codeInPath(pathname);
  return here === null
    ? storePath(code, '/dashboard/overview')
    : storePath(code, pathname.slice(`/s/${encodeURIComponent(here)}`.length) || '/dashboard/overview');
}
