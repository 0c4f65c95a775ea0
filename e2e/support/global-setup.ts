import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { SMTPServer } from 'smtp-server';
import type { AddressInfo } from 'node:net';
import { startWeatherServer } from '../../server/test/weather-server';

export const E2E_PORT = Number(process.env.E2E_PORT ?? 3999);
export const MANAGER_EMAIL = 'manager@e2e.test';

/**
 * Starts the real portal (built web app, SQLite in a fresh folder) with a real SMTP server that
 * writes each mail it receives to a folder, and a local stand-in for Open-Meteo.
 */
export default async function globalSetup() {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'bdc-e2e-'));
  const mailDir = path.join(dir, 'mail');
  fs.mkdirSync(mailDir);
  let n = 0;
  const smtp = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    onData(stream, session, done) {
      let raw = '';
      stream.on('data', (c: Buffer) => (raw += c.toString('utf8')));
      stream.on('end', () => {
        const file = path.join(mailDir, `${String(++n).padStart(6, '0')}.json`);
        fs.writeFileSync(file, JSON.stringify({ to: session.envelope.rcptTo.map((r) => r.address), raw }));
        done();
      });
    },
  });
  await new Promise<void>((r) => smtp.listen(0, '127.0.0.1', r));
  const smtpPort = (smtp.server.address() as AddressInfo).port;
  const weather = await startWeatherServer({ temperature: 22, weathercode: 2 });

  const baseURL = `http://127.0.0.1:${E2E_PORT}`;
  const server = spawn(process.execPath, ['--import', 'tsx', 'server/main.ts'], {
    env: {
      ...process.env,
      NODE_ENV: 'test',
      PORT: String(E2E_PORT),
      HOST: '127.0.0.1',
      PUBLIC_URL: baseURL,
      DATA_DIR: path.join(dir, 'data'),
      DATABASE_URL: '',
      SMTP_URL: `smtp://127.0.0.1:${smtpPort}`,
      MANAGER_EMAILS: MANAGER_EMAIL,
      ALLOWED_EMAIL_DOMAINS: 'e2e.test',
      WEATHER_URL: weather.url,
      SIGNIN_LINKS_PER_MINUTE: '1000',
      SIGNIN_LINKS_PER_ADDRESS: '1000',
      LOG_LEVEL: 'warn',
    },
    stdio: ['ignore', 'inherit', 'inherit'],
  });
  const deadline = Date.now() + 60_000;
  for (;;) {
    try {
      const res = await fetch(`${baseURL}/healthz`);
      if (res.ok) break;
    } catch {
      /* not up yet */
    }
    if (server.exitCode !== null) throw new Error('the portal exited during start-up');
    if (Date.now() > deadline) throw new Error('the portal did not start within 60 s');
    await new Promise((r) => setTimeout(r, 250));
  }
  process.env.E2E_MAIL_DIR = mailDir;
  process.env.E2E_DB_FILE = path.join(dir, 'data', 'portal.sqlite');

  return async () => {
    server.kill('SIGTERM');
    await new Promise((r) => server.once('exit', r));
    await new Promise<void>((r) => smtp.close(() => r()));
    await weather.close();
    fs.rmSync(dir, { recursive: true, force: true });
  };
}
