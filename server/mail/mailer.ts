import nodemailer from 'nodemailer';
import type { FastifyBaseLogger } from 'fastify';
import type { Config } from '../config';

export interface Mail {
  to: string;
  subject: string;
  text: string;
  html?: string;
}

/** Text in mail HTML, as text. */
export const escapeHtml = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/** How mail names the portal: the dealership's brand word before the product's name, when set. */
export const portalName = (config: Pick<Config, 'APP_NAME' | 'DEALERSHIP_NAME'>) =>
  config.DEALERSHIP_NAME ? `${config.DEALERSHIP_NAME} ${config.APP_NAME}` : config.APP_NAME;

export interface Mailer {
  send(mail: Mail, logLine?: string): Promise<void>;
  /** Where mail goes, for the start-up line. */
  describe: string;
}

/**
 * Real SMTP where SMTP_URL is set; otherwise the line is printed to the log so sign-in works out
 * of the box. Only the outbox's sender calls it.
 */
export function createMailer(config: Config, log: FastifyBaseLogger): Mailer {
  if (!config.SMTP_URL) {
    return {
      describe: 'the server log (SMTP_URL is not set)',
      async send(mail, logLine) {
        log.info(logLine ?? `mail to ${mail.to}: ${mail.subject}`);
      },
    };
  }
  // Bounded waits, so a send always ends well inside the outbox lease.
  const transport = nodemailer.createTransport({ url: config.SMTP_URL, connectionTimeout: 10_000, greetingTimeout: 10_000, socketTimeout: 30_000 });
  const u = new URL(config.SMTP_URL);
  return {
    describe: `SMTP at ${u.hostname}:${u.port || (u.protocol === 'smtps:' ? 465 : 587)}`,
    async send(mail) {
      await transport.sendMail({ from: config.MAIL_FROM, ...mail });
    },
  };
}
