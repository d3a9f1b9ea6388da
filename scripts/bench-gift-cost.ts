/**
 * What one recorded Stripe gift costs the database: the statements a `payment_intent.succeeded`
 * webhook runs (before its answer and after it), each with its wall time, on the seeded demo data in
 * a libSQL file, through the real Hono app in Node. For the storm's per-gift budget
 * (docs/decisions/029); no build needed.
 *
 *   tsx scripts/bench-gift-cost.ts [--gifts N] [--scale N] [--profile FILE.cpuprofile] [--production]
 *
 * `--production`: APP_ENV unset (no response schema checks) and email through a mail provider (a
 * local fake) instead of the development outbox printed to the log. Stripe is not called here.
 *
 * It also prints the process's CPU time a gift (user + system), and `--profile` writes a V8 CPU
 * profile of the gifts alone (not the migration and seed) for `scripts/profile-summary.ts`.
 */
import { rmSync, writeFileSync } from 'node:fs';
import { Session } from 'node:inspector/promises';
import { createClient, type Client } from '@libsql/client';
import { drizzle } from 'drizzle-orm/libsql';
import { migrate } from 'drizzle-orm/libsql/migrator';
import { createApp } from '../api';
import type { Bindings } from '../api/lib/types';
import { insertPendingDonation } from '../api/services/donations/pending';
import type { Db } from '../db/client';
import * as schema from '../db/schema';
import { seed } from '../db/seed';
import { loadNote, optionValue } from './bench-lib';
import { fakeMailProvider } from '../tests/mocks/mail-provider';
import { fakeId, paymentIntentSucceeded, sendEvent, WEBHOOK_SECRET } from '../tests/fixtures/stripe/events';

const argv = process.argv.slice(2);
const option = (name: string, fallback: number, max: number) => {
  const raw = optionValue(argv, name);
  const n = raw === undefined ? fallback : Number(raw);
  if (!Number.isInteger(n) || n < 1 || n > max) throw new Error(`${name} must be a whole number from 1 to ${max}`);
  return n;
};
const GIFTS = option('--gifts', 40, 10_000);
const SCALE = option('--scale', 1, 1000);
const PROFILE = optionValue(argv, '--profile');
const PRODUCTION = argv.includes('--production');

type Step = { sql: string; ms: number; statements: number };
let steps: Step[] = [];

/** The client with every execute and batch noted (statements and wall time). */
function noting(client: Client): Client {
  const execute = client.execute.bind(client);
  const batch = client.batch.bind(client);
  client.execute = (async (stmt: Parameters<Client['execute']>[0]) => {
    const started = performance.now();
    try {
      return await execute(stmt);
    } finally {
      steps.push({
        sql: typeof stmt === 'string' ? stmt : (stmt as { sql: string }).sql,
        ms: performance.now() - started,
        statements: 1,
      });
    }
  }) as Client['execute'];
  client.batch = (async (stmts: Parameters<Client['batch']>[0], mode?: Parameters<Client['batch']>[1]) => {
    const started = performance.now();
    try {
      return await batch(stmts, mode);
    } finally {
      const list = stmts as ({ sql: string } | string)[];
      steps.push({
        sql: `batch[${list.length}]: ${list.map((s) => (typeof s === 'string' ? s : s.sql).slice(0, 40)).join(' | ')}`,
        ms: performance.now() - started,
        statements: list.length,
      });
    }
  }) as Client['batch'];
  return client;
}

