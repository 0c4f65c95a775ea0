import { execFile, spawn } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { ImapFlow } from 'imapflow';
import { freePort } from './process';

export interface Dovecot {
  port: number;
  user: string;
  password: string;
  /** imap://user:password@127.0.0.1:port/INBOX */
  url: string;
  append(raw: string | Buffer, mailbox?: string): Promise<void>;
  /** The sources of the messages in a mailbox, in UID order. */
  list(mailbox: string): Promise<Buffer[]>;
  /** Drops every IMAP connection of the user, as a server restart would. */
  kick(): Promise<void>;
  stop(): Promise<void>;
}

const BIN = process.env.DOVECOT_BIN ?? '/usr/sbin/dovecot';

/** uid and gid of a local account, from /etc/passwd. */
function account(name: string): { uid: number; gid: number } | undefined {
  const line = fs
    .readFileSync('/etc/passwd', 'utf8')
    .split('\n')
    .find((l) => l.startsWith(`${name}:`));
  if (!line) return undefined;
  const [, , uid, gid] = line.split(':');
  return { uid: Number(uid), gid: Number(gid) };
}

interface Users {
  internal: string;
  group: string;
  login: string;
  mail: { uid: number; gid: number };
}

/**
 * Dovecot refuses to run its login processes as root and refuses uid 0 for mail, so as root
 * (CI) the package's own accounts do that work; as anyone else everything runs as that user.
 */
function users(): Users {
  const me = os.userInfo();
  if (me.uid !== 0) {
    const group = fs
      .readFileSync('/etc/group', 'utf8')
      .split('\n')
      .map((l) => l.split(':'))
      .find((f) => Number(f[2]) === me.gid)?.[0];
    return { internal: me.username, group: group ?? me.username, login: me.username, mail: { uid: me.uid, gid: me.gid } };
  }
  const mail = account('dovecot');
  if (!mail) throw new Error('Dovecot runs as root but the "dovecot" account is missing: apt-get install dovecot-imapd');
  return { internal: 'dovecot', group: 'dovecot', login: account('dovenull') ? 'dovenull' : 'nobody', mail };
}

function config(dir: string, port: number, u: Users, v24: boolean): string {
  const common = `
protocols = imap
listen = 127.0.0.1
base_dir = ${dir}/run
state_dir = ${dir}/state
log_path = ${dir}/dovecot.log
ssl = no
auth_mechanisms = plain login
auth_failure_delay = 0
default_internal_user = ${u.internal}
default_internal_group = ${u.group}
default_login_user = ${u.login}
first_valid_uid = 1
mail_uid = ${u.mail.uid}
mail_gid = ${u.mail.gid}
protocol imap {
  mail_max_userip_connections = 100
}
service imap-login {
  inet_listener imap {
    port = ${port}
  }
  inet_listener imaps {
    port = 0
  }
}
`;
  if (!v24)
    return `${common}
disable_plaintext_auth = no
mail_location = maildir:${dir}/mail/%u
passdb {
  driver = passwd-file
  args = scheme=PLAIN username_format=%u ${dir}/users
}
userdb {
  driver = static
  args = uid=${u.mail.uid} gid=${u.mail.gid} home=${dir}/home/%u
}
`;
  // Not tried against a 2.4 server yet: its settings were renamed (2.4 refuses the 2.3 ones).
  return `dovecot_config_version = 2.4.0
dovecot_storage_version = 2.4.0
${common}
auth_allow_cleartext = yes
mail_driver = maildir
mail_path = ${dir}/mail/%{user}
passdb passwd-file {
  passwd_file_path = ${dir}/users
  default_password_scheme = PLAIN
}
userdb static {
  fields {
    uid = ${u.mail.uid}
    gid = ${u.mail.gid}
    home = ${dir}/home/%{user}
  }
}
`;
}

