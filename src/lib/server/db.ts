import { env } from 'cloudflare:workers';
import { createDb, type Db } from '../../../db/client';
import type { Bindings } from '../../../api/lib/types';

/** The request's database for server-rendered pages (same driver choice as the API). */
export function getDb(): Db {
  return createDb(env as unknown as Bindings);
}
