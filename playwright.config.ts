import { CHROMIUM_FLAGS } from './scripts/chromium-flags';
import { defineConfig } from '@playwright/test';
import { E2E_OUTAGE_PORT, E2E_PORT, E2E_WORKERS, serverOrigin } from './tests/e2e/servers';

// The servers of one run share a seeded template database (scripts/e2e-server.ts).
process.env.E2E_RUN_ID ??= String(Date.now());

/**
 * Browser tests against the production build served by workerd (scripts/e2e-server.ts).
 * CHROMIUM_PATH comes from scripts/ensure-chromium.sh (Playwright's browser or Debian's).
 */
export default defineConfig({
  testDir: 'tests/e2e',
  // Files run one after another in each worker, against that worker's own server and database
  // (tests/e2e/fixtures.ts points baseURL at it), so specs still see a world only they change.
  fullyParallel: false,
  workers: E2E_WORKERS,
  retries: 0,
  timeout: 30_000,
  expect: { timeout: 7_000 },
  reporter: [['list'], ['json', { outputFile: '.cache/reports/playwright.json' }]],
  use: {
    baseURL: serverOrigin(0),
    // Our visitors are in the UK: dates, numbers and date inputs as they see them.
    locale: 'en-GB',
    timezoneId: 'Europe/London',
    trace: process.env.E2E_TRACE ? 'retain-on-failure' : 'off',
    launchOptions: {
      executablePath: process.env.CHROMIUM_PATH || undefined,
      args: CHROMIUM_FLAGS,
    },
  },
  webServer: [
    ...Array.from({ length: E2E_WORKERS }, (_, index) => ({
      command: 'tsx scripts/e2e-server.ts',
      url: `${serverOrigin(index)}/api/health`,
      timeout: 120_000,
      reuseExistingServer: false,
      stdout: 'ignore' as const,
      stderr: 'pipe' as const,
      env: { E2E_PORT: String(E2E_PORT + index) },
    })),
    {
      command: 'tsx scripts/e2e-server.ts --outage',
      // The API answers 503 there by design; a static file says the server is up.
      url: `http://localhost:${E2E_OUTAGE_PORT}/favicon.svg`,
      timeout: 120_000,
      reuseExistingServer: false,
      stdout: 'ignore',
      stderr: 'ignore',
      env: { E2E_OUTAGE_PORT: String(E2E_OUTAGE_PORT) },
    },
  ],
});
