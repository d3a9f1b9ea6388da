/**
 * `npm run bench`: serves the built worker on a fresh seeded database and prints, for the home
 * page, the campaigns list and one appeal page: HTML bytes, JavaScript bytes (gzip) the page loads
 * and the median server time. Builds first when dist/ is missing.
 *   BENCH_PORT (default 4398), BENCH_RUNS (default 20)
 */
import { spawnSync } from 'node:child_process';
import { existsSync, rmSync } from 'node:fs';
import { gzipSync } from 'node:zlib';
import { serveBuiltWorker } from './serve';

const port = process.env.BENCH_PORT ?? '4398';
const runs = Number(process.env.BENCH_RUNS ?? 20);
const base = `http://localhost:${port}`;
const persistDir = '.wrangler/bench-state';
const JS_BUDGET = 100 * 1024;
/** Islands the list page may load (spec: the header login island and the share control). */
const LIST_PAGE_ISLANDS = ['HeaderAuth', 'ShareControl'];

function run(command: string, args: string[]) {
  const result = spawnSync(command, args, { stdio: ['ignore', 'ignore', 'inherit'] });
  if (result.status !== 0) throw new Error(`${command} ${args.join(' ')} failed`);
}

async function waitForServer() {
  const deadline = Date.now() + 120_000;
  while (Date.now() < deadline) {
    try {
      if ((await fetch(`${base}/api/health`)).ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 300));
  }
  throw new Error(`the worker did not start on ${base}`);
}

/** Module scripts a page loads: <script type=module src>, inline modules, island components and renderers. */
function entryScripts(html: string): { urls: string[]; inline: string[]; islands: string[] } {
  const urls = new Set<string>();
  const inline: string[] = [];
  const islands: string[] = [];
  for (const m of html.matchAll(/<script\b([^>]*)>([\s\S]*?)<\/script>/g)) {
    const attrs = m[1];
    if (/type="application\/ld\+json"/.test(attrs)) continue;
    const src = attrs.match(/\bsrc="([^"]+)"/)?.[1];
    if (src) urls.add(src);
    else if (m[2].trim()) inline.push(m[2]);
  }
  for (const m of html.matchAll(/<astro-island\b[^>]*>/g)) {
    const component = m[0].match(/component-url="([^"]+)"/)?.[1];
    const renderer = m[0].match(/renderer-url="([^"]+)"/)?.[1];
    if (component) {
      urls.add(component);
      islands.push(m[0].match(/component-export="[^"]*"/) ? (component.split('/').pop() ?? component) : component);
    }
    if (renderer) urls.add(renderer);
  }
  return { urls: [...urls], inline, islands: islands.map((u) => u.replace(/\.[\w-]+\.js$/, '').replace(/\.js$/, '')) };
}

/**
 * Fetches every script and what it imports, once each. Static imports count as loaded with the
 * page; chunks reached only through import() load on interaction and are reported apart.
 */
async function javascriptBytes(html: string) {
  const { urls, inline, islands } = entryScripts(html);
  const seen = new Map<string, boolean>();
  const queue = urls.map((u) => ({ url: new URL(u, base).toString(), lazy: false }));
  let gzip = 0;
  let lazyGzip = 0;
  for (const code of inline) gzip += gzipSync(code).length;
  while (queue.length) {
    const { url, lazy } = queue.shift()!;
    if (!url.startsWith(base)) continue;
    if (seen.has(url) && (lazy || seen.get(url) === false)) continue;
    const wasLazy = seen.get(url);
    seen.set(url, lazy);
    const res = await fetch(url);
    if (!res.ok) throw new Error(`${url}: HTTP ${res.status}`);
    const code = await res.text();
    const size = gzipSync(code).length;
    if (wasLazy) lazyGzip -= size; // first reached lazily, now also statically
    if (lazy) lazyGzip += size;
    else gzip += size;
    for (const m of code.matchAll(/\b(?:import|export)\s*(?:[\w*{}\s,$]+from\s*)?["']([^"']+\.js)["']/g)) {
      queue.push({ url: new URL(m[1], url).toString(), lazy });
    }
    for (const m of code.matchAll(/\bimport\s*\(\s*["']([^"']+\.js)["']\s*\)/g)) {
      queue.push({ url: new URL(m[1], url).toString(), lazy: true });
    }
  }
  return { gzip, lazyGzip, files: seen.size + inline.length, islands: [...new Set(islands)] };
}

async function serverTime(path: string): Promise<number> {
  const times: number[] = [];
  for (let i = 0; i < runs; i++) {
    const started = performance.now();
    const res = await fetch(base + path);
    await res.arrayBuffer();
    times.push(performance.now() - started);
  }
  times.sort((a, b) => a - b);
  return times[Math.floor(times.length / 2)];
}

const kb = (n: number) => `${(n / 1024).toFixed(1)} KB`;

async function main() {
  if (!existsSync('dist/server/wrangler.json')) {
    console.log('[bench] dist/ missing: building');
    run('astro', ['build']);
  }
  rmSync(persistDir, { recursive: true, force: true });
  run('tsx', ['scripts/db-local.ts', 'seed', '--persist-to', persistDir]);
  const server = serveBuiltWorker(port, persistDir);
  let failed = false;
  try {
    await waitForServer();
    const [appeal] = (await (await fetch(`${base}/api/appeals?limit=1`)).json()) as { short_id: string }[];
    const pages = [
      { name: 'home', path: '/' },
      { name: 'campaigns list', path: '/campaigns' },
      { name: 'appeal page', path: `/appeals/${appeal.short_id}` },
    ];
    const rows = [];
    for (const page of pages) {
      const res = await fetch(base + page.path);
      if (!res.ok) throw new Error(`${page.path}: HTTP ${res.status}`);
      const html = await res.text();
      const js = await javascriptBytes(html);
      const time = await serverTime(page.path);
      rows.push({ ...page, html: Buffer.byteLength(html), htmlGzip: gzipSync(html).length, js, time });
    }

    console.log(`\nPublic pages (${runs} requests each, median server time)\n`);
    console.log(['page', 'HTML', 'HTML gzip', 'JS gzip', 'JS on demand', 'JS files', 'server ms', 'islands'].join('\t'));
    for (const r of rows) {
      console.log([r.name, kb(r.html), kb(r.htmlGzip), kb(r.js.gzip), kb(r.js.lazyGzip), r.js.files, r.time.toFixed(1), r.js.islands.join(', ') || '-'].join('\t'));
    }

    console.log('\nTargets');
    const list = rows.find((r) => r.path === '/campaigns')!;
    const extra = list.js.islands.filter((name) => !LIST_PAGE_ISLANDS.some((allowed) => name.includes(allowed)));
    const listOk = extra.length === 0;
    console.log(`${listOk ? 'PASS' : 'FAIL'}  list page loads no JavaScript beyond ${LIST_PAGE_ISLANDS.join(' and ')}${listOk ? '' : ` (also: ${extra.join(', ')})`}`);
    for (const r of rows) {
      const ok = r.js.gzip < JS_BUDGET;
      console.log(`${ok ? 'PASS' : 'FAIL'}  ${r.name}: ${kb(r.js.gzip)} gzip JavaScript (< ${kb(JS_BUDGET)})`);
      failed ||= !ok;
    }
    failed ||= !listOk;
  } finally {
    server.removeAllListeners('exit');
    server.kill('SIGTERM');
  }
  process.exit(failed ? 1 : 0);
}

main().catch((err) => {
  console.error('[bench]', err instanceof Error ? err.message : err);
  process.exit(1);
});
