import type { Context } from 'hono';
import { errorSummary, logLine } from '../middlewares/logger';

/**
 * Runs work after the answer has gone, or before it where that is not possible. `deferred`: the
 * work really follows the answer (so it may wait to be done together with other requests' work).
 */
export type AfterAnswer = ((work: () => Promise<unknown>) => Promise<void>) & { readonly deferred: boolean };

/**
 * The request's `waitUntil` when the runtime gave one (the worker: src/fetch.ts passes it), so the
 * work no longer holds the answer; without one (tests, scripts in Node) the work is awaited, so a
 * caller sees everything done by the time it has the answer. Failures are logged, never thrown:
 * what follows an answer cannot change it.
 */
export function afterAnswerOf(c: Pick<Context, 'executionCtx'>): AfterAnswer {
  let waitUntil: ((work: Promise<unknown>) => void) | null = null;
  try {
    const ctx = c.executionCtx;
    waitUntil = (work) => ctx.waitUntil(work);
  } catch {
    // Hono throws when the request came with no execution context.
  }
  const run = async (work: () => Promise<unknown>) => {
    const guarded = Promise.resolve()
      .then(work)
      .catch((error) => logLine('error', 'work after the answer failed', { error: errorSummary(error) }));
    if (waitUntil) waitUntil(guarded);
    else await guarded;
  };
  return Object.assign(run, { deferred: waitUntil !== null });
}
