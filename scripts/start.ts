/**
 * `npm start`: build the worker, migrate and seed the local D1 database, then serve the production
 * build in workerd at http://localhost:4321 (PORT overrides). `npm run dev` serves with hot reload.
 */
import { spawn, spawnSync } from 'node:child_process';
import { appendFileSync, existsSync, readFileSync } from 'node:fs';
import { serveBuiltWorker } from './serve';

const dev = process.argv.includes('--dev');
const port = process.env.PORT ?? '4321';

function run(command: string, args: string[]) {
  const result = spawnSync(command, args, { stdio: 'inherit' });
  if (result.status !== 0) process.exit(result.status ?? 1);
}

run('tsx', ['scripts/db-local.ts', 'seed']);
if (dev) {
  // `astro dev` reads bindings from .dev.vars only; deployed workers default to production.
  const vars = existsSync('.dev.vars') ? readFileSync('.dev.vars', 'utf8') : '';
  if (!/^APP_ENV=/m.test(vars)) {
    appendFileSync('.dev.vars', `${vars && !vars.endsWith('\n') ? '\n' : ''}# Added by npm run dev: local conveniences (outbox, demo payments)\nAPP_ENV=development\n`);
    console.log('[dev] added APP_ENV=development to .dev.vars');
  }
  const server = spawn('astro', ['dev', '--port', port], { stdio: 'inherit' });
  server.on('exit', (code) => process.exit(code ?? 0));
} else {
  run('astro', ['build']);
  console.log(`\n  UK NFP is starting at http://localhost:${port}\n`);
  await serveBuiltWorker({ port: Number(port), persistTo: '.wrangler/state' });
}