async function main() {
  const file = `/tmp/bench-gift-cost-${process.pid}.db`;
  rmSync(file, { force: true });
  const client = createClient({ url: `file:${file}` });
  const plain = drizzle(client, { schema }) as unknown as Db;
  await migrate(plain, { migrationsFolder: 'db/migrations' });
  await seed(plain, undefined, { scale: SCALE });
  const db = drizzle(noting(client), { schema }) as unknown as Db;
  const after: Promise<unknown>[] = [];
  const app = createApp({ db });
  const mailProvider = fakeMailProvider();
  const bindings = {
    STRIPE_WEBHOOK_SECRET: WEBHOOK_SECRET,
    PUBLIC_ORIGIN: 'http://127.0.0.1:1',
    ...(PRODUCTION
      ? { MAIL_API_KEY: 're_bench_gift_cost', MAIL_API_URL: await mailProvider.start() }
      : { APP_ENV: 'development' }),
  } as unknown as Bindings;
  const ctx = {
    waitUntil: (p: Promise<unknown>) => after.push(p),
    passThroughOnException() {},
    props: {},
  } as unknown as ExecutionContext;
  const t = {
    request: (path: string, init: RequestInit = {}) => Promise.resolve(app.request(path, init, bindings, ctx)),
  };

  const [appeal] = (
    await client.execute(
      "select c.id, c.campaign_id from campaigns c join campaigns p on p.id = c.campaign_id where c.status = 'approved' and p.status = 'approved' order by c.created_at desc limit 1",
    )
  ).rows as unknown as { id: string; campaign_id: string }[];
  const [donor] = (await client.execute("select id from users where type = 'donor' limit 1")).rows as unknown as {
    id: string;
  }[];
  const timings: { answer: number; after: number; before: number; afterStatements: number; cpu: number }[] = [];
  const session = PROFILE ? new Session() : null;
  if (session) {
    session.connect();
    await session.post('Profiler.enable');
    await session.post('Profiler.start');
  }
  for (let i = 0; i < GIFTS; i++) {
    const donationId = crypto.randomUUID();
    const intentId = fakeId('pi');
    const amount = 1000 + i;
    await insertPendingDonation(plain, {
      id: donationId,
      amount,
      donorId: donor.id,
      target: { campaignId: appeal.campaign_id, appealId: appeal.id },
      type: 'once',
      giftAidDeclarationId: null,
      paymentIntentId: intentId,
      invoiceId: null,
      subscriptionId: null,
      source: 'card',
      ownCheckout: true,
    });
    const evt = paymentIntentSucceeded({
      intentId,
      amount,
      metadata: {
        kind: 'one_off',
        donation_id: donationId,
        campaign_id: appeal.campaign_id,
        appeal_id: appeal.id,
        donor_id: donor.id,
        gift_aid_declaration_id: '',
        source: 'card',
      },
    });
    steps = [];
    after.length = 0;
    const started = performance.now();
    const cpuStarted = process.cpuUsage();
    const res = await sendEvent(t, evt);
    const answered = performance.now();
    if (res.status !== 200) throw new Error(`webhook answered ${res.status}: ${await res.text()}`);
    const before = steps.reduce((n, s) => n + s.statements, 0);
    const beforeSteps = [...steps];
    await Promise.all(after);
    const done = performance.now();
    const cpu = process.cpuUsage(cpuStarted);
    timings.push({
      cpu: (cpu.user + cpu.system) / 1000,
      answer: answered - started,
      after: done - answered,
      before,
      afterStatements: steps.reduce((n, s) => n + s.statements, 0) - before,
    });
    if (i === GIFTS - 1) {
      console.log(`one gift, before the answer (${beforeSteps.length} round trips, ${before} statements):`);
      for (const s of beforeSteps)
        console.log(`  ${s.ms.toFixed(2).padStart(7)} ms  ${s.sql.replace(/\s+/g, ' ').slice(0, 200)}`);
      console.log(`after the answer (waitUntil): ${steps.length - beforeSteps.length} round trips`);
      for (const s of steps.slice(beforeSteps.length))
        console.log(`  ${s.ms.toFixed(2).padStart(7)} ms  ${s.sql.replace(/\s+/g, ' ').slice(0, 200)}`);
    }
  }
  if (session) {
    const { profile } = await session.post('Profiler.stop');
    writeFileSync(PROFILE as string, JSON.stringify(profile));
    session.disconnect();
    console.log(`[gift-cost] wrote ${PROFILE}`);
  }
  const mean = (pick: (x: (typeof timings)[number]) => number) =>
    timings.slice(5).reduce((n, x) => n + pick(x), 0) / Math.max(1, timings.length - 5);
  console.log(
    `\n${GIFTS} gifts at x${SCALE}, ${PRODUCTION ? 'production (mail provider)' : 'development (outbox printed)'} (mean of all but the first 5): answer ${mean((x) => x.answer).toFixed(1)} ms, CPU ${mean((x) => x.cpu).toFixed(1)} ms a gift (setup of the pending row excluded), work after it ${mean((x) => x.after).toFixed(1)} ms, statements before ${mean((x) => x.before).toFixed(1)}, after ${mean((x) => x.afterStatements).toFixed(1)} (${loadNote()})`,
  );
  if (PRODUCTION) {
    console.log(`mail provider received ${mailProvider.received.length} emails`);
    await mailProvider.stop();
  }
  client.close();
  rmSync(file, { force: true });
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
