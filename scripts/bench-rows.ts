/**
 * The bench's rows-read section: what each public page and API read costs the database (rows read
 * and written, as D1 and Turso bill them), at 1x and the scaled data, and what a month of 1M page
 * views and 10k gifts would cost at Workers', D1's and Turso's published prices.
 *
 * The figures come from the per-request log line (api/middlewares/logger.ts: D1's `meta` for every
 * statement), so each measured server runs with its console piped here, one request at a time.
 * Pages are asked with a query the edge cache does not key on and the API past its cache
 * (`cache-control: no-cache`): a render's cost, what one visitor per location and 30 s pays.
 */
import type { ChildProcess } from 'node:child_process';
import { loadNote, local, serveWorker, stopChild, waitForServer } from './bench-lib';

/** `listed`: how many items a list showed (its target's `listedBy`), to compare like with like. */
export type RowsFigure = {
  name: string;
  path: string;
  rowsRead: number | null;
  rowsWritten: number | null;
  listed?: number | null;
};
export type RowsRun = {
  scale: number;
  routes: RowsFigure[];
  gift: { rowsRead: number | null; rowsWritten: number | null } | null;
};

/** Prices as published on the pages below (looked up 2026-11-24). */
export const PRICES = {
  workers: {
    source: 'https://developers.cloudflare.com/workers/platform/pricing/ (Standard usage model; read 2026-11-24)',
    subscription: 5,
    requestsIncluded: 10e6,
    perMillionRequests: 0.3,
    cpuMsIncluded: 30e6,
    perMillionCpuMs: 0.02,
  },
  d1: {
    source: 'https://developers.cloudflare.com/d1/platform/pricing/ (Workers Paid; read 2026-11-24)',
    readsIncluded: 25e9,
    perMillionReads: 0.001,
    writesIncluded: 50e6,
    perMillionWrites: 1,
  },
  turso: {
    source:
      'https://turso.tech/pricing (Developer plan, as recorded 2026-06-12 by api-evangelist/turso plans/turso-plans-pricing.yml; overage at the published $1 per billion rows read and $1 per million rows written; read 2026-11-24)',
    subscription: 4.99,
    readsIncluded: 2.5e9,
    perBillionReads: 1,
    writesIncluded: 25e6,
    perMillionWrites: 1,
  },
} as const;

/** Assumed CPU per worker request (not measurable here: workerd on a shared 2-core machine). */
const CPU_MS_PER_REQUEST = 5;
const PAGE_VIEWS = 1_000_000;
const GIFTS = 10_000;

type Logged = { msg?: string; rows_read?: number | null; rows_written?: number | null; route?: string };

/** The built worker on a seeded state, its console lines collected. */
function serveLogging(persistTo: string, port: number, dist: string): { child: ChildProcess; lines: Logged[] } {
  // Development: demo payments, so a gift can be measured end to end without Stripe.
  const child = serveWorker({
    dist,
    port,
    persistTo,
    logLevel: 'log',
    pipeStdout: true,
    vars: { APP_ENV: 'development', PUBLIC_ORIGIN: local(port) },
  });
  const lines: Logged[] = [];
  let buffer = '';
  child.stdout?.on('data', (chunk: Buffer) => {
    buffer += chunk.toString('utf8');
    const parts = buffer.split('\n');
    buffer = parts.pop() ?? '';
    for (const part of parts) {
      const start = part.indexOf('{"level"');
      if (start < 0) continue;
      try {
        lines.push(JSON.parse(part.slice(start)) as Logged);
      } catch {
        // a console line that is not ours
      }
    }
  });
  return { child, lines };
}

/** Waits until no log line has arrived for 150 ms (at most 3 s). */
async function quietLog(lines: Logged[]) {
  const until = Date.now() + 3000;
  let seen = -1;
  while (seen !== lines.length && Date.now() < until) {
    seen = lines.length;
    await new Promise((r) => setTimeout(r, 150));
  }
}

