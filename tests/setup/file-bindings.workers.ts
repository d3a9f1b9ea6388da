/**
 * The D1 database and R2 bucket of the test file now running in workerd, chosen by
 * apply-migrations.workers.ts before the file's own hooks. Kept on globalThis: test files share one
 * module graph (isolate: false), and the setup file may be evaluated again for each file.
 */
export type FileBindings = { db: D1Database; images: R2Bucket };

const KEY = Symbol.for('uk-nfp.test-file-bindings');

export function setFileBindings(bindings: FileBindings) {
  (globalThis as Record<symbol, unknown>)[KEY] = bindings;
}

export function fileBindings(): FileBindings {
  const bindings = (globalThis as Record<symbol, unknown>)[KEY] as FileBindings | undefined;
  if (!bindings) throw new Error('No test database yet: call setupTestApp from a hook or a test, not at import time');
  return bindings;
}
