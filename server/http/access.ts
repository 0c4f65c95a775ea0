/**
 * Every route states who may call it in its config; a route without one is refused,
 * so a forgotten permission fails closed. The authorisation test walks these.
 */
export type Access = 'public' | 'user' | 'manager' | 'apikey' | 'tv';

declare module 'fastify' {
  interface FastifyContextConfig {
    access?: Access;
  }
}

export const access = (a: Access) => ({ config: { access: a } });
