import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TestProject } from 'vitest/node';
import { startLibsqlServer } from '../mocks/libsql-server';

/**
 * One local libSQL protocol server (tests/mocks/libsql-server.ts) for the "turso" project's run,
 * in vitest's main process: each setupTestApp gets a database of its own on it (engine.turso.ts),
 * reached over HTTP by the same client build the worker uses. Its URL is `tursoLocalUrl`.
 */
export default async function setup(project: TestProject) {
  const dir = mkdtempSync(join(tmpdir(), 'turso-local-'));
  const server = await startLibsqlServer({ dbPath: join(dir, 'root.db'), databasesDir: dir });
  project.provide('tursoLocalUrl', server.url);
  return async () => {
    await server.close();
    rmSync(dir, { recursive: true, force: true });
  };
}

declare module 'vitest' {
  export interface ProvidedContext {
    tursoLocalUrl: string;
  }
}
