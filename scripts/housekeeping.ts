/**
 * `npm run housekeeping`: the Cron Trigger's job, run once by hand against the local database
 * (the D1 state `npm start` serves, and its R2 images), or against Turso when TURSO_DATABASE_URL
 * is set. Prints the counts; running it twice in a row finds nothing more to do.
 *   tsx scripts/housekeeping.ts [--persist-to DIR]
 * In Stripe mode (STRIPE_SECRET_KEY in .dev.vars or the environment) abandoned PaymentIntents and
 * subscriptions are cancelled in that Stripe account.
 */
import { createClient } from '@libsql/client';
import { drizzle as drizzleD1 } from 'drizzle-orm/d1';
import { drizzle as drizzleLibsql } from 'drizzle-orm/libsql';
import { getPlatformProxy } from 'wrangler';
import { readConfig } from '../api/lib/config';
import type { Bindings } from '../api/lib/types';
import { runScheduledWork } from '../api/services/housekeeping/scheduled';
import type { Db } from '../db/client';
import * as schema from '../db/schema';

const args = process.argv.slice(2);
const persistIndex = args.indexOf('--persist-to');
const persistTo = persistIndex >= 0 ? args[persistIndex + 1] : undefined;

async function main() {
  const { env, dispose } = await getPlatformProxy<Bindings & { DB: D1Database; IMAGES: R2Bucket }>({
    configPath: 'wrangler.toml',
    persist: persistTo ? { path: `${persistTo}/v3` } : true,
  });
  try {
    // Settings from the shell win over .dev.vars, as for the other scripts.
    const settings = { ...env, ...process.env } as Bindings;
    let db: Db;
    let close = () => {};
    if (settings.TURSO_DATABASE_URL) {
      const client = createClient({ url: settings.TURSO_DATABASE_URL, authToken: settings.TURSO_AUTH_TOKEN });
      db = drizzleLibsql(client, { schema });
      close = () => client.close();
    } else {
      db = drizzleD1(env.DB, { schema }) as unknown as Db;
    }
    const config = readConfig(settings);
    const counts = await runScheduledWork({
      db,
      config,
      bucket: env.IMAGES,
      origin: config.publicOrigin ?? `http://localhost:${process.env.PORT ?? 4321}`,
      now: new Date(),
    });
    console.log(JSON.stringify({ level: 'info', msg: 'housekeeping', ...counts }));
    close();
  } finally {
    await dispose();
  }
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
