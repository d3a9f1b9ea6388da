/**
 * `npm run db:turso-local`: a local server speaking libSQL's remote protocol (Hrana over HTTP, what
 * Turso's sqld serves) over a libSQL database file, for running the app as it runs on Turso:
 *   npm run db:turso-local                       # http://127.0.0.1:8080, .turso-local/app.db
 *   TURSO_DATABASE_URL=http://127.0.0.1:8080 npm run db:migrate
 *   TURSO_DATABASE_URL=http://127.0.0.1:8080 npm start
 * Options: --port N, --host 127.0.0.1, --db FILE, --log-statements, --statement-timeout-ms N (a
 * statement running longer is interrupted; default 10000), --busy-timeout-ms N (how long a write
 * waits for the write lock; default 5000), --max-streams N (streams open at once; default 128).
 * Stops on Ctrl-C.
 */
import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import { startLibsqlServer } from '../tests/mocks/libsql-server';

const argv = process.argv.slice(2);
const option = (name: string) => {
  const i = argv.indexOf(name);
  return i >= 0 ? argv[i + 1] : undefined;
};
const port = Number(option('--port') ?? 8080);
const host = option('--host') ?? '127.0.0.1';
const dbPath = option('--db') ?? '.turso-local/app.db';
// The test suite's: also a database per name under /db/<name>/ (tests/setup/turso-local.global.ts).
const databasesDir = option('--databases-dir');
const limit = (name: string) => (option(name) === undefined ? undefined : Number(option(name)));
const statementTimeoutMs = limit('--statement-timeout-ms');
const busyTimeoutMs = limit('--busy-timeout-ms');
const maxStreams = limit('--max-streams');
const known = [
  '--port',
  '--host',
  '--db',
  '--databases-dir',
  '--statement-timeout-ms',
  '--busy-timeout-ms',
  '--max-streams',
];
// Prints each statement with its rows and SQLite's full-scan steps: for finding a query that scans.
const logStatements = argv.includes('--log-statements');
const unknown = argv.filter(
  (arg, i) =>
    arg.startsWith('--') && arg !== '--log-statements' && !known.includes(arg) && !known.includes(argv[i - 1] ?? ''),
);

const badLimit = [statementTimeoutMs, busyTimeoutMs, maxStreams].some(
  (value) => value !== undefined && !(Number.isInteger(value) && value >= 0),
);
if (!Number.isInteger(port) || port < 0 || port > 65535 || badLimit || maxStreams === 0 || unknown.length) {
  console.error(
    `usage: turso-local.ts [--port N] [--host 127.0.0.1] [--db FILE] [--databases-dir DIR] [--log-statements] [--statement-timeout-ms N] [--busy-timeout-ms N] [--max-streams N]${unknown.length ? ` (unknown: ${unknown.join(' ')})` : ''}`,
  );
  process.exit(2);
}
if (!['127.0.0.1', 'localhost', '::1'].includes(host)) {
  console.error(`--host ${host}: this server has no authentication; it listens on loopback only.`);
  process.exit(2);
}

mkdirSync(dirname(dbPath), { recursive: true });
const onStatement: Parameters<typeof startLibsqlServer>[0]['onStatement'] = logStatements
  ? ({ sql, rows, fullScanSteps, ms }) =>
      console.log(
        `[turso-local] ${rows} rows, ${fullScanSteps} full-scan steps, ${ms.toFixed(1)} ms: ${sql.replace(/\s+/g, ' ').slice(0, 400)}`,
      )
  : undefined;
const server = await startLibsqlServer({
  dbPath,
  port,
  host,
  databasesDir,
  onStatement,
  statementTimeoutMs,
  busyTimeoutMs,
  maxStreams,
}).catch((error: NodeJS.ErrnoException) => {
  console.error(error.code === 'EADDRINUSE' ? `Port ${port} is in use: pass --port N.` : error);
  process.exit(1);
});
console.log(`[turso-local] Hrana over HTTP at ${server.url} on ${dbPath}`);
console.log(
  `[turso-local] TURSO_DATABASE_URL=${server.url} npm run db:migrate && TURSO_DATABASE_URL=${server.url} npm start`,
);
const stop = async () => {
  await server.close();
  process.exit(0);
};
for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) process.on(signal, stop);
