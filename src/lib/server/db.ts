import { env } from 'cloudflare:workers';
import { createDb, type Db } from '../../../db/client';
import { type AppConfig, readConfig } from '../../../api/lib/config';
import type { Bindings } from '../../../api/lib/types';

/** The request's database for server-rendered pages (same driver choice as the API). */
export function getDb(): Db {
  return createDb(env as unknown as Bindings);
}

/** The deployment's settings, read the same way the API reads them. */
export function getConfig(): AppConfig {
  return readConfig(env as unknown as Bindings);
}
