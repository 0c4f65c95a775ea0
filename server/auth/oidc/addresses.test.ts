import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS, testApp, type TestApp } from '../../test/harness';
import { OIDC_CLIENT, startOidcProvider, type OidcProvider } from '../../test/oidc-provider';
import { insertUser } from '../../users/repo';
import { REFUSED } from './routes';

/** A provider's verified address is read as every address is (domain/email.ts): ALLOWED_EMAIL_DOMAINS is dealer.test here. */
describe.each(DIALECTS)('single sign-on takes only a real address of an allowed domain, on %s', (dialect) => {
  let idp: OidcProvider;
  let t: TestApp;
  beforeAll(async () => {
    idp = await startOidcProvider(['http://localhost:3000/auth/oidc/callback']);
    t = await testApp(dialect, { OIDC_ISSUER: idp.issuer, OIDC_CLIENT_ID: OIDC_CLIENT.id, OIDC_CLIENT_SECRET: OIDC_CLIENT.secret });
  });
  afterAll(async () => {
    await t.close();
    await idp.close();
  });

  let clients = 0;
  /** A sign-in at the provider whose ID token names `claim` as the verified address. */
  async function signInClaiming(claim: string) {
    const start = await t.app.inject({ method: 'GET', url: '/auth/oidc/start', remoteAddress: `10.2.0.${++clients}` });
    const flow = start.cookies.find((c) => c.name === 'bdc_oidc')!;
    idp.changeNextIdToken((c) => ({ ...c, email: claim, email_verified: true }));
    const back = await idp.login(start.headers.location as string, 'someone@attacker.example');
    return t.app.inject({ method: 'GET', url: back.pathname + back.search, headers: { cookie: `bdc_oidc=${flow.value}` } });
  }
  const refused = (res: Awaited<ReturnType<typeof signInClaiming>>) => {
    expect(res.headers.location).toBe(REFUSED);
    expect(res.cookies.find((c) => c.name === 'bdc_session')).toBeUndefined();
  };

  it('makes no one of an address whose domain is another behind a second @ or quotes', async () => {
    for (const claim of ['"x@dealer.test@"@attacker.example', 'evil@dealer.test@attacker.example']) refused(await signInClaiming(claim));
    expect(await t.db.selectFrom('users').select('email').where('email', 'like', '%attacker%').execute()).toEqual([]);
  });

  it('signs no one in as "k" from a Kelvin sign', async () => {
    await insertUser(t.db, { email: 'kate@dealer.test', name: 'Kate' });
    refused(await signInClaiming('\u212Aate@dealer.test'));
    // The same person by her own address comes in.
    expect((await signInClaiming('Kate@Dealer.Test')).headers.location).toBe('/dashboard/overview');
  });
});