/** Resolves once the server greets a client as ready (not "Waiting for authentication process"). */
function greets(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const s = net.connect(port, '127.0.0.1');
    let text = '';
    const done = (ok: boolean) => {
      s.destroy();
      resolve(ok);
    };
    s.on('data', (c) => {
      text += c.toString();
      if (/^\* OK \[CAPABILITY/m.test(text)) done(true);
    });
    s.on('error', () => done(false));
    s.on('close', () => done(false));
    s.setTimeout(2000, () => done(false));
  });
}

/** A real Dovecot IMAP server on a free local port, with one user and a maildir in a fresh temporary folder. */
export async function startDovecot(): Promise<Dovecot> {
  if (!fs.existsSync(BIN)) throw new Error('Dovecot is not installed: apt-get install dovecot-imapd');
  const { stdout } = await promisify(execFile)(BIN, ['--version']);
  const [major, minor] = stdout.trim().split(/[.\s]/).map(Number);
  const v24 = major > 2 || (major === 2 && minor >= 4);

  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'dovecot-'));
  // the account that owns the mail must reach it through the temporary folder
  fs.chmodSync(dir, 0o755);
  const u = users();
  for (const d of ['mail', 'home']) {
    fs.mkdirSync(path.join(dir, d));
    fs.chownSync(path.join(dir, d), u.mail.uid, u.mail.gid);
  }
  const user = 'leads';
  const password = 'secret-pass';
  fs.writeFileSync(path.join(dir, 'users'), `${user}:{PLAIN}${password}\n`);
  const port = await freePort();
  const conf = path.join(dir, 'dovecot.conf');
  fs.writeFileSync(conf, config(dir, port, u, v24));

  let out = '';
  const proc = spawn(BIN, ['-F', '-c', conf], { stdio: ['ignore', 'pipe', 'pipe'] });
  proc.stdout.on('data', (c) => (out += c));
  proc.stderr.on('data', (c) => (out += c));
  const exited = new Promise<void>((r) => proc.once('exit', () => r()));
  const logs = () => {
    const file = path.join(dir, 'dovecot.log');
    return out + (fs.existsSync(file) ? fs.readFileSync(file, 'utf8') : '');
  };
  const stop = async () => {
    if (proc.exitCode === null && proc.signalCode === null) {
      proc.kill('SIGTERM');
      await exited;
    }
    fs.rmSync(dir, { recursive: true, force: true });
  };

  const deadline = Date.now() + 15_000;
  while (!(await greets(port))) {
    if (proc.exitCode !== null || Date.now() > deadline) {
      const text = logs();
      await stop();
      throw new Error(`Dovecot did not start:\n${text}`);
    }
    await new Promise((r) => setTimeout(r, 100));
  }

  const session = async <T>(work: (c: ImapFlow) => Promise<T>): Promise<T> => {
    const c = new ImapFlow({ host: '127.0.0.1', port, secure: false, auth: { user, pass: password }, logger: false });
    c.on('error', () => {});
    await c.connect();
    try {
      return await work(c);
    } finally {
      await c.logout().catch(() => c.close());
    }
  };

  return {
    port,
    user,
    password,
    url: `imap://${encodeURIComponent(user)}:${encodeURIComponent(password)}@127.0.0.1:${port}/INBOX`,
    async append(raw, mailbox = 'INBOX') {
      await session(async (c) => {
        if (!(await c.append(mailbox, raw))) throw new Error(`could not append to ${mailbox}`);
      });
    },
    list(mailbox) {
      return session(async (c) => {
        const box = await c.mailboxOpen(mailbox, { readOnly: true });
        const sources: Buffer[] = [];
        if (box.exists === 0) return sources;
        for await (const m of c.fetch('1:*', { uid: true, source: true })) if (m.source) sources.push(m.source);
        return sources;
      });
    },
    async kick() {
      await promisify(execFile)(path.join(path.dirname(BIN), '../bin/doveadm'), ['-c', conf, 'kick', user]);
    },
    stop,
  };
}
