import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS, MANAGER, testApp, type TestApp } from '../test/harness';
import type { ReceivedMail } from '../test/smtp';
import { EMAIL_LINK_SPENT } from './email-change';

const tokenIn = (mail: ReceivedMail) => {
  const m = /\/confirm-email\?t=([A-Za-z0-9_-]+)/.exec(mail.text);
  if (!m) throw new Error('no confirmation link in mail');
  return m[1];
};

/** A new e-mail address takes effect only when its owner opens the link mailed to it; the old address is told. */
describe.each(DIALECTS)('changing an e-mail address on %s', (dialect) => {
  let t: TestApp;
  let boss: string;
  let n = 0;
  beforeAll(async () => {
    t = await testApp(dialect, { SIGNIN_LINKS_PER_MINUTE: '1000' });
    boss = await t.signIn(MANAGER);
  });
  afterAll(() => t.close());

  const unique = (p: string) => `${p}.${++n}@dealer.test`;
  const users = (method: 'GET' | 'POST' | 'PATCH', url: string, payload?: object, cookie = boss) =>
    t.app.inject({ method, url: `/api/users${url}`, headers: { cookie }, payload });
  const confirm = (token: string) => t.app.inject({ method: 'POST', url: '/api/users/confirm-email', payload: { token } });
  const row = (id: string) => t.db.selectFrom('users').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
  const add = async (email: string, role = 'staff') =>
    (await users('POST', '', { email, name: 'Sal Mover', role })).json().user as { id: string; email: string };
  /** Asks for a new address and returns the link's token from the mail it got. */
  async function ask(id: string, email: string, cookie = boss) {
    const seen = t.smtp.count(email);
    const r = await users('PATCH', `/${id}`, { email }, cookie);
    expect(r.statusCode, r.body).toBe(200);
    return { answer: r.json().user, token: tokenIn(await t.smtp.mailTo(email, 5000, seen)) };
  }

  it('keeps the old address until the new one confirms, tells the old one, and works once', async () => {
    const sal = await add(unique('sal'));
    const fresh = unique('sal.new');
    const told = t.smtp.count(sal.email);
    const { answer, token } = await ask(sal.id, fresh);
    expect(answer).toMatchObject({ email: sal.email, pendingEmail: fresh });
    expect((await row(sal.id)).email).toBe(sal.email);
    const notice = await t.smtp.mailTo(sal.email, 5000, told);
    expect(notice.text).toContain(`to ${fresh}`);
    expect(notice.text).not.toContain('confirm-email');
    // Until then the old address still signs in.
    expect(await t.signIn(sal.email)).toBeTruthy();

    const done = await confirm(token);
    expect(done.statusCode, done.body).toBe(200);
    expect(done.json()).toEqual({ email: fresh });
    expect((await row(sal.id)).email).toBe(fresh);
    const listed = (await users('GET', '')).json().users.find((u: { id: string }) => u.id === sal.id);
    expect(listed).toMatchObject({ email: fresh, pendingEmail: null });
    const again = await confirm(token);
    expect(again.statusCode).toBe(400);
    expect(again.json().error).toBe(EMAIL_LINK_SPENT);
    const history = (await users('GET', `/${sal.id}/audit`)).json().entries as { action: string; actorName: string; changes: object }[];
    expect(history.slice(0, 2).map((e) => [e.action, e.actorName, e.changes])).toEqual([
      ['update', 'Sal Mover', { email: { from: sal.email, to: fresh } }],
      ['email change', 'User', { email: { from: sal.email, to: fresh } }],
    ]);
  });

  it("a manager's own new address waits for its confirmation too", async () => {
    const deputy = await add(unique('deputy'), 'manager');
    const cookie = await t.signIn(deputy.email);
    const fresh = unique('deputy.new');
    const { answer, token } = await ask(deputy.id, fresh, cookie);
    expect(answer).toMatchObject({ email: deputy.email, pendingEmail: fresh });
    expect((await row(deputy.id)).email).toBe(deputy.email);
    expect((await confirm(token)).statusCode).toBe(200);
    expect((await row(deputy.id)).email).toBe(fresh);
  });

  it('a newer request replaces the older link; an address taken meanwhile is refused at confirmation', async () => {
    const sal = await add(unique('twice'));
    const first = await ask(sal.id, unique('twice.a'));
    const taken = unique('twice.b');
    const second = await ask(sal.id, taken);
    expect((await confirm(first.token)).json().error).toBe(EMAIL_LINK_SPENT);
    await add(taken);
    const r = await confirm(second.token);
    expect(r.statusCode).toBe(409);
    expect(r.json().error).toBe('Another person already has this e-mail address.');
    expect((await row(sal.id)).email).toBe(sal.email);
  });

  it('refuses a made-up token and a link of someone deleted meanwhile, changing nothing', async () => {
    for (const token of ['x'.repeat(43), 'no spaces allowed', '']) expect((await confirm(token)).statusCode).toBe(400);
    const sal = await add(unique('gone'));
    const { token } = await ask(sal.id, unique('gone.new'));
    await users('POST', `/${sal.id}/delete`);
    const r = await confirm(token);
    expect(r.statusCode).toBe(400);
    expect((await row(sal.id)).email).toBe(sal.email);
  });
});