/** Rows of the request lines written while `work` ran (the server sees nothing else meanwhile). */
async function rowsOf(
  lines: Logged[],
  work: () => Promise<unknown>,
): Promise<{ rowsRead: number | null; rowsWritten: number | null }> {
  const before = lines.length;
  await work();
  // The line is written after the response: wait for it.
  const until = Date.now() + 3000;
  while (lines.length === before && Date.now() < until) await new Promise((r) => setTimeout(r, 20));
  await new Promise((r) => setTimeout(r, 50));
  const mine = lines.slice(before).filter((line) => line.msg === 'request');
  const sum = (key: 'rows_read' | 'rows_written') =>
    mine.some((line) => typeof line[key] === 'number')
      ? mine.reduce((total, line) => total + (line[key] ?? 0), 0)
      : null;
  return { rowsRead: sum('rows_read'), rowsWritten: sum('rows_written') };
}

/**
 * `listedBy`: a public API path answering the items the page or read lists (a JSON array), counted
 * at each scale: a list that shows fewer items at 1x than at the scaled data is not compared by its
 * ratio (that would measure the page filling up, not the data's size).
 */
export type RowsTarget = { name: string; path: string; headers?: Record<string, string>; listedBy?: string };

/** How many items a JSON array answer holds (null when it is not one). */
async function countListed(url: string): Promise<number | null> {
  const res = await fetch(url, { headers: { 'cache-control': 'no-cache' } });
  const body = (await res.json().catch(() => null)) as unknown;
  return Array.isArray(body) ? body.length : null;
}

/**
 * Measures rows per route on each seeded state (its own server on port + i), sequentially, plus one
 * demo gift (start and confirm) on each.
 */
export async function measureRows(
  states: { scale: number; persist: string }[],
  port: number,
  dist: string,
  pick: (base: string) => Promise<{ targets: RowsTarget[]; gift: { campaignId: string; appealId: string } }>,
): Promise<RowsRun[]> {
  const servers = states.map((state, i) => ({
    ...state,
    port: port + i,
    ...serveLogging(state.persist, port + i, dist),
  }));
  try {
    await Promise.all(servers.map((s) => waitForServer(local(s.port))));
    const runs: RowsRun[] = [];
    const { targets, gift } = await pick(local(servers[0].port));
    for (const server of servers) {
      const base = local(server.port);
      const routes: RowsFigure[] = [];
      for (const target of targets) {
        const listed = target.listedBy ? await countListed(base + target.listedBy) : undefined;
        // A first request compiles and fills in-memory caches: measure the second, as a steady render.
        await (await fetch(base + target.path, { headers: target.headers })).arrayBuffer();
        // The lines of the requests above are written after their answers: none may land in the measured one's.
        await quietLog(server.lines);
        const rows = await rowsOf(server.lines, async () =>
          (await fetch(base + target.path, { headers: target.headers })).arrayBuffer(),
        );
        routes.push({ name: target.name, path: target.path, ...rows, listed });
        console.log(
          `[bench] rows x${server.scale} ${target.name}: read ${rows.rowsRead ?? '?'}, written ${rows.rowsWritten ?? '?'}${listed === undefined ? '' : `, ${listed ?? '?'} listed`} (${loadNote()})`,
        );
      }
      let giftRows: RowsRun['gift'] = null;
      const email = `bench-rows-${server.scale}@example.org`;
      let clientSecret = '';
      const started = await rowsOf(server.lines, async () => {
        const res = await fetch(`${base}/api/stripe/client_secret`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ email, amount: 2500, campaign_id: gift.campaignId, appeal_id: gift.appealId }),
        });
        clientSecret = ((await res.json()) as { clientSecret?: string }).clientSecret ?? '';
      });
      const confirmed = clientSecret
        ? await rowsOf(server.lines, async () =>
            (
              await fetch(`${base}/api/stripe/demo/confirm`, {
                method: 'POST',
                headers: { 'content-type': 'application/json' },
                body: JSON.stringify({ clientSecret }),
              })
            ).arrayBuffer(),
          )
        : null;
      if (confirmed && started.rowsRead !== null && confirmed.rowsRead !== null) {
        giftRows = {
          rowsRead: started.rowsRead + confirmed.rowsRead,
          rowsWritten: (started.rowsWritten ?? 0) + (confirmed.rowsWritten ?? 0),
        };
      }
      console.log(
        `[bench] rows x${server.scale} a demo gift (start + confirm): ${giftRows ? `read ${giftRows.rowsRead}, written ${giftRows.rowsWritten}` : 'not measured'}`,
      );
      runs.push({ scale: server.scale, routes, gift: giftRows });
    }
    return runs;
  } finally {
    await Promise.all(servers.map((s) => stopChild(s.child)));
  }
}

