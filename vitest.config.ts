import { defineConfig } from 'vitest/config';

/** The sign-in timing test compares medians within 5 ms: other files on the same cores blur them, so it runs after the rest, alone. */
const ALONE = ['server/auth/timing.test.ts'];

export default defineConfig({
  test: {
    environment: 'node',
    testTimeout: 30_000,
    hookTimeout: 60_000,
    pool: 'forks',
    // Most of a server test's time is spent waiting on its database, mail or HTTP: three files at
    // a time keep two cores busy (one, Vitest's default here, left them half idle).
    maxWorkers: 3,
    globalSetup: ['server/test/global-setup.ts'],
    projects: [
      { extends: true, test: { name: 'domain and server', include: ['domain/**/*.test.ts', 'server/**/*.test.ts'], exclude: ALONE } },
      { extends: true, test: { name: 'alone', include: ALONE, sequence: { groupOrder: 1 } } },
    ],
  },
});
