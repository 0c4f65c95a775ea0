import { z } from 'zod';

/** How a session was made, as Settings → Signed-in devices says it. */
const HOW: Record<string, string> = { link: 'E-mail link', oidc: 'Single sign-on', passkey: 'Passkey' };
export const howSignedIn = (via: string) => HOW[via] ?? 'E-mail link';

/** Where a session was last used from: its address (no place database here). */
export const placeOf = (ip: string | null) => (ip ? `Address ${ip}` : 'Address unknown');

/** A session's public id in a path; anything else is no session of his. */
export const sessionSid = z.object({
  sid: z
    .union([z.string(), z.number()])
    .transform(String)
    .pipe(z.string().regex(/^[A-Za-z0-9_-]{1,100}$/, { error: 'Session not found' })),
});
