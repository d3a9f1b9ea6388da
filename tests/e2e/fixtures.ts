import { test as base } from '@playwright/test';
import { signIn } from './sign-in';
import { serverOrigin } from './servers';

/**
 * The browser tests' `test`: every spec imports it instead of Playwright's own. It points `page` and
 * `request` at the server of the worker running the test (tests/e2e/servers.ts), and offers
 * `signInAs(email)`, the token of the run's one sign-in of that account.
 */
export const test = base.extend<{ signInAs: (email: string) => Promise<string> }>({
  baseURL: async ({}, use, testInfo) => {
    await use(serverOrigin(testInfo.parallelIndex));
  },
  signInAs: async ({ request }, use) => {
    await use(async (email) => (await signIn(request, email)).token);
  },
});

export { expect } from '@playwright/test';
