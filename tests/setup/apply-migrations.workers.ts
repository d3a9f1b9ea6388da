import { applyD1Migrations } from 'cloudflare:test';
import { env } from 'cloudflare:workers';
import { beforeAll } from 'vitest';
import { type FileBindings, setFileBindings } from './file-bindings.workers';

type Env = Record<string, unknown> & {
  TEST_MIGRATIONS: Parameters<typeof applyD1Migrations>[1];
  /** Test file (relative path) → the names of its own D1 database and R2 bucket (vitest.config.ts). */
  OWN_STORAGE_FILES: Record<string, { db: string; images: string }>;
};
const bindings = env as unknown as Env;

/**
 * Before each test file: the database it works on, migrated. Files that count whole tables or write
 * the whole seed get a database and bucket of their own; every other file shares DB and IMAGES.
 */
// `{}`: vitest reads the first parameter as a fixture pattern; the file (suite) comes second.
beforeAll(async ({}, suite) => {
  const filepath = 'filepath' in suite ? suite.filepath : suite.file.filepath;
  const own = Object.entries(bindings.OWN_STORAGE_FILES).find(([file]) => filepath.endsWith(`/${file}`))?.[1];
  const storage: FileBindings = {
    db: bindings[own?.db ?? 'DB'] as D1Database,
    images: bindings[own?.images ?? 'IMAGES'] as R2Bucket,
  };
  setFileBindings(storage);
  await applyD1Migrations(storage.db, bindings.TEST_MIGRATIONS);
  // Files of the shared database would add up the site-wide count of anonymous checkouts (issue 10's
  // Turnstile threshold) until every later checkout answered 428: each file starts from zero, as it
  // would on its own database.
  await storage.db.prepare("delete from rate_limits where key like 'challenge:%'").run();
});
