import { defineConfig } from 'vitest/config';

/**
 * Files whose proof another file running at once would spoil run after the rest, each alone (a
 * group of their own). The sign-in timing test compares medians within 5 ms: other files on the
 * same cores blur them. The job-round test proves PostgreSQL marks the rows done in the index as
 * a claim walks past them: it does so only when no transaction anywhere on the server is older
 * than those rows, which another file's transactions often are.
 */
const ALONE = ['server/auth/timing.test.ts', 'server/db/rounds.test.ts'];

export default defineConfig({
  test: {
    environment: 'node',
    testTimeout: 30_000,
    hookTimeout: 60_000,
    pool: 'forks',
    // Most of a server test's time is spent waiting on its database, mail or HTTP: three files at
    // a time keep two cores busy (one, Vitest's default here, left them half idle).
    maxWorkers: 3,
    // A worker keeps the modules it imported for its next file rather than import the server
    // afresh for each (about a fifth of the stage's CPU). Each file makes its own databases,
    // servers and mail; what a file changes globally (fake timers) it puts back itself.
    isolate: false,
    globalSetup: ['server/test/global-setup.ts'],
    projects: [
      { extends: true, test: { name: 'domain and server', include: ['domain/**/*.test.ts', 'server/**/*.test.ts'], exclude: ALONE } },
      ...ALONE.map((file, i) => ({ extends: true as const, test: { name: `alone: ${file}`, include: [file], sequence: { groupOrder: i + 1 } } })),
    ],
  },
});
