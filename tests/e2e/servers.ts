/**
 * The browser tests' servers (playwright.config.ts starts them, scripts/e2e-server.ts is each one):
 * one server with its own freshly seeded database per Playwright worker, so two workers never share
 * data and every spec keeps the one-at-a-time world it was written for; and one server whose
 * database cannot be reached (tests/e2e/outage.spec.ts).
 */
export const E2E_WORKERS = 2;
export const E2E_PORT = Number(process.env.E2E_PORT ?? 4399);
export const E2E_OUTAGE_PORT = Number(process.env.E2E_OUTAGE_PORT ?? E2E_PORT + E2E_WORKERS);

/** The server of the worker with this parallel index (0 to E2E_WORKERS - 1). */
export const serverOrigin = (parallelIndex: number) => `http://localhost:${E2E_PORT + parallelIndex}`;
export const outageOrigin = `http://localhost:${E2E_OUTAGE_PORT}`;
