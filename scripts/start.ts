/**
 * `npm start`: build the worker, migrate and seed the local D1 database, then serve the production
 * build in workerd at http://localhost:4321 (PORT overrides). `npm run dev` serves with hot reload.
 * With TURSO_DATABASE_URL set, the database is that libSQL server instead (seeded, then bound).
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
    appendFileSync(
      '.dev.vars',
      `${vars && !vars.endsWith('\n') ? '\n' : ''}# Added by npm run dev: local conveniences (outbox, demo payments)\nAPP_ENV=development\n`,
    );
    console.log('[dev] added APP_ENV=development to .dev.vars');
  }
  const server = spawn('astro', ['dev', '--port', port], { stdio: 'inherit' });
  server.on('exit', (code) => process.exit(code ?? 0));
} else {
  run('astro', ['build']);
  console.log(`\n  UK NFP is starting at http://localhost:${port}\n`);
  // TURSO_DATABASE_URL (e.g. `npm run db:turso-local`'s) reaches the worker as a binding: the app
  // then runs on libSQL's remote protocol instead of the local D1 database.
  const turso = Object.fromEntries(
    ['TURSO_DATABASE_URL', 'TURSO_AUTH_TOKEN'].flatMap((name) =>
      process.env[name] ? [[name, process.env[name] as string]] : [],
    ),
  );
  if (turso.TURSO_DATABASE_URL) console.log(`  Database: ${turso.TURSO_DATABASE_URL} (libSQL remote protocol)`);
  await serveBuiltWorker({ port: Number(port), persistTo: '.wrangler/state', vars: turso });
}
