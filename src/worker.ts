import astro from '@astrojs/cloudflare/entrypoints/server';
import { readConfig } from '../api/lib/config';
import type { Bindings } from '../api/lib/types';
import { errorSummary, logLine, requestLine, safeStack, withRequestId } from '../api/middlewares/logger';
import { MAIL_RETRY_CRON, runMailRetry, runScheduledWork } from '../api/services/housekeeping/scheduled';
import { createDb } from '../db/client';
import pipeline from './fetch';
import { newRequestContext } from '../db/usage';
import { withSecurityHeaders } from './lib/server/security-headers';
import { withReasonPhrase } from './lib/server/status-text';
import { unavailableResponse } from './lib/server/unavailable-page';

/**
 * The worker entry (wrangler.toml `main`): Astro's Cloudflare handler for requests (which runs
 * src/fetch.ts: the API under /api, pages for the rest), wrapped so every response gets the
 * security headers, every request one id and every page request one JSON log line (the API logs
 * its own, with the user id); plus the Cron Trigger that runs housekeeping.
 */

/** Cloudflare's ray id names the request in Cloudflare's own logs too; locally a fresh UUID. */
function newRequestId(request: Request): string {
  const ray = request.headers.get('cf-ray')?.trim();
  return ray && /^[A-Za-z0-9-]{8,64}$/.test(ray) ? ray : crypto.randomUUID();
}

export default {
  async fetch(request, env, ctx) {
    const started = Date.now();
    const requestId = newRequestId(request);
    const context = newRequestContext(requestId);
    const path = new URL(request.url).pathname;
    let response: Response;
    try {
      // The API and pages read the id through requestIdFrom (a caller's x-request-id is never used).
      // The API straight to src/fetch.ts: Astro's handler has no route for /api, so it would first
      // ask the static assets for every API path (a 404 each time, a storm profile's 2.6%).
      const handle = path.startsWith('/api/')
        ? () => pipeline.fetch(request, env, ctx)
        : () => astro.fetch(request as never, env as never, ctx as never);
      response = await withRequestId(requestId, handle, context);
    } catch (error) {
      // Astro answers its own errors; this is the last resort, and it still says something useful.
      logLine('error', 'unhandled error', {
        request_id: requestId,
        error: errorSummary(error),
        stack: safeStack(error),
      });
      response = await unavailableResponse(requestId);
    }
    response = withSecurityHeaders(withReasonPhrase(response));
    if (!path.startsWith('/api/')) {
      // Query strings stay out of the log: Stripe's return URL carries a client secret.
      requestLine(
        {
          request_id: requestId,
          method: request.method,
          route: path,
          status: response.status,
          ms: Date.now() - started,
        },
        context,
      );
    }
    return response;
  },

  /** Cron Trigger (wrangler.toml [triggers]): housekeeping, logged as one line of counts. */
  async scheduled(controller, env, ctx) {
    ctx.waitUntil(
      (async () => {
        const started = Date.now();
        try {
          const db = createDb(env);
          const config = readConfig(env);
          const now = new Date(controller.scheduledTime);
          const counts =
            controller.cron === MAIL_RETRY_CRON
              ? await runMailRetry({ db, config, now })
              : await runScheduledWork({
                  db,
                  config,
                  bucket: env.IMAGES ?? null,
                  // Receipts of Direct Debits settled on this run link to the site (PUBLIC_ORIGIN is required in production).
                  origin: config.publicOrigin ?? 'http://localhost:4321',
                  now,
                });
          logLine('info', 'housekeeping', {
            cron: controller.cron,
            ms: Date.now() - started,
            ...counts,
          });
        } catch (error) {
          logLine('error', 'housekeeping failed', {
            cron: controller.cron,
            error: errorSummary(error),
            stack: safeStack(error),
          });
          throw error;
        }
      })(),
    );
  },
} satisfies ExportedHandler<Bindings>;
