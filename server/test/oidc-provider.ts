import http from 'node:http';
import crypto from 'node:crypto';
import Provider from 'oidc-provider';
import { freePort } from './process';

export const OIDC_CLIENT = { id: 'bdc-portal', secret: 'a-client-secret-for-the-tests' };

interface Account {
  email: string;
  verified: boolean;
  disabled: boolean;
}

type Jwk = crypto.JsonWebKey & { kid: string; alg: string; use: string };
const signingKey = (): Jwk => ({
  ...crypto.generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey.export({ format: 'jwk' }),
  kid: crypto.randomUUID(),
  alg: 'RS256',
  use: 'sig',
});

/** Rewrites the ID token the token endpoint answers (the provider's own key signs the result): a wrong nonce, an old token. */
export type IdTokenChange = (claims: Record<string, unknown>) => Record<string, unknown>;

/**
 * A real OpenID Connect provider (the oidc-provider package) on a port of its own, for the tests:
 * one confidential client, accounts known by e-mail (anyone who types an address there is logged
 * in as it, verified unless said otherwise), a login page of its own, and levers the tests pull:
 * disable an account, rotate the signing key, change the next ID token.
 */
export async function startOidcProvider(redirectUris: string[], port?: number) {
  const listenOn = port ?? (await freePort());
  const issuer = `http://127.0.0.1:${listenOn}`;
  const accounts = new Map<string, Account>();
  const account = (email: string) => {
    let a = accounts.get(email);
    if (!a) accounts.set(email, (a = { email, verified: true, disabled: false }));
    return a;
  };
  let key = signingKey();
  let nextChange: { change: IdTokenChange; forge: boolean } | null = null;
  let refreshes = 0;
  let givesRefreshTokens = true;

  const make = () => {
    const p = new Provider(issuer, {
      clients: [
        {
          client_id: OIDC_CLIENT.id,
          client_secret: OIDC_CLIENT.secret,
          redirect_uris: redirectUris,
          grant_types: ['authorization_code', 'refresh_token'],
          response_types: ['code'],
        },
      ],
      jwks: { keys: [key] },
      cookies: { keys: ['cookie-key-for-the-test-provider'] },
      claims: { openid: ['sub'], email: ['email', 'email_verified'] },
      scopes: ['openid', 'offline_access', 'email', 'profile'],
      pkce: { required: () => true },
      features: { devInteractions: { enabled: false } },
      interactions: { url: (_ctx: unknown, interaction: { uid: string }) => `/login/${interaction.uid}` },
      // Consent is taken as given: the grant covers what the portal asks for.
      async loadExistingGrant(ctx: ProviderCtx) {
        const id = ctx.oidc.result?.consent?.grantId || ctx.oidc.session.grantIdFor(ctx.oidc.client.clientId);
        if (id) return ctx.oidc.provider.Grant.find(id);
        const grant = new ctx.oidc.provider.Grant({ clientId: ctx.oidc.client.clientId, accountId: ctx.oidc.session.accountId });
        grant.addOIDCScope('openid email profile offline_access');
        grant.addOIDCClaims(['email', 'email_verified']);
        await grant.save();
        return grant;
      },
      issueRefreshToken: async () => givesRefreshTokens,
      async findAccount(_ctx: unknown, sub: string) {
        const a = accounts.get(sub);
        if (!a || a.disabled) return undefined;
        return { accountId: sub, claims: async () => ({ sub, email: a.email, email_verified: a.verified }) };
      },
      ttl: { IdToken: 3600, AccessToken: 3600, RefreshToken: 86400, Session: 86400, Grant: 86400, Interaction: 3600, AuthorizationCode: 60 },
    });
    // The next ID token, changed by the test and signed again with the provider's own key.
    p.use(async (ctx: KoaCtx, next: () => Promise<void>) => {
      await next();
      if (ctx.path === '/token' && ctx.oidc?.params?.grant_type === 'refresh_token') refreshes++;
      const planned = nextChange;
      if (!planned || ctx.path !== '/token' || ctx.status !== 200 || typeof ctx.body?.id_token !== 'string') return;
      nextChange = null;
      const claims = JSON.parse(Buffer.from(ctx.body.id_token.split('.')[1], 'base64url').toString());
      // A forger signs with a key of his own under the provider's key id.
      ctx.body = { ...ctx.body, id_token: signJwt(planned.change(claims), planned.forge ? { ...signingKey(), kid: key.kid } : key) };
    });
    return p;
  };
  let provider = make();

  const server = http.createServer((req, res) => {
    void (async () => {
      const m = /^\/login\/([\w-]+)(\/done)?$/.exec(req.url ?? '');
      if (!m) return provider.callback()(req, res);
      const details = await provider.interactionDetails(req, res);
      if (!m[2]) {
        res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
        return res.end(
          `<!doctype html><title>Test provider</title><h1>Test provider sign-in</h1><form method="post" action="/login/${details.uid}/done"><label>E-mail <input name="email" type="email"></label><button>Sign in at the provider</button></form>`,
        );
      }
      let body = '';
      for await (const chunk of req) body += chunk;
      const email = new URLSearchParams(body).get('email')?.trim().toLowerCase() ?? '';
      // A disabled account is turned away here, and the browser sent back with the provider's "no".
      const result = account(email).disabled ? { error: 'access_denied', error_description: 'This account is disabled.' } : { login: { accountId: email } };
      await provider.interactionFinished(req, res, result, { mergeWithLastSubmission: false });
    })().catch((err: unknown) => {
      res.writeHead(500);
      res.end(String(err));
    });
  });
  await new Promise<void>((r) => server.listen(listenOn, '127.0.0.1', r));

  return {
    issuer,
    port: listenOn,
    /** An account at the provider; `verified: false` for an address it has not checked. */
    account: (email: string, set: Partial<Account> = {}) => Object.assign(account(email), set),
    /** A new signing key, published and used from now on (the old one withdrawn). */
    rotateKey() {
      key = signingKey();
      provider = make();
    },
    /** Whether it gives refresh tokens (as Google does only when asked in its own way). */
    giveRefreshTokens(on: boolean) {
      givesRefreshTokens = on;
    },
    /** How many refresh-token grants it has answered. */
    refreshes: () => refreshes,
    /** The next ID token changed, signed with the provider's key, or with a stranger's (`forge`). */
    changeNextIdToken(change: IdTokenChange, forge = false) {
      nextChange = { change, forge };
    },
    /**
     * The provider's side of a browser sign-in, without a browser: follows its redirects from the
     * portal's authorization address, logs in as `email`, and answers the address it sends the
     * browser back to (the portal's callback with its code and state).
     */
    async login(authorizeUrl: string, email: string): Promise<URL> {
      const jar = new Map<string, string>();
      const send = async (url: string, init: RequestInit = {}) => {
        const res = await fetch(url, { ...init, redirect: 'manual', headers: { ...init.headers, cookie: [...jar].map(([k, v]) => `${k}=${v}`).join('; ') } });
        for (const c of res.headers.getSetCookie()) {
          const [pair] = c.split(';');
          const at = pair.indexOf('=');
          jar.set(pair.slice(0, at), pair.slice(at + 1));
        }
        return res;
      };
      let url = authorizeUrl;
      for (let hops = 0; hops < 10; hops++) {
        if (!url.startsWith(issuer)) return new URL(url);
        const login = /\/login\/([\w-]+)$/.exec(new URL(url).pathname);
        const res = login
          ? await send(`${issuer}/login/${login[1]}/done`, {
              method: 'POST',
              headers: { 'content-type': 'application/x-www-form-urlencoded' },
              body: new URLSearchParams({ email }).toString(),
            })
          : await send(url);
        const to = res.headers.get('location');
        if (!to) throw new Error(`the provider answered ${res.status} at ${url}: ${await res.text()}`);
        url = new URL(to, url).href;
      }
      throw new Error('the provider redirected too often');
    },
    /** Stops answering (an outage); connections kept open by clients are cut too. */
    close: () =>
      new Promise<void>((r) => {
        server.close(() => r());
        server.closeAllConnections();
      }),
  };
}
export type OidcProvider = Awaited<ReturnType<typeof startOidcProvider>>;

function signJwt(claims: Record<string, unknown>, key: Jwk): string {
  const enc = (v: unknown) => Buffer.from(JSON.stringify(v)).toString('base64url');
  const input = `${enc({ alg: 'RS256', typ: 'JWT', kid: key.kid })}.${enc(claims)}`;
  const signature = crypto.sign('sha256', Buffer.from(input), crypto.createPrivateKey({ key, format: 'jwk' }));
  return `${input}.${signature.toString('base64url')}`;
}

interface ProviderCtx {
  oidc: {
    provider: any;
    result?: { consent?: { grantId?: string } };
    session: { accountId: string; grantIdFor: (clientId: string) => string | undefined };
    client: { clientId: string };
  };
}
interface KoaCtx {
  path: string;
  oidc?: { params?: { grant_type?: string } };
  status: number;
  body?: { id_token?: unknown };
}
