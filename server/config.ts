import { codeFromName, isTimeZone } from '../domain/stores';
import { FIRST_STORE } from './db/migrations';
import type { FirstStore } from './db/migrations/023_stores';
import { z } from 'zod';
import { emailDomain, parseEmail } from '../domain/email';
import { BAD_PUSH_HOSTS, readPushHost } from '../domain/push';
import fs from 'node:fs';
import path from 'node:path';

/** A comma-separated setting, each item read by `read` (null: not one); any bad item fails the start with `message`. */
const commaList = <T>(read: (item: string) => T | null | undefined, message: string) =>
  z
    .string()
    .default('')
    .transform((s, ctx) => {
      const list = s
        .split(',')
        .map((e) => e.trim())
        .filter(Boolean)
        .map(read);
      if (list.every((e): e is T => e !== null && e !== undefined)) return list;
      ctx.addIssue({ code: 'custom', message });
      return z.NEVER;
    });

const emailList = commaList((e) => parseEmail(e)?.address, 'must be comma-separated e-mail addresses');
// Read as an address's domain is (domain/email.ts), so the allowed-domain rule compares like with like.
const domainList = commaList((d) => emailDomain(d.replace(/^@/, '')), 'must be comma-separated domains like example.com');
/** Push services besides the known ones (domain/push.ts readPushHost). */
const pushHosts = commaList(readPushHost, BAD_PUSH_HOSTS);

const url = (protocols: string[]) =>
  z.string().refine(
    (s) => {
      try {
        return protocols.includes(new URL(s).protocol);
      } catch {
        return false;
      }
    },
    `must be a URL starting with ${protocols.map((p) => p + '//').join(' or ')}`,
  );

const validZone = isTimeZone;

const minutes = z.coerce
  .number({ error: 'must be a number of minutes, more than 0 and at most 1440' })
  .gt(0, 'must be a number of minutes, more than 0 and at most 1440')
  .max(1440, 'must be a number of minutes, more than 0 and at most 1440');

/** Lead addresses: `leads@dealer.com` (the first store's), `leads@dealer.com=NSH` (a store's by code) or `=group` (by dealer). */
/** Lead addresses, each read as every address is (domain/email.ts), optionally =STORECODE or =group. */
const addressList = commaList((e) => {
  const [written, store = ''] = e.split('=');
  const address = parseEmail(written.trim())?.address;
  const code = store.trim().toUpperCase();
  return address && /^[A-Z0-9-]{0,12}$/.test(code) ? { address, store: code } : null;
}, 'must be comma-separated e-mail addresses, each optionally =STORECODE or =group');

const filePath = z.string().refine((p) => fs.existsSync(p), 'must name a file that exists');

const schema = z.object({
  APP_NAME: z.string().trim().min(1).default('BDC Portal'),
  DEALERSHIP_NAME: z.string().trim().optional(),
  PORT: z.coerce.number().int().min(0).max(65535).default(3000),
  HOST: z.string().default('0.0.0.0'),
  PUBLIC_URL: url(['http:', 'https:']).optional(),
  DATA_DIR: z.string().default('./data'),
  DATABASE_URL: url(['postgres:', 'postgresql:']).optional(),
  SMTP_URL: url(['smtp:', 'smtps:']).optional(),
  MAIL_FROM: z.string().default('BDC Portal <no-reply@localhost>'),
  MANAGER_EMAILS: emailList,
  ALLOWED_EMAIL_DOMAINS: domainList,
  WEATHER_URL: url(['http:', 'https:']).default('https://api.open-meteo.com'),
  WEATHER_LATITUDE: z.coerce.number().min(-90).max(90).default(32.7765),
  WEATHER_LONGITUDE: z.coerce.number().min(-180).max(180).default(-79.9311),
  APP_TIMEZONE: z.string().default('America/New_York').refine(validZone, 'must be an IANA time zone like America/New_York'),
  SESSION_SECRET: z.string().min(32, 'must be at least 32 characters').optional(),
  SIGNIN_LINKS_PER_MINUTE: z.coerce.number().int().min(1).default(10),
  SIGNIN_LINKS_PER_ADDRESS: z.coerce.number().int().min(1).default(5),
  TRUST_PROXY: z
    .enum(['true', 'false', '1', '0'], { error: 'must be true or false' })
    .default('false')
    .transform((v) => v === 'true' || v === '1'),
  INTAKE_LEASE_SECONDS: z.coerce
    .number({ error: 'must be 1 to 60 seconds' })
    .int()
    .min(1, 'must be 1 to 60 seconds')
    .max(60, 'must be 1 to 60 seconds')
    .default(60),
  HEALTH_TOKEN: z.string().min(16, 'must be at least 16 characters').optional(),
  INTAKE_BURST: z.coerce.number().int().min(1).max(10_000).default(10),
  INTAKE_PER_MINUTE: z.coerce.number().int().min(1).max(60_000).default(60),
  INTAKE_WORKERS: z.coerce.number({ error: 'must be 1 to 8 threads' }).int().min(1, 'must be 1 to 8 threads').max(8, 'must be 1 to 8 threads').default(1),
  INBOUND_SMTP_PORT: z.coerce.number().int().min(0).max(65535).optional(),
  INBOUND_SMTP_HOST: z.string().default('0.0.0.0'),
  INBOUND_ADDRESSES: addressList,
  INBOUND_SMTP_CERT: filePath.optional(),
  INBOUND_SMTP_KEY: filePath.optional(),
  INBOUND_SMTP_PER_MINUTE: z.coerce.number().int().min(1).max(600_000).default(600),
  // The receiver's deadlines (server/mailin/receiver.ts): minutes may be fractions.
  INBOUND_SMTP_SESSION_MINUTES: minutes.default(10),
  INBOUND_SMTP_DATA_MINUTES: minutes.default(5),
  INBOUND_SMTP_MIN_BYTES_PER_SECOND: z.coerce
    .number({ error: 'must be 0 (no minimum) to 1000000 bytes a second' })
    .int('must be 0 (no minimum) to 1000000 bytes a second')
    .min(0, 'must be 0 (no minimum) to 1000000 bytes a second')
    .max(1_000_000, 'must be 0 (no minimum) to 1000000 bytes a second')
    .default(1024),
  INBOUND_SMTP_RATE_GRACE_SECONDS: z.coerce
    .number({ error: 'must be 0 to 3600 seconds' })
    .min(0, 'must be 0 to 3600 seconds')
    .max(3600, 'must be 0 to 3600 seconds')
    .default(30),
  IMAP_URL: url(['imap:', 'imaps:']).optional(),
  IMAP_POLL_SECONDS: z.coerce.number().int().min(5).max(3600).default(60),
  // Web Push (server/notices/push.ts): generated once and kept in the database unless set; the subject is a mailto: or https: address the push services may contact.
  VAPID_PUBLIC_KEY: z
    .string()
    .regex(/^[A-Za-z0-9_-]{87}$/, 'must be a base64url P-256 public key (87 characters)')
    .optional(),
  VAPID_PRIVATE_KEY: z
    .string()
    .regex(/^[A-Za-z0-9_-]{43}$/, 'must be a base64url P-256 private key (43 characters)')
    .optional(),
  VAPID_SUBJECT: z
    .string()
    .regex(/^(mailto:|https:\/\/)\S+$/, 'must be a mailto: or https:// address')
    .optional(),
  PUSH_HOSTS: pushHosts,
  // Text messages through a provider's Messages API (Twilio's shape; server/notices/sms.ts): off unless all four are set.
  SMS_URL: url(['http:', 'https:']).default('https://api.twilio.com'),
  SMS_ACCOUNT: z.string().trim().min(1).optional(),
  SMS_TOKEN: z.string().trim().min(1).optional(),
  SMS_FROM: z.string().trim().min(1).optional(),
  // Single sign-on with any OpenID Connect provider (server/auth/oidc): on when issuer, client id and secret are all set.
  OIDC_ISSUER: url(['http:', 'https:']).optional(),
  OIDC_CLIENT_ID: z.string().trim().min(1).optional(),
  OIDC_CLIENT_SECRET: z.string().trim().min(1).optional(),
  OIDC_LABEL: z.string().trim().min(1).max(60).default('Sign in with your work account'),
  OIDC_SESSION_HOURS: z.coerce
    .number({ error: 'must be 1 to 720 hours' })
    .int()
    .min(1, 'must be 1 to 720 hours')
    .max(720, 'must be 1 to 720 hours')
    .default(12),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  NODE_ENV: z.string().default('development'),
});

