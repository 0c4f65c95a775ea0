import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { TestProject } from 'vitest/node';
import { openDb } from '../db';
import { pgDatabase, postgresAnswers } from './harness';

declare module 'vitest' {
  export interface ProvidedContext {
    /** A migrated PostgreSQL database that freshDb copies (CREATE DATABASE … TEMPLATE), or null. */
    pgTemplate: string | null;
    /** A migrated SQLite file that freshDb copies. */
    sqliteTemplate: string;
  }
}

/**
 * Migrates one database of each kind once per run; each test's fresh database is a copy of it
 * (server/test/harness.ts freshDb), not 32 migrations run again.
 */
export default async function setup(project: TestProject) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'bdc-template-'));
  const lite = await openDb({ dataDir: dir });
  await lite.close();
  project.provide('sqliteTemplate', path.join(dir, 'portal.sqlite'));

  const pg = (await postgresAnswers()) ? await pgDatabase('bdc_template') : null;
  if (pg) {
    const h = await openDb({ databaseUrl: pg.url, dataDir: dir });
    await h.close();
  }
  project.provide('pgTemplate', pg ? new URL(pg.url).pathname.slice(1) : null);

  return async () => {
    await pg?.drop();
    fs.rmSync(dir, { recursive: true, force: true });
  };
}
