/**
 * What one call to the local D1 costs the worker's own thread: the CPU time of the workerd process
 * (one JavaScript thread, decision 041) per request with no database call, per single statement, and
 * per statement inside one `batch`. Local D1 is Miniflare's Durable Object in the same workerd, so
 * this is the part of a storm's delivery that a deployment does not pay on the visitor's isolate
 * (production D1 and Turso run on their own machines). No build needed.
 *
 *   tsx scripts/bench-d1-call.ts [--calls N]
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { convertV4MiniflareOptions, Miniflare } from 'miniflare';
import { loadNote, optionValue, treeCpuSeconds } from './bench-lib';

const calls = Number(optionValue(process.argv.slice(2), '--calls') ?? 100);
if (!Number.isInteger(calls) || calls < 10 || calls > 10_000)
  throw new Error('--calls must be a whole number from 10 to 10000');

/** The worker: each request makes `n` calls of one kind, so a request's own cost divides out. */
const script = `
export default {
  async fetch(request, env) {
    const url = new URL(request.url);
    const n = Number(url.searchParams.get('n'));
    const kind = url.searchParams.get('kind');
    const write = (i) => env.DB.prepare('INSERT OR REPLACE INTO t (id, v) VALUES (?, ?)').bind(i % 50, 'v' + i);
    if (kind === 'setup') await env.DB.exec('CREATE TABLE IF NOT EXISTS t (id INTEGER PRIMARY KEY, v TEXT)');
    else if (kind === 'read') for (let i = 0; i < n; i++) await env.DB.prepare('SELECT v FROM t WHERE id = ?').bind(i).all();
    else if (kind === 'write') for (let i = 0; i < n; i++) await write(i).run();
    else if (kind === 'batch') await env.DB.batch(Array.from({ length: n }, (_, i) => write(i)));
    return new Response('ok');
  },
};`;

const state = mkdtempSync(join(tmpdir(), 'bench-d1-call-'));
const miniflare = new Miniflare({
  ...convertV4MiniflareOptions({
    workers: [{ name: 'd1-call', modules: true, script, d1Databases: ['DB'], compatibilityDate: '2025-09-01' }],
  }),
  resourcePersistencePath: state,
});

/** The workerd this process started (Miniflare's): its user plus system CPU, in milliseconds. */
const workerdCpuMs = (pid: number) => (treeCpuSeconds(pid) ?? Number.NaN) * 1000;

try {
  await miniflare.ready;
  const pid = Number(
    execFileSync('pgrep', ['-P', String(process.pid), 'workerd'])
      .toString()
      .trim(),
  );
  const send = async (kind: string, n: number) =>
    (await miniflare.dispatchFetch(`http://d1/?kind=${kind}&n=${n}`)).text();
  await send('setup', 0);
  // /proc counts CPU in 10 ms ticks: enough requests of each kind that a tick is under 1% of them.
  const requests = 20;
  const emptyRequests = 1000;
  const perCall: Record<string, number> = {};
  for (const [kind, n] of [
    ['none', 1],
    ['read', calls],
    ['write', calls],
    ['batch', calls],
  ] as const) {
    await send(kind, n); // warm-up
    const times = kind === 'none' ? emptyRequests : requests;
    const before = workerdCpuMs(pid);
    for (let r = 0; r < times; r++) await send(kind, n);
    perCall[kind] = (workerdCpuMs(pid) - before) / times / n;
  }
  const request = perCall.none;
  console.log(`local D1, workerd's CPU (${requests} requests of ${calls} calls of each kind, ${loadNote()}):`);
  console.log(`  a request with no database call      ${request.toFixed(2)} ms`);
  console.log(`  one statement, its own call (read)   ${(perCall.read - request / calls).toFixed(2)} ms`);
  console.log(`  one statement, its own call (write)  ${(perCall.write - request / calls).toFixed(2)} ms`);
  console.log(`  one statement inside a batch         ${(perCall.batch - request / calls).toFixed(3)} ms`);
} finally {
  await miniflare.dispose();
  rmSync(state, { recursive: true, force: true });
}
