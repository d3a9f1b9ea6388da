import { defineMiddleware } from 'astro:middleware';
import { pageFailureResponse } from './lib/server/page-failure';

/**
 * Failing safely: when a page cannot reach the database (or production lacks a required setting),
 * the visitor gets the branded 503 page with Retry-After instead of a stack or a blank page. Any
 * other error still goes to src/pages/500.astro.
 */
export const onRequest = defineMiddleware(async (context, next) => {
  try {
    return await next();
  } catch (error) {
    const response = await pageFailureResponse(error, context.locals.requestId ?? 'unknown', context.routePattern);
    if (!response) throw error;
    return response;
  }
});
