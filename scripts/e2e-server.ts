/**
 * The servers the browser tests use: the already-built worker on its own fresh, seeded database,
 * so tests never touch the data `npm start` keeps. With --outage, the same worker whose database
 * cannot be reached (a Turso URL nothing listens on), for the failing-safely tests.
 *
 * Playwright starts one server per worker (tests/e2e/servers.ts) at the same moment. Migrating and
 * seeding costs about 12 s of CPU, so the first server seeds a template database for the run
 * (E2E_RUN_ID, set by playwright.config.ts) and the others copy it.
 */
import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { setTimeout as sleep } from 'node:timers/promises';
import { serveBuiltWorker } from './serve';

const outage = process.argv.includes('--outage');
const port = outage ? (process.env.E2E_OUTAGE_PORT ?? '4401') : (process.env.E2E_PORT ?? '4399');
// One database per server: each Playwright worker has its own (tests/e2e/servers.ts).
const persistDir = outage ? '.wrangler/e2e-outage-state' : `.wrangler/e2e-state-${port}`;

/** Seeds the run's template once (whoever creates its directory first) and copies it to `to`. */
async function seededCopy(to: string) {
  const runId = process.env.E2E_RUN_ID ?? String(process.pid);
  const template = `.wrangler/e2e-template-${runId}`;
  mkdirSync('.wrangler', { recursive: true });
  let seeder = false;
  try {
    mkdirSync(template);
    seeder = true;
  } catch {
    // Another server of this run is seeding it.
  }
  if (seeder) {
    for (const old of readdirSync('.wrangler')) {
      if (old.startsWith('e2e-template-') && `.wrangler/${old}` !== template)
        rmSync(`.wrangler/${old}`, { recursive: true, force: true });
    }
    const seeded = spawnSync('tsx', ['scripts/db-local.ts', 'seed', '--persist-to', `${template}/db`], {
      stdio: 'inherit',
    });
    if (seeded.status !== 0) {
      writeFileSync(`${template}/failed`, '');
      process.exit(seeded.status ?? 1);
    }
    writeFileSync(`${template}/ready`, '');
  }
  for (let waited = 0; !existsSync(`${template}/ready`); waited += 200) {
    if (existsSync(`${template}/failed`) || waited > 110_000) {
      console.error('[e2e-server] the seeded template database was not made');
      process.exit(1);
    }
    await sleep(200);
  }
  cpSync(`${template}/db`, to, { recursive: true });
}

/** Cached pages go stale after this many seconds here, so the stale path is seen without a long wait. */
const E2E_PAGE_FRESH_SECONDS = 4;

rmSync(persistDir, { recursive: true, force: true });
// Canonical and share links use PUBLIC_ORIGIN, never the Host header (production requires it).
const vars: Record<string, string> = {
  PUBLIC_ORIGIN: `http://localhost:${port}`,
  PAGE_FRESH_SECONDS: String(E2E_PAGE_FRESH_SECONDS),
};
if (outage) vars.TURSO_DATABASE_URL = 'http://127.0.0.1:9';
else await seededCopy(persistDir);
await serveBuiltWorker({ port: Number(port), persistTo: persistDir, vars, testScheduled: true });
