import { createMiddleware } from 'hono/factory';
import { createDb } from '../../db/client';
import { loadConfig } from '../lib/config';
import type { AppDeps, AppEnv } from '../lib/types';
import { createPaymentProvider } from '../services/payments';

/** Puts the database, the parsed configuration and the payment provider on c.var for every handler. */
export function dbMiddleware(deps: AppDeps) {
  return createMiddleware<AppEnv>(async (c, next) => {
    const config = loadConfig(c.env ?? {});
    c.set('config', config);
    c.set('payments', createPaymentProvider(config));
    c.set('db', deps.db ?? createDb(c.env ?? {}));
    await next();
  });
}
