/**
 * Migrate and seed a database from Node.
 *   tsx scripts/db-local.ts migrate|seed [--persist-to DIR] [--scale N]
 * `--scale N` (seed only) writes N times the demo data (100: about 30,000 donations and 1,800 appeals).
 * With TURSO_DATABASE_URL set it works on that libSQL database (the seed refuses a non-local URL
 * unless --allow-remote); otherwise on the local D1 simulator that `npm start` serves.
 */
import { execFileSync } from 'node:child_process';
import { createClient } from '@libsql/client';
import { drizzle as drizzleD1 } from 'drizzle-orm/d1';
import { drizzle as drizzleLibsql } from 'drizzle-orm/libsql';
import { migrate } from 'drizzle-orm/libsql/migrator';
import { getPlatformProxy } from 'wrangler';
import type { Db } from '../db/client';
import * as schema from '../db/schema';
import { parseSeedScale, seed } from '../db/seed';

const [command, ...args] = process.argv.slice(2);
const persistIndex = args.indexOf('--persist-to');
const persistTo = persistIndex >= 0 ? args[persistIndex + 1] : undefined;
const tursoUrl = process.env.TURSO_DATABASE_URL;
const scaleIndex = args.indexOf('--scale');

async function main() {
  if (command !== 'migrate' && command !== 'seed') {
    console.error('usage: db-local.ts migrate|seed [--persist-to DIR] [--scale N] [--allow-remote]');
    process.exit(2);
  }
  let scale = 1;
  if (scaleIndex >= 0) {
    try {
      if (command !== 'seed') throw new Error('--scale only applies to seed');
      scale = parseSeedScale(args[scaleIndex + 1]);
    } catch (err) {
      console.error(`[db] ${(err as Error).message}`);
      process.exit(2);
    }
  }
  if (tursoUrl) {
    const isLocal = /^(file:|:memory:|https?:\/\/(localhost|127\.0\.0\.1))/.test(tursoUrl);
    if (command === 'seed' && !isLocal && !args.includes('--allow-remote')) {
      console.error(`Refusing to seed ${tursoUrl}: it is not a local database (pass --allow-remote to insist).`);
      process.exit(2);
    }
    const client = createClient({ url: tursoUrl, authToken: process.env.TURSO_AUTH_TOKEN });
    const db = drizzleLibsql(client, { schema });
    await migrate(db, { migrationsFolder: 'db/migrations' });
    if (command === 'seed') console.log('[db] seeded', await seed(db, undefined, { scale }));
    client.close();
    return;
  }

  // Local D1: wrangler applies the same SQL files and records them in d1_migrations.
  execFileSync(
    'wrangler',
    ['d1', 'migrations', 'apply', 'DB', '--local', ...(persistTo ? ['--persist-to', persistTo] : [])],
    { stdio: ['ignore', 'inherit', 'inherit'], env: { ...process.env, CI: 'true' } },
  );
  if (command === 'seed') {
    const { env, dispose } = await getPlatformProxy<{ DB: D1Database }>({
      configPath: 'wrangler.toml',
      persist: persistTo ? { path: `${persistTo}/v3` } : true,
    });
    try {
      const db = drizzleD1(env.DB, { schema }) as unknown as Db;
      console.log('[db] seeded', await seed(db, undefined, { scale }));
    } finally {
      await dispose();
    }
  }
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
