/**
 * The server the browser tests use: the already-built worker on its own fresh, seeded database,
 * so tests never touch the data `npm start` keeps.
 */
import { spawnSync } from 'node:child_process';
import { rmSync } from 'node:fs';
import { serveBuiltWorker } from './serve';

const port = process.env.E2E_PORT ?? '4399';
const persistDir = '.wrangler/e2e-state';

rmSync(persistDir, { recursive: true, force: true });
const seeded = spawnSync('tsx', ['scripts/db-local.ts', 'seed', '--persist-to', persistDir], { stdio: 'inherit' });
if (seeded.status !== 0) process.exit(seeded.status ?? 1);
serveBuiltWorker(port, persistDir);