export type Config = Omit<z.infer<typeof schema>, 'PUBLIC_URL' | 'DATA_DIR'> & {
  PUBLIC_URL: string;
  DATA_DIR: string;
  secureCookies: boolean;
};

export class ConfigError extends Error {}

/** Reads ./.env when there is one; variables already set win. */
export function loadDotEnv(file = '.env') {
  if (fs.existsSync(file)) process.loadEnvFile(file);
}

/** Reads and validates the environment once; a bad value names its variable. */
export function loadConfig(env: Record<string, string | undefined> = process.env): Config {
  const cleaned = Object.fromEntries(Object.entries(env).filter(([, v]) => v !== undefined && v !== ''));
  const parsed = schema.safeParse(cleaned);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((i) => `  ${i.path.join('.')}: ${i.message}`);
    throw new ConfigError(`Invalid configuration:\n${lines.join('\n')}\nFix the variable(s) above (see .env.example) and start again.`);
  }
  const c = parsed.data;
  if (!c.INBOUND_SMTP_CERT !== !c.INBOUND_SMTP_KEY)
    throw new ConfigError(
      'Invalid configuration:\n  INBOUND_SMTP_CERT and INBOUND_SMTP_KEY: set both (PEM files) for STARTTLS, or neither\nFix the variable(s) above (see .env.example) and start again.',
    );
  if (!c.VAPID_PUBLIC_KEY !== !c.VAPID_PRIVATE_KEY)
    throw new ConfigError(
      'Invalid configuration:\n  VAPID_PUBLIC_KEY and VAPID_PRIVATE_KEY: set both, or neither (the portal then makes a pair once and keeps it)\nFix the variable(s) above (see .env.example) and start again.',
    );
  if ([c.SMS_ACCOUNT, c.SMS_TOKEN, c.SMS_FROM].filter(Boolean).length % 3)
    throw new ConfigError(
      'Invalid configuration:\n  SMS_ACCOUNT, SMS_TOKEN and SMS_FROM: set all three to send texts, or none\nFix the variable(s) above (see .env.example) and start again.',
    );
  const publicUrl = (c.PUBLIC_URL ?? `http://localhost:${c.PORT}`).replace(/\/+$/, '');
  return {
    ...c,
    PUBLIC_URL: publicUrl,
    DATA_DIR: path.resolve(c.DATA_DIR),
    secureCookies: publicUrl.startsWith('https:'),
  };
}

/** The store a database made before stores becomes, and a new one starts with: DEALERSHIP_NAME on APP_TIMEZONE. */
export function firstStoreOf(config: Pick<Config, 'DEALERSHIP_NAME' | 'APP_TIMEZONE'>): FirstStore {
  const name = config.DEALERSHIP_NAME;
  return name ? { name, code: codeFromName(name), timezone: config.APP_TIMEZONE } : { ...FIRST_STORE, timezone: config.APP_TIMEZONE };
}
