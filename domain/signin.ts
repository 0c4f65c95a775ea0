import { z } from 'zod';

/** The ways to sign in here, for the sign-in page: the e-mail link (unless a manager turned it off) and single sign-on's button. */
export const authMethods = z.object({ link: z.boolean(), oidc: z.object({ label: z.string() }).nullable() });

/** Manager → Sign-in: whether single sign-on is set up, the address to register at the provider, the link switch, and who may change it. */
export const signInSettings = z.object({
  sso: z.boolean(),
  label: z.string().nullable(),
  redirectUri: z.string(),
  link: z.boolean(),
  mayChange: z.boolean(),
});
export type SignInSettings = z.infer<typeof signInSettings>;

export const signInSettingsSchema = z.strictObject(
  { link: z.boolean({ error: 'link must be true or false' }) },
  { error: 'Say whether the e-mail link sign-in is on: { "link": true } or { "link": false }' },
);
