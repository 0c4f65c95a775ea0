import crypto from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isoCBOR } from '@simplewebauthn/server/helpers';
import { DIALECTS, MANAGER, testApp, type TestApp } from '../../test/harness';
import { FLOW_COOKIE } from './routes';
import { PASSKEY_MSG } from '../../../domain/passkey-messages';
import { MSG } from '../../../domain/auth-messages';
import { BAD_TEXT } from '../../http/text';

const PUBLIC_URL = 'https://portal.dealer.test';
const RP_ID = 'portal.dealer.test';

const b64u = (b: Uint8Array | string) => Buffer.from(b).toString('base64url');
const sha256 = (b: Uint8Array | string) => crypto.createHash('sha256').update(b).digest();
const u32 = (n: number) => {
  const b = Buffer.alloc(4);
  b.writeUInt32BE(n);
  return b;
};

/**
 * A software authenticator as a browser's would answer: an ES256 key of its own, attestation
 * "none" made with the real CBOR structures, assertions signed over authenticatorData and the
 * hash of clientDataJSON, its signature counter (settable, to play a clone).
 */
class Authenticator {
  readonly key = crypto.generateKeyPairSync('ec', { namedCurve: 'P-256' });
  readonly id = crypto.randomBytes(32);
  counter = 0;
  userHandle: string | null = null;
  constructor(
    readonly origin = PUBLIC_URL,
    readonly rpId = RP_ID,
  ) {}

  private authData(extra: Buffer = Buffer.alloc(0), flags = 0x01 | 0x04) {
    return Buffer.concat([sha256(this.rpId), Buffer.from([flags | (extra.length ? 0x40 : 0)]), u32(this.counter), extra]);
  }

  create(options: { challenge: string; user: { id: string } }) {
    this.userHandle = options.user.id;
    const jwk = this.key.publicKey.export({ format: 'jwk' });
    const cose = isoCBOR.encode(
      new Map<number, number | Uint8Array>([
        [1, 2],
        [3, -7],
        [-1, 1],
        [-2, Buffer.from(jwk.x!, 'base64url')],
        [-3, Buffer.from(jwk.y!, 'base64url')],
      ]),
    );
    const idLen = Buffer.alloc(2);
    idLen.writeUInt16BE(this.id.length);
    const authData = this.authData(Buffer.concat([Buffer.alloc(16), idLen, this.id, cose]));
    const attestationObject = isoCBOR.encode(
      new Map<string, string | Map<string, string> | Uint8Array>([
        ['fmt', 'none'],
        ['attStmt', new Map<string, string>()],
        ['authData', authData],
      ]),
    );
    const clientDataJSON = JSON.stringify({ type: 'webauthn.create', challenge: options.challenge, origin: this.origin, crossOrigin: false });
    return {
      id: b64u(this.id),
      rawId: b64u(this.id),
      type: 'public-key',
      clientExtensionResults: {},
      authenticatorAttachment: 'platform',
      response: { clientDataJSON: b64u(clientDataJSON), attestationObject: b64u(attestationObject), transports: ['internal'] },
    };
  }

  /** An assertion for the challenge; the counter moves first unless `counter` says where it stands. */
  get(challenge: string, { counter = this.counter + 1, flags = 0x05 }: { counter?: number; flags?: number } = {}) {
    this.counter = counter;
    const authenticatorData = this.authData(Buffer.alloc(0), flags);
    const clientDataJSON = Buffer.from(JSON.stringify({ type: 'webauthn.get', challenge, origin: this.origin, crossOrigin: false }));
    const signature = crypto.sign('sha256', Buffer.concat([authenticatorData, sha256(clientDataJSON)]), this.key.privateKey);
    return {
      id: b64u(this.id),
      rawId: b64u(this.id),
      type: 'public-key',
      clientExtensionResults: {},
      authenticatorAttachment: 'platform',
      response: {
        clientDataJSON: b64u(clientDataJSON),
        authenticatorData: b64u(authenticatorData),
        signature: b64u(signature),
        ...(this.userHandle ? { userHandle: this.userHandle } : {}),
      },
    };
  }
}

