import { defineConfig } from '@playwright/test';

const port = Number(process.env.E2E_PORT ?? 4399);
/** A second server whose database is unreachable, for the failing-safely tests (tests/e2e/outage.spec.ts). */
const outagePort = Number(process.env.E2E_OUTAGE_PORT ?? port + 2);

/**
 * Browser tests against the production build served by workerd (scripts/e2e-server.ts).
 * CHROMIUM_PATH comes from scripts/ensure-chromium.sh (Playwright's browser or Debian's).
 */
export default defineConfig({
  testDir: 'tests/e2e',
  fullyParallel: false,
  workers: 1,
  retries: 0,
  timeout: 30_000,
  expect: { timeout: 7_000 },
  reporter: [['list'], ['json', { outputFile: '.cache/reports/playwright.json' }]],
  use: {
    baseURL: `http://localhost:${port}`,
    // Our visitors are in the UK: dates, numbers and date inputs as they see them.
    locale: 'en-GB',
    timezoneId: 'Europe/London',
    trace: 'retain-on-failure',
    launchOptions: {
      executablePath: process.env.CHROMIUM_PATH || undefined,
      args: [
        '--headless',
        '--no-sandbox',
        '--disable-gpu',
        '--disable-quic',
        '--no-first-run',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
      ],
    },
  },
  webServer: [
    {
      command: 'tsx scripts/e2e-server.ts',
      url: `http://localhost:${port}/api/health`,
      timeout: 120_000,
      reuseExistingServer: false,
      stdout: 'ignore',
      stderr: 'pipe',
      env: { E2E_PORT: String(port) },
    },
    {
      command: 'tsx scripts/e2e-server.ts --outage',
      // The API answers 503 there by design; a static file says the server is up.
      url: `http://localhost:${outagePort}/favicon.svg`,
      timeout: 120_000,
      reuseExistingServer: false,
      stdout: 'ignore',
      stderr: 'ignore',
      env: { E2E_OUTAGE_PORT: String(outagePort) },
    },
  ],
});
