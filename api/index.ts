import { type AppDeps, createBaseApp } from './lib/create-app';
import { campaignsRouter } from './routes/campaigns/campaigns.index';
import { healthRouter } from './routes/health/health.index';

/** The JSON API, mounted at /api by src/fetch.ts and used directly by tests. */
export function createApp(deps: AppDeps = {}) {
  return createBaseApp(deps).basePath('/api').route('/', healthRouter).route('/', campaignsRouter);
}

export type AppType = ReturnType<typeof createApp>;
