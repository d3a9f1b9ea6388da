/**
 * Rows read per statement of each public page and API read, on a seeded local D1 state, without a
 * build: the bench's rows section (scripts/bench-rows.ts) gives each request's sum; this names the
 * statement behind it and prints SQLite's plan, to find what scans.
 *
 *   tsx scripts/bench-queries.ts [--persist-to .wrangler/bench-state-x100] [--plans]
 *
 * Each statement runs on the real D1 simulator (wrangler's platform proxy over the state's files);
 * its `meta.rows_read` is what D1 bills. Read-only: the probed routes are GETs.
 */
import { drizzle } from 'drizzle-orm/d1';
import { getPlatformProxy } from 'wrangler';
import { createApp } from '../api';
import type { Bindings } from '../api/lib/types';
import type { Db } from '../db/client';
import * as schema from '../db/schema';
import { loadDetail } from '../src/lib/server/detail';
import { LIST_PAGE_SIZE, loadDiscover } from '../src/lib/server/discover';

const argv = process.argv.slice(2);
const persistIndex = argv.indexOf('--persist-to');
const persistTo = persistIndex >= 0 ? argv[persistIndex + 1] : '.wrangler/bench-state-x100';
const showPlans = argv.includes('--plans');

type Seen = { sql: string; rowsRead: number };
let seen: Seen[] = [];

type Meta = { rows_read?: number };
type RealStatement = D1PreparedStatement;

/** A D1 binding that notes every statement's rows read (raw() gives no meta: it is asked again with all()). */
function recording(real: D1Database): D1Database {
  const wrap = (sql: string, stmt: RealStatement): D1PreparedStatement => {
    const note = (meta: Meta | undefined) => seen.push({ sql, rowsRead: meta?.rows_read ?? Number.NaN });
    const self = {
      real: stmt,
      bind: (...values: unknown[]) => wrap(sql, stmt.bind(...values)),
      async all() {
        const result = await stmt.all();
        note(result.meta as Meta);
        return result;
      },
      async run() {
        const result = await stmt.run();
        note(result.meta as Meta);
        return result;
      },
      async first(column?: string) {
        note((await stmt.all()).meta as Meta);
        return column ? stmt.first(column) : stmt.first();
      },
      async raw(options?: { columnNames?: boolean }) {
        note((await stmt.all()).meta as Meta);
        return options?.columnNames ? stmt.raw({ columnNames: true }) : stmt.raw();
      },
    };
    return self as unknown as D1PreparedStatement;
  };
  return {
    prepare: (sql: string) => wrap(sql, real.prepare(sql)),
    async batch(statements: D1PreparedStatement[]) {
      const results = await real.batch(statements.map((s) => (s as unknown as { real: RealStatement }).real));
      results.forEach((result, i) =>
        seen.push({
          sql: (statements[i] as unknown as { sqlText?: string }).sqlText ?? sqlOf(statements[i]),
          rowsRead: (result.meta as Meta).rows_read ?? Number.NaN,
        }),
      );
      return results;
    },
    exec: (sql: string) => real.exec(sql),
    dump: () => real.dump(),
    withSession: () => {
      throw new Error('not probed');
    },
  } as unknown as D1Database;
}

const sqlByStatement = new WeakMap<object, string>();
const sqlOf = (s: object) => sqlByStatement.get(s) ?? '?';

async function main() {
  const { env, dispose } = await getPlatformProxy<{ DB: D1Database }>({
    configPath: 'wrangler.toml',
    persist: { path: `${persistTo}/v3` },
  });
  try {
    const binding = recording(env.DB);
    // Batches lose the statement's SQL: remember it on bind.
    const prepare = binding.prepare.bind(binding);
    binding.prepare = (sql: string) => {
      const stmt = prepare(sql) as unknown as { bind: (...v: unknown[]) => object };
      const bind = stmt.bind;
      stmt.bind = (...v: unknown[]) => {
        const bound = bind(...v) as object;
        sqlByStatement.set(bound, sql);
        return bound;
      };
      sqlByStatement.set(stmt, sql);
      return stmt as unknown as D1PreparedStatement;
    };
    const db = drizzle(binding, { schema }) as unknown as Db;
    const app = createApp({ db });
    const bindings = { APP_ENV: 'production', DB: binding } as unknown as Bindings;
    const api = async (path: string) => {
      const res = await app.request(path, { headers: { 'cache-control': 'no-cache' } }, bindings);
      return res.json() as Promise<unknown>;
    };
    // The seed's popular appeal (the oldest of the demo's own) and its campaign, as the bench picks them.
    const appeals = (await api('/api/appeals?limit=100')) as
      | { data?: { _id: string; campaign_id: string; title: string }[] }
      | { _id: string; campaign_id: string; title: string }[];
    const list = Array.isArray(appeals) ? appeals : (appeals.data ?? []);
    const appeal = list.filter((a) => !/\(\d+\)$/.test(a.title)).at(-1);
    if (!appeal) throw new Error('no appeal: is the state seeded?');
    const campaignId = appeal.campaign_id;

    const probes: [string, () => Promise<unknown>][] = [
      ['campaigns list page', () => loadDiscover(db, 'campaign', 1)],
      ['appeals list page', () => loadDiscover(db, 'appeal', 1)],
      ['campaign page', () => loadDetail(db, 'campaign', campaignId)],
      ['appeal page', () => loadDetail(db, 'appeal', appeal._id)],
      ['GET /api/campaigns', () => api('/api/campaigns')],
      ['GET /api/appeals', () => api('/api/appeals')],
      ['GET /api/campaigns/{id}', () => api(`/api/campaigns/${campaignId}`)],
      ['GET /api/appeals/{id}', () => api(`/api/appeals/${appeal._id}`)],
      ['GET /api/donations?type=public', () => api(`/api/donations?type=public&campaign_id=${campaignId}`)],
      ['GET /api/appeals/{id}/messages', () => api(`/api/appeals/${appeal._id}/messages`)],
    ];
    console.log(`state ${persistTo}; list page size ${LIST_PAGE_SIZE}`);
    for (const [name, probe] of probes) {
      await probe();
      seen = [];
      await probe();
      const total = seen.reduce((n, s) => n + s.rowsRead, 0);
      console.log(`\n== ${name}: ${total} rows read in ${seen.length} statements`);
      for (const s of seen) {
        console.log(`  ${String(s.rowsRead).padStart(6)}  ${s.sql.replace(/\s+/g, ' ').slice(0, 220)}`);
        if (showPlans && s.rowsRead > 12) {
          if (argv.includes('--sql')) console.log(`            sql: ${s.sql}`);
          const params = (s.sql.match(/\?/g) ?? []).map(() => null);
          const plan = await env.DB.prepare(`explain query plan ${s.sql}`)
            .bind(...params)
            .all()
            .catch((err: Error) => ({ results: [{ detail: `(no plan: ${err.message})` }] }));
          for (const step of (plan?.results ?? []) as { detail: string }[])
            console.log(`            plan: ${step.detail}`);
        }
      }
    }
  } finally {
    await dispose();
  }
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
