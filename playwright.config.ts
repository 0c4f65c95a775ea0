import { defineConfig, devices } from '@playwright/test';
import { slotUrl } from './e2e/support/slot';
import { launch } from './e2e/support/browser';

export default defineConfig({
  testDir: 'e2e',
  globalSetup: './e2e/support/global-setup.ts',
  fullyParallel: false,
  workers: Number(process.env.E2E_WORKERS ?? 2),
  retries: 0,
  // Two workers share two cores: a test may take twice as long as it would alone.
  timeout: 120_000,
  expect: { timeout: 10_000 },
  reporter: [['list']],
  use: {
    baseURL: slotUrl(),
    trace: 'off',
    screenshot: 'only-on-failure',
    ...devices['Desktop Chrome'],
    launchOptions: launch(),
  },
});
