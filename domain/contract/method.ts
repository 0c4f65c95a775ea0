/** The HTTP methods of the contract's routes. */
export type Method = 'GET' | 'POST' | 'PATCH' | 'PUT' | 'DELETE';
const METHODS: readonly string[] = ['GET', 'POST', 'PATCH', 'PUT', 'DELETE'];
const isMethod = (s: string): s is Method => METHODS.includes(s);

/** A route's method and path: "POST /leads/:id/accept" is POST and /leads/:id/accept. Free of zod, so the sign-in page may load it. */
export function methodAndPath(route: string): [Method, string] {
  const space = route.indexOf(' ');
  const method = route.slice(0, space);
  if (!isMethod(method)) throw new Error(`Route "${route}" does not start with an HTTP method`);
  return [method, route.slice(space + 1)];
}
