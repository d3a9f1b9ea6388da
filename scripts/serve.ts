/**
 * Serves the built worker (dist/server) in workerd through wrangler's dev server, on a given local
 * D1 state. Shared by `npm start`, the browser tests' servers and `npm run bench` (which runs this
 * file as a command, one process per server).
 *
 * It uses wrangler's programmatic dev server rather than `wrangler dev` so that no debugger is
 * attached: the CLI always attaches one, and with it every console line (one per request)
 * travels the inspector protocol to wrangler and its debug log file, which cost cached pages a
 * fifth of their throughput (docs/decisions/015). A deployed worker has no debugger either;
 * `npm run dev` is the server to debug with.
 *
 * For the same reason it turns off wrangler's local observability (X_LOCAL_OBSERVABILITY): that
 * attaches a trace collector to the worker as a streaming tail, which writes every request's
 * trace and log lines to a SQLite store for the local explorer, on the same two cores (37 MB
 * after one bench run). It cost a quarter of the throughput of every request the worker runs
 * (/api/health 290 → 400 req/s, a cached API read 455 → 600, 20 connections). A deployed worker
 * sends its logs after the response. `X_LOCAL_OBSERVABILITY=true npm start` turns it back on.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { parseEnv } from 'node:util';
import { convertV4MiniflareOptions, Log, LogLevel, Miniflare } from 'miniflare';
import { unstable_getMiniflareWorkerOptions, unstable_startWorker } from 'wrangler';

export type ServeOptions = {
  port: number;
  persistTo: string;
  /** Loopback name to listen on: `localhost` (npm start, browser tests) or `127.0.0.1` (bench). */
  hostname?: string;
  /** The built worker's wrangler config (another build's, for the bench's before/after). */
  config?: string;
  /** Plain-text bindings added to (or overriding) the config's vars. */
  vars?: Record<string, string>;
  /** Exposes /cdn-cgi/handler/scheduled, which runs the Cron Trigger's handler on demand. */
  testScheduled?: boolean;
  logLevel?: 'debug' | 'info' | 'log' | 'warn' | 'error' | 'none';
};

/** Stops the server once on SIGINT, SIGTERM or SIGHUP, then exits. */
function disposeOnSignals(dispose: () => Promise<unknown>) {
  let stopping = false;
  const stop = async () => {
    if (stopping) return;
    stopping = true;
    await dispose().catch(() => undefined);
    process.exit(0);
  };
  for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) process.on(signal, stop);
}

export async function serveBuiltWorker(options: ServeOptions) {
  process.env.X_LOCAL_OBSERVABILITY ??= 'false';
  const vars: Record<string, string> = {
    // A local server is a development deployment: sign-in codes go to the outbox, payments run in
    // demo mode (unless .dev.vars configures real providers). Deployed workers default to production.
    APP_ENV: 'development',
    ...options.vars,
  };
  const worker = await unstable_startWorker({
    config: options.config ?? 'dist/server/wrangler.json',
    envFiles: existsSync('.dev.vars') ? ['.dev.vars'] : [],
    bindings: Object.fromEntries(Object.entries(vars).map(([name, value]) => [name, { type: 'plain_text', value }])),
    dev: {
      server: { hostname: options.hostname ?? 'localhost', port: options.port },
      // BENCH_INSPECTOR_PORT: the worker's DevTools inspector, to take a CPU profile of a bench run.
      inspector: process.env.BENCH_INSPECTOR_PORT ? { port: Number(process.env.BENCH_INSPECTOR_PORT) } : false,
      persist: resolve(options.persistTo),
      testScheduled: options.testScheduled ?? false,
      logLevel: options.logLevel ?? 'log',
      watch: false,
      liveReload: false,
    },
  });
  await worker.ready;
  disposeOnSignals(() => worker.dispose());
  return worker;
}

/**
 * The built worker in one workerd, listening on the port itself, for the bench to compare with.
 * wrangler's dev server (serveBuiltWorker) puts a proxy worker in a second workerd in front of the
 * app and relays every console line through its Node process; a deployment has neither. Same
 * worker, workerd, local D1 state and bindings (read from the build's wrangler.json by wrangler).
 */
