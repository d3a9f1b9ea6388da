import { globSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import path from 'node:path';
import { cloudflareTest, readD1Migrations } from '@cloudflare/vitest-plugin';
import { defineConfig } from 'vitest/config';

const here = (p: string) => path.join(import.meta.dirname, p);

/** API and database tests: the same files run on libSQL in Node and on D1 inside workerd. */
const engineTests = ['api/**/*.test.ts', 'db/**/*.test.ts'];

/**
 * Every workerd test file gets a D1 database and an R2 bucket of its own, found by globbing the same
 * patterns the project includes: no suite sees another's rows, and a new file needs no list entry.
 * All of them share one worker and its module graph, so the app is transformed and imported once
 * rather than once per file (docs/decisions/012).
 */
const workersTestFiles = engineTests
  .flatMap((pattern) => globSync(pattern, { cwd: import.meta.dirname }))
  .filter((file) => !file.endsWith('.node.test.ts'))
  .sort();

/**
 * One worker per core (vitest's default leaves one idle, and projects with `extends: false` do not
 * inherit a root setting): the Node and workerd projects run side by side, 49 s → 29 s on 2 cores.
 */
const maxWorkers = availableParallelism();

/** Binding names of each own-storage suite's database and bucket. */
const ownStorage = Object.fromEntries(
  workersTestFiles.map((file, i) => [file, { db: `DB_OWN_${i}`, images: `IMAGES_OWN_${i}` }]),
);

export default defineConfig(async () => {
  const migrations = await readD1Migrations(here('db/migrations'));
  const workersProject = {
    extends: false as const,
    resolve: {
      alias: { '#test-engine': here('tests/setup/engine.workers.ts'), '#test-app': here('tests/setup/test-app.ts') },
    },
    plugins: [
      cloudflareTest({
        miniflare: {
          compatibilityDate: '2026-10-01',
          compatibilityFlags: ['nodejs_compat'],
          d1Databases: { ...Object.fromEntries(Object.values(ownStorage).map(({ db }) => [db, `test-${db}`])) },
          r2Buckets: [...Object.values(ownStorage).map(({ images }) => images)],
          bindings: { TEST_MIGRATIONS: migrations, OWN_STORAGE_FILES: ownStorage },
        },
      }),
    ],
    test: {
      name: 'workers',
      include: engineTests,
      globalSetup: [here('tests/setup/turnstile.global.ts'), here('tests/setup/mail-provider.global.ts')],
      // Node-only suites (they spawn processes or read files) opt out by name.
      exclude: ['**/*.node.test.ts'],
      setupFiles: [here('tests/setup/apply-migrations.workers.ts'), here('tests/setup/console-guard.ts')],
      // Loops of 30-50 requests against D1 in workerd need more than 5 s on a busy 2-core machine.
      testTimeout: 20_000,
      isolate: false,
      maxWorkers,
    },
  };
  return {
    test: {
      // One JSON log line per request (api/middlewares/logger.ts) would bury the output: console
      // output is shown for failing tests only; tests that check logs spy on console.
      silent: 'passed-only' as const,
      projects: [
        {
          extends: false,
          resolve: {
            alias: { '#test-engine': here('tests/setup/engine.node.ts'), '#test-app': here('tests/setup/test-app.ts') },
          },
          test: {
            name: 'node',
            environment: 'node',
            globalSetup: [here('tests/setup/turnstile.global.ts'), here('tests/setup/mail-provider.global.ts')],
            include: [...engineTests, 'src/**/*.test.{ts,tsx}', 'scripts/**/*.test.ts', 'tests/unit/**/*.test.ts'],
            // Suites that need a Workers binding with no Node equivalent (R2) run only in workerd.
            exclude: ['**/*.workers.test.ts', '**/node_modules/**'],
            setupFiles: [here('tests/setup/console-guard.ts')],
            // Files share workers (each builds its own database through setupTestApp, stubs are undone
            // after each test): module imports, 85% of the run, happen once per worker, not per file.
            isolate: false,
            maxWorkers,
          },
        },
        workersProject,
        {
          extends: false,
          resolve: {
            alias: {
              '#test-engine': here('tests/setup/engine.turso.ts'),
              '#test-app': here('tests/setup/test-app.ts'),
            },
          },
          test: {
            // The API suite a third time, on libSQL's remote protocol: the app's database is the web
            // client over HTTP to a local server speaking it (tests/mocks/libsql-server.ts).
            name: 'turso',
            environment: 'node',
            globalSetup: [
              here('tests/setup/turnstile.global.ts'),
              here('tests/setup/mail-provider.global.ts'),
              here('tests/setup/turso-local.global.ts'),
            ],
            include: engineTests,
            exclude: ['**/*.workers.test.ts', '**/*.node.test.ts', '**/node_modules/**'],
            setupFiles: [here('tests/setup/console-guard.ts')],
            testTimeout: 20_000,
            // setupTestApp migrates a fresh database over HTTP: seconds on a busy machine.
            hookTimeout: 30_000,
            isolate: false,
            maxWorkers,
          },
        },
      ],
    },
  };
});
