declare namespace App {
  interface Locals {
    /** Set by src/fetch.ts from the worker entry's request id; shown on error pages. */
    requestId?: string;
  }
}
