import { applyD1Migrations } from 'cloudflare:test';
import { env } from 'cloudflare:workers';
import { beforeAll } from 'vitest';
import { type FileBindings, setFileBindings } from './file-bindings.workers';

type Env = Record<string, unknown> & {
  TEST_MIGRATIONS: Parameters<typeof applyD1Migrations>[1];
  /** Test file (relative path) → the names of its D1 database and R2 bucket (vitest.config.ts). */
  OWN_STORAGE_FILES: Record<string, { db: string; images: string }>;
};
const bindings = env as unknown as Env;

/** Before each test file: its own database (vitest.config.ts gives every file one), migrated. */
// `{}`: vitest reads the first parameter as a fixture pattern; the file (suite) comes second.
beforeAll(async ({}, suite) => {
  const filepath = 'filepath' in suite ? suite.filepath : suite.file.filepath;
  const own = Object.entries(bindings.OWN_STORAGE_FILES).find(([file]) => filepath.endsWith(`/${file}`))?.[1];
  if (!own)
    throw new Error(`${filepath} has no database of its own: is it outside vitest.config.ts's engineTests patterns?`);
  const storage: FileBindings = { db: bindings[own.db] as D1Database, images: bindings[own.images] as R2Bucket };
  setFileBindings(storage);
  await applyD1Migrations(storage.db, bindings.TEST_MIGRATIONS);
});
