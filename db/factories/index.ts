/**
 * Rows for tests and the demo seed: each `…Row` returns an insert row with plain defaults (what the
 * caller passes wins), each `create…` inserts one and returns it. Browser-free and engine-neutral.
 */
export * from './campaigns';
export * from './declarations';
export * from './donation-batches';
export * from './donations';
export * from './gift-aid-claims';
export * from './monthly-gifts';
export * from './people';
