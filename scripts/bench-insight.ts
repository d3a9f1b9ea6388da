/**
 * The admin insight figures: the overview aggregates, a filtered admin list and a full CSV export on the
 * demo data seeded at `--scale 100` (~30,000 donations), on libSQL in memory, through the real app.
 * Usage: bash scripts/with-node.sh tsx scripts/bench-insight.ts [scale]
 */
import { createClient } from '@libsql/client';
import { sql } from 'drizzle-orm';
import { drizzle } from 'drizzle-orm/libsql';
import { migrate } from 'drizzle-orm/libsql/migrator';
import { createApp } from '../api';
import type { Bindings } from '../api/lib/types';
import type { Db } from '../db/client';
import * as schema from '../db/schema';
import { seed } from '../db/seed';
import { createSession } from '../tests/factories';

const scale = Number(process.argv[2] ?? 100);
import { existsSync, mkdirSync } from 'node:fs';
// Seeding 30,000 gifts takes a while: the seeded file is kept in .cache and reused (delete it to reseed).
mkdirSync('.cache', { recursive: true });
const file = `.cache/bench-insight-${scale}.db`;
const fresh = !existsSync(file);
const client = createClient({ url: `file:${file}` });
const db = drizzle(client, { schema }) as unknown as Db;
await migrate(db as never, { migrationsFolder: 'db/migrations' });
let started = performance.now();
if (fresh) await seed(db, new Date(), { scale });
const [{ n }] = await db.all<{ n: number }>(sql`select count(*) as n from donations`);
console.log(`seeded --scale ${scale}: ${n} donations in ${Math.round(performance.now() - started)} ms`);

const app = createApp({ db });
const env = { APP_ENV: 'development' } as Bindings;
const [admin] = await db.all<{ id: string }>(sql`select id from users where type = 'admin' limit 1`);
const [orgAdmin] = await db.all<{ id: string }>(sql`select id from users where type = 'org_admin' limit 1`);
const tokens = { admin: await createSession(db, admin.id), org_admin: await createSession(db, orgAdmin.id) };

async function time(label: string, path: string, token: string, runs = 5) {
  const times: number[] = [];
  let bytes = 0;
  for (let i = 0; i < runs; i++) {
    started = performance.now();
    const res = await app.request(path, { headers: { authorization: `Bearer ${token}` } }, env);
    const body = await res.arrayBuffer();
    times.push(performance.now() - started);
    bytes = body.byteLength;
    if (!res.ok) throw new Error(`${path} answered ${res.status}`);
  }
  times.sort((a, b) => a - b);
  console.log(
    `${label.padEnd(58)} median ${times[Math.floor(runs / 2)].toFixed(1).padStart(7)} ms  max ${times.at(-1)!.toFixed(1).padStart(7)} ms  ${bytes} bytes`,
  );
}

for (const who of (process.env.ONLY_EXPORTS ? [] : ['admin', 'org_admin']) as ('admin' | 'org_admin')[]) {
  for (const chart of ['gifts-per-week', 'campaigns', 'monthly-recurring', 'donors', 'gift-aid']) {
    await time(`${who} GET /api/reports/${chart}`, `/api/reports/${chart}`, tokens[who]);
  }
}
await time(
  'admin GET /api/donations (search + type + amount, sort amount)',
  '/api/donations?search=smith&type=monthly&amount_min=1000&sort=amount&order=asc&limit=50',
  tokens.admin,
);
await time(
  'admin GET /api/donations (date range, page 20)',
  '/api/donations?date_from=2026-01-01&date_to=2026-06-30&limit=50&offset=950',
  tokens.admin,
);
await time('admin GET /api/exports/donations.csv (every donation)', '/api/exports/donations.csv', tokens.admin, 3);
await time('admin GET /api/exports/donors.csv', '/api/exports/donors.csv', tokens.admin, 3);

const listPlan = await db.all<{
  detail: string;
}>(sql`explain query plan select d.id from donations d join users u on u.id = d.donor_id
  join campaigns c on c.id = d.campaign_id left join campaigns a on a.id = d.appeal_id order by d.date desc, d.date desc, d.rowid desc limit 2000 offset 4000`);
console.log('export page plan:', listPlan.map((p) => p.detail).join(' | '));
const plan = await db.all<{
  detail: string;
}>(sql`explain query plan select count(*), sum(amount - refunded_amount) from donations d
  where d.status = 'succeeded' and d.date >= 0 group by d.type`);
console.log('gifts-per-week plan:', plan.map((p) => p.detail).join(' | '));