export async function serveBuiltWorkerDirect(options: ServeOptions) {
  const config = options.config ?? 'dist/server/wrangler.json';
  const { workerOptions, main } = unstable_getMiniflareWorkerOptions(config);
  if (!main) throw new Error(`${config} names no main module`);
  // The build is not bundled (no_bundle): the worker is its entry and every module beside it.
  const root = dirname(main);
  const others = readdirSync(root, { recursive: true, encoding: 'utf8' })
    .map((file) => join(root, file))
    .filter((file) => file !== main && /\.m?js$/.test(file));
  // Rules and the root only say how to find modules, which the list above already does.
  const { modulesRules: _rules, rootPath: _root, ...bindingsAndAssets } = workerOptions;
  const devVars = existsSync('.dev.vars') ? parseEnv(readFileSync('.dev.vars', 'utf8')) : {};
  const levels = {
    debug: LogLevel.DEBUG,
    info: LogLevel.INFO,
    log: LogLevel.INFO,
    warn: LogLevel.WARN,
    error: LogLevel.ERROR,
    none: LogLevel.NONE,
  };
  const miniflare = new Miniflare({
    ...convertV4MiniflareOptions({
      host: options.hostname ?? 'localhost',
      port: options.port,
      log: new Log(levels[options.logLevel ?? 'log']),
      // No look-up of Cloudflare's request metadata: these machines cannot reach it.
      cf: false,
      inspectorPort: process.env.BENCH_INSPECTOR_PORT ? Number(process.env.BENCH_INSPECTOR_PORT) : undefined,
      unsafeTriggerHandlers: options.testScheduled ?? false,
      workers: [
        {
          ...bindingsAndAssets,
          name: 'uk-nfp-fundraising',
          modulesRoot: root,
          modules: [main, ...others].map((path) => ({ type: 'ESModule' as const, path })),
          bindings: {
            ...(workerOptions.bindings as Record<string, unknown> | undefined),
            ...devVars,
            APP_ENV: 'development',
            ...options.vars,
          },
        },
      ],
    }),
    // Where wrangler keeps the same state (its persist folder's v3), so both servers share it.
    resourcePersistencePath: resolve(options.persistTo, 'v3'),
  });
  const url = await miniflare.ready;
  disposeOnSignals(() => miniflare.dispose());
  return { url, miniflare };
}

/**
 * As a command (the bench): tsx scripts/serve.ts --config FILE --port N --persist-to DIR
 *   [--ip HOST] [--log-level LEVEL] [--var NAME:VALUE]... [--direct]
 * --direct serves it without wrangler's dev proxy (serveBuiltWorkerDirect).
 */
if (process.argv[1] && import.meta.url === pathToFileURL(resolve(process.argv[1])).href) {
  const argv = process.argv.slice(2);
  const value = (name: string) => {
    const i = argv.indexOf(name);
    return i >= 0 ? argv[i + 1] : undefined;
  };
  const vars: Record<string, string> = {};
  argv.forEach((arg, i) => {
    if (arg !== '--var') return;
    const [name, ...rest] = (argv[i + 1] ?? '').split(':');
    if (name) vars[name] = rest.join(':');
  });
  const port = Number(value('--port'));
  const persistTo = value('--persist-to');
  if (!Number.isInteger(port) || !persistTo) {
    console.error(
      'usage: tsx scripts/serve.ts --port N --persist-to DIR [--config FILE] [--ip HOST] [--log-level LEVEL] [--var NAME:VALUE]',
    );
    process.exit(2);
  }
  const serve = argv.includes('--direct') ? serveBuiltWorkerDirect : serveBuiltWorker;
  await serve({
    port,
    persistTo,
    vars,
    config: value('--config'),
    hostname: value('--ip'),
    logLevel: value('--log-level') as ServeOptions['logLevel'],
  });
}