describe.each(DIALECTS)('passkeys on %s', (dialect) => {
  let t: TestApp;
  let ann: string;
  let boss: string;

  beforeAll(async () => {
    t = await testApp(dialect, { PUBLIC_URL, SIGNIN_LINKS_PER_MINUTE: '1000' });
    ann = await t.signIn('ann@dealer.test');
    boss = await t.signIn(MANAGER);
  });
  afterAll(() => t.close());

  const api = (method: 'GET' | 'POST' | 'PATCH' | 'DELETE', url: string, { cookie = '', payload }: { cookie?: string; payload?: object } = {}) =>
    t.app.inject({ method, url: `/api${url}`, headers: { cookie }, ...(payload ? { payload } : {}) });
  const flowCookie = (r: Awaited<ReturnType<typeof api>>) => {
    const c = r.cookies.find((x) => x.name === FLOW_COOKIE);
    expect(c?.httpOnly).toBe(true);
    return `${FLOW_COOKIE}=${c!.value}`;
  };
  const mine = async (cookie: string) =>
    (await api('GET', '/auth/passkeys', { cookie })).json().passkeys as { id: string; name: string; lastUsedAt: string | null }[];
  const counterOf = async (a: Authenticator) =>
    Number((await t.db.selectFrom('passkeys').select('counter').where('id', '=', b64u(a.id)).executeTakeFirstOrThrow()).counter);

  /** Adds a passkey from `a` to the signed-in `cookie`'s account through the two routes. */
  async function add(cookie: string, a: Authenticator, name = 'Work laptop') {
    const o = await api('POST', '/auth/passkeys/add/options', { cookie });
    expect(o.statusCode).toBe(200);
    const { options } = o.json();
    expect(options).toMatchObject({ rp: { id: RP_ID }, authenticatorSelection: { residentKey: 'required', userVerification: 'required' } });
    return api('POST', '/auth/passkeys', { cookie: `${cookie}; ${flowCookie(o)}`, payload: { name, response: a.create(options) } });
  }

  /** The sign-in options, and the browser's cookie that goes with them. */
  async function signInOptions() {
    const o = await api('POST', '/auth/passkeys/signin/options');
    expect(o.statusCode).toBe(200);
    const { options } = o.json();
    expect(options).toMatchObject({ rpId: RP_ID, userVerification: 'required', allowCredentials: [] });
    return { challenge: options.challenge as string, cookie: flowCookie(o) };
  }
  const signInWith = (cookie: string, response: object) => api('POST', '/auth/passkeys/signin', { cookie, payload: { response } });

  it('adds a passkey, lists it, and signs in with it as that person, with a session made by passkey', async () => {
    const a = new Authenticator();
    const added = await add(ann, a);
    expect(added.statusCode).toBe(201);
    expect(added.json().passkey).toMatchObject({ id: b64u(a.id), name: 'Work laptop', lastUsedAt: null });
    expect(await mine(ann)).toMatchObject([{ id: b64u(a.id), name: 'Work laptop', lastUsedAt: null }]);
    expect(await mine(boss)).toEqual([]);

    const { challenge, cookie } = await signInOptions();
    const r = await signInWith(cookie, a.get(challenge));
    expect(r.statusCode).toBe(200);
    expect(r.json().user.email).toBe('ann@dealer.test');
    const session = r.cookies.find((c) => c.name === 'bdc_session')!;
    const me = await api('GET', '/auth/me', { cookie: `bdc_session=${session.value}` });
    expect(me.json().user.email).toBe('ann@dealer.test');
    const row = await t.db.selectFrom('sessions').select('via').orderBy('created_at', 'desc').executeTakeFirstOrThrow();
    expect(row.via).toBe('passkey');
    expect(await counterOf(a)).toBe(1);
    expect((await mine(ann))[0].lastUsedAt).not.toBeNull();
    // The ceremony is spent: its row is gone.
    expect(await t.db.selectFrom('auth_flows').select('id_hash').where('kind', '=', 'passkey-signin').where('expires_at', '>', Date.now()).execute()).toEqual(
      [],
    );
  });

  it('refuses a replayed assertion, the same answer sent again with its cookie', async () => {
    const a = new Authenticator();
    expect((await add(ann, a)).statusCode).toBe(201);
    const { challenge, cookie } = await signInOptions();
    const answer = a.get(challenge);
    expect((await signInWith(cookie, answer)).statusCode).toBe(200);
    const again = await signInWith(cookie, answer);
    expect(again.statusCode).toBe(400);
    expect(again.json().error).toBe(PASSKEY_MSG.expired);
    expect(again.cookies.find((c) => c.name === 'bdc_session')).toBeUndefined();
    // Replayed against a fresh challenge it does not verify (signed over another challenge).
    const fresh = await signInOptions();
    expect((await signInWith(fresh.cookie, answer)).json().error).toBe(PASSKEY_MSG.failed);
    expect(await counterOf(a)).toBe(1);
  });

  it('refuses two answers with one challenge sent at once: exactly one signs in', async () => {
    const a = new Authenticator();
    expect((await add(ann, a)).statusCode).toBe(201);
    const { challenge, cookie } = await signInOptions();
    const answer = a.get(challenge);
    const codes = (await Promise.all([1, 2, 3, 4].map(() => signInWith(cookie, answer)))).map((r) => r.statusCode).sort();
    expect(codes).toEqual([200, 400, 400, 400]);
  });

  it('refuses a cloned authenticator (its counter equal or lower) and keeps the stored counter', async () => {
    const a = new Authenticator();
    expect((await add(ann, a)).statusCode).toBe(201);
    let o = await signInOptions();
    expect((await signInWith(o.cookie, a.get(o.challenge, { counter: 5 }))).statusCode).toBe(200);
    for (const counter of [5, 3, 0]) {
      o = await signInOptions();
      const r = await signInWith(o.cookie, a.get(o.challenge, { counter }));
      expect(r.statusCode).toBe(400);
      expect(r.json()).toMatchObject({ error: PASSKEY_MSG.cloned });
      expect(await counterOf(a)).toBe(5);
    }
    o = await signInOptions();
    expect((await signInWith(o.cookie, a.get(o.challenge, { counter: 6 }))).statusCode).toBe(200);
    expect(await counterOf(a)).toBe(6);
  });

  it('of two answers at once with the same new counter (a clone racing its original), one signs in', async () => {
    const a = new Authenticator();
    expect((await add(ann, a)).statusCode).toBe(201);
    const [x, y] = [await signInOptions(), await signInOptions()];
    const answers = [a.get(x.challenge, { counter: 7 }), a.get(y.challenge, { counter: 7 })];
    const r = await Promise.all([signInWith(x.cookie, answers[0]), signInWith(y.cookie, answers[1])]);
    expect(r.map((res) => res.statusCode).sort()).toEqual([200, 400]);
    expect(r.find((res) => res.statusCode === 400)!.json().error).toBe(PASSKEY_MSG.cloned);
    expect(await counterOf(a)).toBe(7);
  });

  it('refuses a ceremony older than 5 minutes', async () => {
    const a = new Authenticator();
    expect((await add(ann, a)).statusCode).toBe(201);
    const o = await signInOptions();
    await t.db
      .updateTable('auth_flows')
      .set({ expires_at: Date.now() - 1 })
      .where('kind', '=', 'passkey-signin')
      .execute();
    const r = await signInWith(o.cookie, a.get(o.challenge));
    expect(r.json().error).toBe(PASSKEY_MSG.expired);
    expect(r.cookies.find((c) => c.name === 'bdc_session')).toBeUndefined();
  });

  it('takes an authenticator without a counter (always 0)', async () => {
    const a = new Authenticator();
    expect((await add(ann, a)).statusCode).toBe(201);
    for (let i = 0; i < 2; i++) {
      const o = await signInOptions();
      expect((await signInWith(o.cookie, a.get(o.challenge, { counter: 0 }))).statusCode).toBe(200);
    }
  });

  it('refuses an assertion without user verification, for another site, or without its ceremony', async () => {
    const a = new Authenticator();
    expect((await add(ann, a)).statusCode).toBe(201);
    let o = await signInOptions();
    expect((await signInWith(o.cookie, a.get(o.challenge, { flags: 0x01 }))).json().error).toBe(PASSKEY_MSG.failed);
    const elsewhere = Object.assign(new Authenticator('https://evil.test'), { key: a.key, id: a.id, userHandle: a.userHandle, counter: a.counter });
    o = await signInOptions();
    expect((await signInWith(o.cookie, elsewhere.get(o.challenge))).json().error).toBe(PASSKEY_MSG.failed);
    o = await signInOptions();
    expect((await signInWith('', a.get(o.challenge))).json().error).toBe(PASSKEY_MSG.expired);
    // Another browser's cookie (a ceremony of its own) does not fit this challenge.
    const other = await signInOptions();
    expect((await signInWith(other.cookie, a.get(o.challenge))).json().error).toBe(PASSKEY_MSG.failed);
  });

  it('a removed passkey no longer signs in and says so', async () => {
    const a = new Authenticator();
    expect((await add(ann, a)).statusCode).toBe(201);
    expect((await api('DELETE', `/auth/passkeys/${b64u(a.id)}`, { cookie: ann })).json()).toEqual({ ok: true });
    expect((await mine(ann)).map((p) => p.id)).not.toContain(b64u(a.id));
    const o = await signInOptions();
    const r = await signInWith(o.cookie, a.get(o.challenge));
    expect(r.statusCode).toBe(400);
    expect(r.json()).toMatchObject({ error: PASSKEY_MSG.unknown, code: 'passkey-unknown' });
  });

  it("cannot remove or rename someone else's passkey: 404 and nothing changes", async () => {
    const a = new Authenticator();
    expect((await add(ann, a, 'Phone')).statusCode).toBe(201);
    const id = b64u(a.id);
    const del = await api('DELETE', `/auth/passkeys/${id}`, { cookie: boss });
    expect(del.statusCode).toBe(404);
    expect(del.json().error).toBe('Passkey not found');
    const ren = await api('PATCH', `/auth/passkeys/${id}`, { cookie: boss, payload: { name: 'Mine now' } });
    expect(ren.statusCode).toBe(404);
    expect((await mine(ann)).find((p) => p.id === id)?.name).toBe('Phone');
    expect((await api('DELETE', `/auth/passkeys/${id}`)).statusCode).toBe(401);
    expect((await api('DELETE', '/auth/passkeys/not%20an%20id', { cookie: ann })).statusCode).toBe(404);
    // His own he renames.
    const own = await api('PATCH', `/auth/passkeys/${id}`, { cookie: ann, payload: { name: '  Desk PC ' } });
    expect(own.json().passkey.name).toBe('Desk PC');
  });

  it('a disabled person cannot sign in with his passkey', async () => {
    const cy = await t.signIn('cy@dealer.test');
    const a = new Authenticator();
    expect((await add(cy, a)).statusCode).toBe(201);
    const cyId = (await t.db.selectFrom('users').select('id').where('email', '=', 'cy@dealer.test').executeTakeFirstOrThrow()).id;
    expect((await api('POST', `/users/${cyId}/disable`, { cookie: boss })).statusCode).toBe(200);
    const o = await signInOptions();
    const r = await signInWith(o.cookie, a.get(o.challenge));
    expect(r.statusCode).toBe(403);
    expect(r.json().error).toBe(MSG.accessOff);
    expect(r.cookies.find((c) => c.name === 'bdc_session')).toBeUndefined();
  });

  it('refuses bad names and bad answers with a clear 4xx, and adding needs a signed-in person', async () => {
    for (const [name, message] of [
      ['', 'Name the passkey'],
      ['   ', 'Name the passkey'],
      ['x'.repeat(61), 'Too long (max 60 characters)'],
      ['Tab\there', 'Contains invalid characters'],
    ] as const) {
      const r = await add(ann, new Authenticator(), name);
      expect(r.statusCode).toBe(400);
      expect(r.json().error).toBe(message);
    }
    for (const raw of ['{"name":"a\\u0000b","response":{}}', '{"name":"a\\ud800b","response":{}}']) {
      const r = await t.app.inject({ method: 'POST', url: '/api/auth/passkeys', headers: { cookie: ann, 'content-type': 'application/json' }, payload: raw });
      expect(r.statusCode).toBe(400);
      expect(r.json().error).toBe(BAD_TEXT);
    }
    const a = new Authenticator();
    expect((await add(ann, a, 'Fine name')).statusCode).toBe(201);
    const junk = await api('POST', '/auth/passkeys', { cookie: ann, payload: { name: 'Laptop', response: { id: 'x' } } });
    expect(junk.statusCode).toBe(400);
    expect((await api('POST', '/auth/passkeys/add/options')).statusCode).toBe(401);
    // Someone else's add ceremony (his cookie) does not add to this account.
    const o = await api('POST', '/auth/passkeys/add/options', { cookie: boss });
    const stolen = await api('POST', '/auth/passkeys', {
      cookie: `${ann}; ${flowCookie(o)}`,
      payload: { name: 'X', response: new Authenticator().create(o.json().options) },
    });
    expect(stolen.json().error).toBe(PASSKEY_MSG.expired);
    // The same authenticator twice: the second is refused.
    const again = await add(ann, a, 'Twice');
    expect(again.statusCode).toBe(409);
    expect(again.json().error).toBe(PASSKEY_MSG.already);
  });
});