const money = (n: number) => `$${n.toFixed(2)}`;

/** Monthly cost of the traffic at each price list: Workers requests and CPU, then D1 or Turso rows. */
export function monthlyCost(
  pageRowsRead: number,
  pageRowsWritten: number,
  gift: { rowsRead: number; rowsWritten: number },
) {
  const requests = PAGE_VIEWS + GIFTS * 2;
  const reads = PAGE_VIEWS * pageRowsRead + GIFTS * gift.rowsRead;
  const writes = PAGE_VIEWS * pageRowsWritten + GIFTS * gift.rowsWritten;
  const w = PRICES.workers;
  const workers =
    w.subscription +
    (Math.max(0, requests - w.requestsIncluded) / 1e6) * w.perMillionRequests +
    (Math.max(0, requests * CPU_MS_PER_REQUEST - w.cpuMsIncluded) / 1e6) * w.perMillionCpuMs;
  const d1 =
    (Math.max(0, reads - PRICES.d1.readsIncluded) / 1e6) * PRICES.d1.perMillionReads +
    (Math.max(0, writes - PRICES.d1.writesIncluded) / 1e6) * PRICES.d1.perMillionWrites;
  const t = PRICES.turso;
  const turso =
    t.subscription +
    (Math.max(0, reads - t.readsIncluded) / 1e9) * t.perBillionReads +
    (Math.max(0, writes - t.writesIncluded) / 1e6) * t.perMillionWrites;
  return { requests, reads, writes, workers, d1, turso };
}

export type RowsTargetResult = { target: string; figure: string; pass: boolean };

const per = (f: RowsFigure) => (f.rowsRead !== null && f.listed ? (f.rowsRead / f.listed).toFixed(1) : '?');

