declare namespace App {
  interface Locals {
    /** Set by src/fetch.ts from the worker entry's request id; shown on error pages. */
    requestId?: string;
  }
}

/** Vite's flag, declared here too for the worker-only typecheck (tsconfig.worker.json has no Astro client types). */
interface ImportMetaEnv {
  readonly DEV: boolean;
}
interface ImportMeta {
  readonly env: ImportMetaEnv;
}
