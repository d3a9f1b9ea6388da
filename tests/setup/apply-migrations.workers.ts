import { applyD1Migrations } from 'cloudflare:test';
import { env } from 'cloudflare:workers';

const bindings = env as unknown as { DB: D1Database; TEST_MIGRATIONS: Parameters<typeof applyD1Migrations>[1] };
await applyD1Migrations(bindings.DB, bindings.TEST_MIGRATIONS);

// Files of the shared-database project (vitest.config.ts) would add up the site-wide count of
// anonymous checkouts (issue 10's Turnstile threshold) until every later checkout answered 428:
// each file starts from zero, as it would on its own database.
await bindings.DB.prepare("delete from rate_limits where key like 'challenge:%'").run();
