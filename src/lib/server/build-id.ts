/** Set by astro.config.mjs at build time; absent under vitest, which does not build the worker. */
declare const __BUILD_ID__: string | undefined;

/**
 * The build this worker is. Cached public pages and API answers are keyed by it
 * (page-cache.ts): a deployment must not serve the previous build's pages, whose script and
 * style URLs (hashed per build) no longer exist, so their islands (the donation box) would not load.
 */
export const BUILD_ID: string = typeof __BUILD_ID__ === 'string' ? __BUILD_ID__ : 'unbuilt';
