import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TestProject } from 'vitest/node';

/**
 * One local libSQL protocol server (scripts/turso-local.ts, tests/mocks/libsql-server.ts) for the
 * "turso" project's run, in a process of its own (vitest's main process is busy with the workers'
 * messages; a server there answered several times slower): each setupTestApp gets a database of
 * its own on it (engine.turso.ts), reached over HTTP by the same client build the worker uses.
 * Its URL is `tursoLocalUrl`.
 */
export default async function setup(project: TestProject) {
  const dir = mkdtempSync(join(tmpdir(), 'turso-local-'));
  const child = spawn(
    process.execPath,
    ['--import', 'tsx', 'scripts/turso-local.ts', '--port', '0', '--db', join(dir, 'root.db'), '--databases-dir', dir],
    {
      stdio: ['ignore', 'pipe', 'inherit'],
    },
  );
  const url = await new Promise<string>((resolve, reject) => {
    let output = '';
    const timer = setTimeout(() => reject(new Error(`the local libSQL server did not start: ${output}`)), 30_000);
    child.stdout?.on('data', (chunk: Buffer) => {
      output += chunk.toString('utf8');
      const found = /Hrana over HTTP at (http:\/\/\S+)/.exec(output);
      if (found) {
        clearTimeout(timer);
        resolve(found[1]);
      }
    });
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`the local libSQL server exited (${code}): ${output}`));
    });
  });
  child.stdout?.resume();
  project.provide('tursoLocalUrl', url);
  return async () => {
    await stopChild(child);
    rmSync(dir, { recursive: true, force: true });
  };
}

async function stopChild(child: ChildProcess) {
  if (child.exitCode !== null) return;
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGTERM');
  await Promise.race([exited, new Promise((resolve) => setTimeout(resolve, 5000))]);
  if (child.exitCode === null) child.kill('SIGKILL');
}

declare module 'vitest' {
  export interface ProvidedContext {
    tursoLocalUrl: string;
  }
}