/** Prints rows per route at each scale, the targets (<= 100 rows read at the scaled data, scaled/1x <= 1.2) and the month's cost. */
export function reportRows(runs: RowsRun[]): RowsTargetResult[] {
  const unscaled = runs.find((r) => r.scale === 1);
  const scaled = runs.find((r) => r.scale !== 1) ?? null;
  if (!unscaled) return [];
  console.log(
    `\nRows read and written per request (D1 meta, one render past the cache; a cached answer reads none; rows do not depend on the ${loadNote()})`,
  );
  const rows: (string | number)[][] = [
    [
      'route',
      'read x1',
      'written x1',
      ...(scaled ? [`read x${scaled.scale}`, `x${scaled.scale}/x1`, 'verdict (<= 100 rows, ratio <= 1.2)'] : []),
    ],
  ];
  const targets: RowsTargetResult[] = [];
  const notes: string[] = [];
  for (const r of unscaled.routes) {
    const s = scaled?.routes.find((x) => x.name === r.name);
    // A list that shows fewer items at 1x than at the scaled data reads fewer rows for that alone.
    const unlike = s && r.listed != null && s.listed != null && r.listed !== s.listed;
    const ratio = s && r.rowsRead ? Number(((s.rowsRead ?? 0) / r.rowsRead).toFixed(2)) : null;
    const withinRows = s?.rowsRead !== null && s?.rowsRead !== undefined && s.rowsRead <= 100;
    const withinRatio = ratio !== null && ratio <= 1.2;
    const verdict = unlike
      ? `${withinRows ? 'PASS' : 'FAIL'} (rows; ratio not judged: ${r.listed} vs ${s.listed} listed)`
      : withinRows && withinRatio
        ? 'PASS'
        : `FAIL${withinRows ? '' : ' (rows)'}${withinRatio ? '' : ' (ratio)'}`;
    if (unlike && s)
      notes.push(
        `${r.name}: lists ${r.listed} at x1 and ${s.listed} at x${scaled?.scale} (${per(r)} and ${per(s)} rows read per item listed); its ratio is judged on a read of the same size`,
      );
    rows.push([
      r.name,
      r.rowsRead ?? '?',
      r.rowsWritten ?? '?',
      ...(scaled ? [s?.rowsRead ?? '?', ratio ?? '?', verdict] : []),
    ]);
    if (s) {
      targets.push({
        target: `${r.name}: <= 100 rows read at x${scaled?.scale}`,
        figure: String(s.rowsRead ?? '?'),
        pass: s.rowsRead !== null && s.rowsRead <= 100,
      });
      if (!unlike)
        targets.push({
          target: `${r.name}: rows read x${scaled?.scale}/x1 <= 1.2${r.listed != null ? ` (${r.listed} listed at both)` : ''}`,
          figure: String(ratio ?? '?'),
          pass: ratio !== null && ratio <= 1.2,
        });
    }
  }
  const gift = (scaled ?? unscaled).gift;
  rows.push([
    'a gift (start + confirm)',
    unscaled.gift?.rowsRead ?? '?',
    unscaled.gift?.rowsWritten ?? '?',
    ...(scaled ? [scaled.gift?.rowsRead ?? '?', '', ''] : []),
  ]);
  const width = rows[0].map((_, i) => Math.max(...rows.map((row) => String(row[i] ?? '').length)));
  for (const row of rows) console.log(row.map((cell, i) => String(cell).padEnd(width[i])).join('  '));
  for (const note of notes) console.log(`  ${note}`);

  const pages = (scaled ?? unscaled).routes.filter((r) => !r.name.startsWith('GET /api'));
  if (pages.length && gift && gift.rowsRead !== null && gift.rowsWritten !== null) {
    const avg = (key: 'rowsRead' | 'rowsWritten') =>
      pages.reduce((total, r) => total + (r[key] ?? 0), 0) / pages.length;
    const cost = monthlyCost(avg('rowsRead'), avg('rowsWritten'), {
      rowsRead: gift.rowsRead,
      rowsWritten: gift.rowsWritten,
    });
    console.log(
      `\nA month of ${PAGE_VIEWS.toLocaleString('en-GB')} page views (each a render past the cache, the pages above alike) and ${GIFTS.toLocaleString('en-GB')} gifts, at x${(scaled ?? unscaled).scale} data:`,
    );
    console.log(
      `  ${cost.requests.toLocaleString('en-GB')} worker requests (${CPU_MS_PER_REQUEST} ms CPU each, assumed), ${Math.round(cost.reads).toLocaleString('en-GB')} rows read, ${Math.round(cost.writes).toLocaleString('en-GB')} rows written`,
    );
    console.log(`  Workers ${money(cost.workers)} + D1 ${money(cost.d1)} = ${money(cost.workers + cost.d1)} a month`);
    console.log(
      `  Workers ${money(cost.workers)} + Turso Developer ${money(cost.turso)} = ${money(cost.workers + cost.turso)} a month`,
    );
    console.log(`  Prices: ${PRICES.workers.source}; ${PRICES.d1.source}; ${PRICES.turso.source}`);
  }
  return targets;
}
