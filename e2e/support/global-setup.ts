import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { FullConfig } from '@playwright/test';
import { startWeatherServer } from '../../server/test/weather-server';
import { startSmtp } from '../../server/test/smtp';
import { startSmsProvider } from '../../server/test/sms-provider';
import { freePort, startServerProcess } from '../../server/test/process';
import { setSlotEnv } from './slot';
import { signInAs } from './session';

export const MANAGER_EMAIL = 'manager@e2e.test';

/**
 * Starts one real portal per worker: the built server under node on a clock the tests can move, SQLite in a fresh folder, its
 * lead mail receiver, a real SMTP server that writes each mail it receives to a folder, and a
 * local stand-in for Open-Meteo and for the SMS provider. A worker uses the portal of its slot
 * (support/slot.ts), so tests running at once never share a rotation.
 */
export default async function globalSetup(config: FullConfig) {
  const slots = await Promise.all(Array.from({ length: config.workers }, (_, n) => startSlot(n)));
  return async () => {
    for (const stop of slots) await stop();
  };
}

async function startSlot(n: number) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), `bdc-e2e-${n}-`));
  const mailDir = path.join(dir, 'mail');
  fs.mkdirSync(mailDir);
  // Each mail or text is written beside its folder and moved in whole: a test polling the folder
  // never reads a file half written (it once failed on "Unexpected end of JSON input").
  const put = (folder: string, i: number, value: unknown) => {
    const name = `${String(i).padStart(6, '0')}.json`;
    const part = path.join(dir, `${path.basename(folder)}-${name}`);
    fs.writeFileSync(part, JSON.stringify(value));
    fs.renameSync(part, path.join(folder, name));
  };
  let mails = 0;
  const smtp = await startSmtp((mail) => put(mailDir, ++mails, { to: mail.to, raw: mail.raw }));
  const weather = await startWeatherServer({ temperature: 22, weathercode: 2 });
  // The SMS provider's stand-in writes each text it takes to a folder, as the SMTP server does mail.
  const smsDir = path.join(dir, 'sms');
  fs.mkdirSync(smsDir);
  let texts = 0;
  const sms = await startSmsProvider({ onText: (m) => put(smsDir, ++texts, m) });

  // Where push.spec.ts starts its push service stand-in: the one push service the portal is told of besides the known ones.
  const pushPort = await freePort();
  const port = await freePort();
  const baseURL = `http://127.0.0.1:${port}`;
  // Known to the tests, so they can make a sign-in link without the mail (support/session.ts).
  const secret = crypto.randomBytes(32).toString('base64url');
  const server = await startServerProcess(
    {
      PUBLIC_URL: baseURL,
      DATA_DIR: path.join(dir, 'data'),
      DATABASE_URL: '',
      SESSION_SECRET: secret,
      SMTP_URL: smtp.url,
      MANAGER_EMAILS: MANAGER_EMAIL,
      ALLOWED_EMAIL_DOMAINS: 'e2e.test',
      WEATHER_URL: weather.url,
      SIGNIN_LINKS_PER_MINUTE: '1000',
      SIGNIN_LINKS_PER_ADDRESS: '1000',
      // The portal's own receiver for lead mail.
      INBOUND_SMTP_PORT: String(await freePort()),
      INBOUND_SMTP_HOST: '127.0.0.1',
      INBOUND_ADDRESSES: 'leads@e2e.test',
      PUSH_HOSTS: `http://127.0.0.1:${pushPort}`,
      // A clock the tests move (support/server-clock.mjs).
      E2E_CLOCK_FILE: path.join(dir, 'clock'),
      ...sms.env,
    },
    port,
    ['--import', './e2e/support/server-clock.mjs', 'build/main.js'],
  );
  setSlotEnv(n, 'URL', baseURL);
  setSlotEnv(n, 'PID', String(server.proc.pid));
  setSlotEnv(n, 'CLOCK_FILE', path.join(dir, 'clock'));
  setSlotEnv(n, 'MAIL_DIR', mailDir);
  setSlotEnv(n, 'DATA_DIR', path.join(dir, 'data'));
  setSlotEnv(n, 'SMS_DIR', smsDir);
  setSlotEnv(n, 'SMS_TOKEN', sms.token);
  setSlotEnv(n, 'SESSION_SECRET', secret);
  setSlotEnv(n, 'PUSH_PORT', String(pushPort));
  await setResponseWindow(baseURL, n, 0);

  return async () => {
    await server.stop();
    await smtp.close();
    await weather.close();
    await sms.close();
    fs.rmSync(dir, { recursive: true, force: true });
  };
}

/**
 * A worker's tests share its portal for many minutes: with the response window on, leads an
 * earlier spec left unaccepted would move to a later spec's salesmen. It is off for the run; the
 * spec about speed to lead turns it on for itself and off again.
 */
async function setResponseWindow(base: string, n: number, minutes: number) {
  const cookie = await signInAs(base, MANAGER_EMAIL, n);
  const put = await fetch(`${base}/api/rules`, {
    method: 'PATCH',
    headers: { 'content-type': 'application/json', cookie },
    body: JSON.stringify({ responseWindowMinutes: minutes }),
  });
  if (!put.ok) throw new Error(`could not set the response window: ${put.status} ${await put.text()}`);
}
