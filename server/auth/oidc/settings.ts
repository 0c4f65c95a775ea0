import type { Ctx } from '../../context';
import type { Config } from '../../config';

const KEY = 'signin_link';
/** What a link request hears once a manager turned the link off. */
export const linkOff = (c: Config) => `Sign-in by e-mail link is turned off here. Use “${c.OIDC_LABEL}” instead.`;

/** The provider and this portal's client there: single sign-on is on when all three are set. */
export const ssoOf = (c: Config) =>
  c.OIDC_ISSUER && c.OIDC_CLIENT_ID && c.OIDC_CLIENT_SECRET ? { issuer: c.OIDC_ISSUER, id: c.OIDC_CLIENT_ID, secret: c.OIDC_CLIENT_SECRET } : null;
export const ssoConfigured = (c: Config) => ssoOf(c) !== null;

/** The address to register at the provider. */
export const redirectUri = (c: Config) => `${c.PUBLIC_URL}/auth/oidc/callback`;

/** The e-mail link is on unless a manager turned it off, and always while single sign-on is not set up (nobody could sign in). */
export async function linkSignInOn(ctx: Ctx): Promise<boolean> {
  if (!ssoConfigured(ctx.config)) return true;
  const row = await ctx.dbh.db.selectFrom('settings').select('value').where('key', '=', KEY).executeTakeFirst();
  return row?.value !== 'off';
}

export async function setLinkSignIn(ctx: Ctx, on: boolean) {
  await ctx.dbh.db
    .insertInto('settings')
    .values({ key: KEY, value: on ? 'on' : 'off' })
    .onConflict((oc) => oc.column('key').doUpdateSet({ value: on ? 'on' : 'off' }))
    .execute();
}
