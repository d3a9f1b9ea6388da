/**
 * The servers the browser tests use: the already-built worker on its own fresh, seeded database,
 * so tests never touch the data `npm start` keeps. With --outage, the same worker whose database
 * cannot be reached (a Turso URL nothing listens on), for the failing-safely tests.
 */
import { spawnSync } from 'node:child_process';
import { rmSync } from 'node:fs';
import { serveBuiltWorker } from './serve';

const outage = process.argv.includes('--outage');
const port = outage ? (process.env.E2E_OUTAGE_PORT ?? '4401') : (process.env.E2E_PORT ?? '4399');
const persistDir = outage ? '.wrangler/e2e-outage-state' : '.wrangler/e2e-state';

rmSync(persistDir, { recursive: true, force: true });
// Canonical and share links use PUBLIC_ORIGIN, never the Host header (production requires it).
const vars: Record<string, string> = { PUBLIC_ORIGIN: `http://localhost:${port}` };
if (outage) {
  vars.TURSO_DATABASE_URL = 'http://127.0.0.1:9';
} else {
  const seeded = spawnSync('tsx', ['scripts/db-local.ts', 'seed', '--persist-to', persistDir], { stdio: 'inherit' });
  if (seeded.status !== 0) process.exit(seeded.status ?? 1);
}
serveBuiltWorker(port, persistDir, vars, { testScheduled: true });
