import { type AppDeps, createBaseApp } from './lib/create-app';
import { authRouter } from './routes/auth/auth.index';
import { campaignsRouter } from './routes/campaigns/campaigns.index';
import { devRouter } from './routes/dev/dev.index';
import { donationsRouter } from './routes/donations/donations.index';
import { healthRouter } from './routes/health/health.index';

/** The JSON API, mounted at /api by src/fetch.ts and used directly by tests. */
export function createApp(deps: AppDeps = {}) {
  return createBaseApp(deps).basePath('/api').route('/', healthRouter).route('/', campaignsRouter)
    .route('/', donationsRouter)
    .route('/', authRouter)
    .route('/', devRouter);
}

export type AppType = ReturnType<typeof createApp>;
