import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { startWeatherServer } from '../../server/test/weather-server';
import { startSmtp } from '../../server/test/smtp';
import { startSmsProvider } from '../../server/test/sms-provider';
import { freePort, startServerProcess } from '../../server/test/process';
import { nextLink } from './mail';

export const E2E_PORT = Number(process.env.E2E_PORT ?? 3999);
export const MANAGER_EMAIL = 'manager@e2e.test';

/**
 * Starts the real portal (built web app, SQLite in a fresh folder, its lead mail receiver on
 * E2E_INBOUND_PORT for leads@e2e.test) with a real SMTP server that writes each mail it receives
 * to a folder, and a local stand-in for Open-Meteo.
 */
export default async function globalSetup() {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'bdc-e2e-'));
  const mailDir = path.join(dir, 'mail');
  fs.mkdirSync(mailDir);
  // Each mail or text is written beside its folder and moved in whole: a test polling the folder
  // never reads a file half written (it once failed on "Unexpected end of JSON input").
  const put = (folder: string, n: number, value: unknown) => {
    const name = `${String(n).padStart(6, '0')}.json`;
    const part = path.join(dir, `${path.basename(folder)}-${name}`);
    fs.writeFileSync(part, JSON.stringify(value));
    fs.renameSync(part, path.join(folder, name));
  };
  let n = 0;
  const smtp = await startSmtp((mail) => put(mailDir, ++n, { to: mail.to, raw: mail.raw }));
  const weather = await startWeatherServer({ temperature: 22, weathercode: 2 });
  // The SMS provider's stand-in writes each text it takes to a folder, as the SMTP server does mail.
  const smsDir = path.join(dir, 'sms');
  fs.mkdirSync(smsDir);
  let texts = 0;
  const sms = await startSmsProvider({ onText: (m) => put(smsDir, ++texts, m) });

  const baseURL = `http://127.0.0.1:${E2E_PORT}`;
  // The portal's own receiver for lead mail: specs send to it with a real SMTP client.
  const inbound = await freePort();
  const server = await startServerProcess(
    {
      PUBLIC_URL: baseURL,
      DATA_DIR: path.join(dir, 'data'),
      DATABASE_URL: '',
      SMTP_URL: smtp.url,
      MANAGER_EMAILS: MANAGER_EMAIL,
      ALLOWED_EMAIL_DOMAINS: 'e2e.test',
      WEATHER_URL: weather.url,
      SIGNIN_LINKS_PER_MINUTE: '1000',
      SIGNIN_LINKS_PER_ADDRESS: '1000',
      INBOUND_SMTP_PORT: String(inbound),
      INBOUND_SMTP_HOST: '127.0.0.1',
      INBOUND_ADDRESSES: 'leads@e2e.test',
      ...sms.env,
    },
    E2E_PORT,
  );
  process.env.E2E_MAIL_DIR = mailDir;
  process.env.E2E_DATA_DIR = path.join(dir, 'data');
  process.env.E2E_INBOUND_PORT = String(inbound);
  process.env.E2E_SMS_DIR = smsDir;
  process.env.E2E_SMS_TOKEN = sms.token;
  await setResponseWindow(baseURL, 0);

  return async () => {
    await server.stop();
    await smtp.close();
    await weather.close();
    await sms.close();
    fs.rmSync(dir, { recursive: true, force: true });
  };
}

/**
 * The specs share one server for many minutes: with the response window on, leads an earlier
 * spec left unaccepted would move to a later spec's salesmen. It is off for the run; the spec
 * about speed to lead turns it on for itself and off again.
 */
async function setResponseWindow(base: string, minutes: number) {
  await fetch(`${base}/api/auth/link`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ email: MANAGER_EMAIL }) });
  const link = new URL(await nextLink(MANAGER_EMAIL, 0));
  const done = await fetch(`${base}/api/auth/complete`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email: link.searchParams.get('e'), token: link.searchParams.get('t') }),
  });
  const cookie = (done.headers.get('set-cookie') ?? '').split(';')[0];
  const put = await fetch(`${base}/api/rules`, {
    method: 'PATCH',
    headers: { 'content-type': 'application/json', cookie },
    body: JSON.stringify({ responseWindowMinutes: minutes }),
  });
  if (!put.ok) throw new Error(`could not set the response window: ${put.status} ${await put.text()}`);
}
