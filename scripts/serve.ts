/**
 * Serves the built worker (dist/server) in workerd through wrangler, on a given local D1 state.
 * Shared by `npm start` and the browser tests' server.
 */
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';

export function serveBuiltWorker(
  port: string,
  persistTo: string,
  extraEnv: Record<string, string> = {},
  options: { testScheduled?: boolean } = {},
) {
  const args = ['dev', '--config', 'dist/server/wrangler.json', '--port', port, '--ip', 'localhost', '--persist-to', persistTo, '--show-interactive-dev-session=false'];
  // Exposes /cdn-cgi/handler/scheduled, which runs the Cron Trigger's handler (housekeeping) on demand.
  if (options.testScheduled) args.push('--test-scheduled');
  if (existsSync('.dev.vars')) args.push('--env-file', '.dev.vars');
  // A local server is a development deployment: sign-in codes go to the outbox, payments run in demo mode
  // (unless .dev.vars configures real providers). Deployed workers default to production.
  args.push('--var', 'APP_ENV:development');
  for (const [key, value] of Object.entries(extraEnv)) args.push('--var', `${key}:${value}`);
  const server = spawn('wrangler', args, { stdio: 'inherit', env: { ...process.env } });
  for (const signal of ['SIGINT', 'SIGTERM'] as const) process.on(signal, () => server.kill(signal));
  server.on('exit', (code) => process.exit(code ?? 0));
  return server;
}
