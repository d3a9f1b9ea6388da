import { createMiddleware } from 'hono/factory';
import { createDb } from '../../db/client';
import type { AppDeps } from '../lib/create-app';
import { loadConfig } from '../lib/config';
import type { AppEnv } from '../lib/types';

/** Puts the database and the parsed configuration on c.var for every handler. */
export function dbMiddleware(deps: AppDeps) {
  return createMiddleware<AppEnv>(async (c, next) => {
    c.set('config', loadConfig(c.env ?? {}));
    c.set('db', deps.db ?? createDb(c.env ?? {}));
    await next();
  });
}
