import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['domain/**/*.test.ts', 'server/**/*.test.ts'],
    environment: 'node',
    testTimeout: 30_000,
    hookTimeout: 60_000,
    pool: 'forks',
    // Most of a server test's time is spent waiting on its database, mail or HTTP: three files at
    // a time keep two cores busy (one, Vitest's default here, left them half idle).
    maxWorkers: 3,
    globalSetup: ['server/test/global-setup.ts'],
  },
});
