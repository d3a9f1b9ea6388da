/**
 * `npm start`: build the worker, migrate and seed the local D1 database, then serve the production
 * build in workerd at http://localhost:4321 (PORT overrides). `npm run dev` serves with hot reload.
 */
import { spawn, spawnSync } from 'node:child_process';

const dev = process.argv.includes('--dev');
const port = process.env.PORT ?? '4321';

function run(command: string, args: string[]) {
  const result = spawnSync(command, args, { stdio: 'inherit' });
  if (result.status !== 0) process.exit(result.status ?? 1);
}

if (!dev) run('astro', ['build']);
run('tsx', ['scripts/db-local.ts', 'seed']);

const server = spawn('astro', [dev ? 'dev' : 'preview', '--port', port], { stdio: 'inherit' });
for (const signal of ['SIGINT', 'SIGTERM'] as const) process.on(signal, () => server.kill(signal));
server.on('exit', (code) => process.exit(code ?? 0));
