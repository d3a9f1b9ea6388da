/**
 * `npm run bench -- --storm`: a telethon night on one machine (docs/decisions/029).
 *
 * Serves the built worker in Stripe mode against the local Stripe fake (tests/mocks/stripe-fake.ts,
 * through the development-only STRIPE_API_BASE), starts one-off gifts through
 * POST /api/stripe/client_secret, then sends their signed `payment_intent.succeeded` webhooks at
 * --rate a second for --duration seconds (about one in ten sent twice, neighbours swapped, a 5xx
 * retried a second later as Stripe does) while autocannon reads public pages and API. The same
 * reads run for --quiet seconds before and after the storm, and the storm's read throughput is
 * reported as a ratio to their mean. Then it stops the worker and counts, in its database, the
 * gifts recorded, lost and doubled, whether every stored total equals the sum of its gifts, and
 * whether each gift holds Stripe's fee (looked up after the webhook's answer, a second's gifts together).
 *
 * Options: --rate R (webhooks a second, more than 0 and at most 200, default 20), --duration S
 * (whole seconds, 1-600, default 60), --quiet S (whole seconds, 1-600, default 30), --capacity N
 * (0-5000; afterwards, N more gifts sent as fast as they are answered, 8 at a time: the gifts a
 * second this machine can record; default 0), --out FILE
 * (default bench-storm.json), --dist DIR, --db d1|turso (d1, the default: the local D1 that `npm start`
 * serves, whose SQLite runs on the worker's own thread; turso: the same seeded data behind the local
 * libSQL server, `npm run db:turso-local`, in its own process, as production's database is on its own
 * machine). Port: BENCH_PORT (the worker); the fakes and the database server listen on
 * free loopback ports. The demo data is seeded once into .wrangler/bench-storm-seed and copied for
 * each run. Everything targets 127.0.0.1, and the run stops itself after its own time limit. At most
 * 12,000 webhooks (rate × duration), which with --capacity 5000 keeps that limit under 3 hours; an
 * unknown or repeated option, a stray word or a value out of range answers a message and the usage
 * (STORM_USAGE), exit 2, before any work.
 */
import { FEE_FILL_WINDOW_MS } from '../api/services/finance/fees-after-recording';
import { ukCardFee } from '../api/services/payments/stripe-objects';
import type { ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { type AddressInfo, createServer } from 'node:net';
import { cpus } from 'node:os';
import { dirname, join } from 'node:path';
import { createClient } from '@libsql/client';
import autocannon from 'autocannon';
import Stripe from 'stripe';
import {
  benchPort,
  checkOptions,
  freshSeededCopy,
  loadAverage,
  loadNote,
  local,
  loopbackOnly,
  optionValue,
  percentile,
  pickDemoAppeal,
  serveWorker,
  spawnTracked,
  stopChild,
  stopChildren,
  TICKS_PER_SECOND,
  treeCpuSeconds,
  waitForServer,
} from './bench-lib';
import { type StripeFake, startStripeFake } from '../tests/mocks/stripe-fake';
import { startTurnstileFake, type TurnstileFake } from '../tests/mocks/turnstile-fake';
import { fakeMailProvider, providerRequests } from '../tests/mocks/mail-provider';

const WEBHOOK_SECRET = 'whsec_bench_storm';
/** One delivery in this many is sent a second time; one in this many neighbours swap places. */
const DUPLICATE_EVERY = 10;
const SWAP_EVERY = 5;
const READ_CONNECTIONS = 10;
const PREP_CONCURRENCY = 4;
const CAPACITY_CONCURRENCY = 8;

export const STORM_DATABASES = ['d1', 'turso'] as const;
export type StormDatabase = (typeof STORM_DATABASES)[number];

export type StormArgs = {
  rate: number;
  duration: number;
  quiet: number;
  capacity: number;
  out: string;
  dist: string;
  db: StormDatabase;
};

/** At most this many webhooks in the storm (--rate × --duration): 200/s for 60 s, or 20/s for 600 s. */
export const MAX_STORM_WEBHOOKS = 12_000;
/** At most this many --capacity gifts. */
export const MAX_CAPACITY_GIFTS = 5000;
/** The longest time limit a run can have (the largest storm and capacity run allowed stay below it). */
export const MAX_STORM_TIME_LIMIT_S = 3 * 3600;

export const STORM_USAGE = `usage: npm run bench -- --storm [options]
  --rate R        webhooks a second, more than 0 and at most 200 (default 20; e.g. 2.5)
  --duration S    the storm's whole seconds, 1-600 (default 60)
  --quiet S       whole seconds of reads alone before and after it, 1-600 (default 30)
  --capacity N    then N more gifts, as fast as they are answered, 0-${MAX_CAPACITY_GIFTS} (default 0)
  --out FILE      (default bench-storm.json)
  --dist DIR      (default dist)
  --db d1|turso   (default d1)
at most ${MAX_STORM_WEBHOOKS.toLocaleString('en-GB')} webhooks in the storm (rate × duration: 200/s for 60 s, 20/s for 600 s); the run stops itself after its time limit (15 min + 2 × quiet + duration + 0.5 s a gift), at most ${MAX_STORM_TIME_LIMIT_S / 3600} h`;

/** The gifts a storm starts: its webhooks less the one in DUPLICATE_EVERY + 1 that is a second delivery. */
export const stormGiftCount = (args: Pick<StormArgs, 'rate' | 'duration'>) =>
  Math.max(1, Math.round((args.rate * args.duration * DUPLICATE_EVERY) / (DUPLICATE_EVERY + 1)));

/**
 * The run's time limit in seconds. Seeding can take minutes on a busy 2-core machine, and starting
 * a gift 0.1-0.5 s (4 at a time).
 */
export const stormTimeLimitSeconds = (args: Pick<StormArgs, 'rate' | 'duration' | 'quiet' | 'capacity'>) =>
  900 + args.quiet * 2 + args.duration + (stormGiftCount(args) + args.capacity) / 2;

/** Reads and checks the options; throws with a message that says what to fix. */
export function parseStormArgs(argv: string[]): StormArgs {
  checkOptions(argv, { values: ['--rate', '--duration', '--quiet', '--capacity', '--out', '--dist', '--db'] });
  const value = (name: string) => optionValue(argv, name);
  /** A plain decimal in range; `whole`: a whole number from min to max; else more than min and at most max. */
  const number = (name: string, fallback: number, min: number, max: number, unit: string, whole: boolean) => {
    const raw = value(name);
    if (raw === undefined) return fallback;
    if (!/^-?(\d+\.?\d*|\.\d+)$/.test(raw)) throw new Error(`${name} must be a number (${unit}), got "${raw}"`);
    const n = Number(raw);
    if (whole) {
      if (!Number.isInteger(n) || n < min || n > max)
        throw new Error(`${name} must be a whole number of ${unit} from ${min} to ${max}, got ${raw}`);
    } else if (n <= min || n > max) {
      throw new Error(`${name} must be more than ${min} and at most ${max} ${unit}, got ${raw}`);
    }
    return n;
  };
  const rate = number('--rate', 20, 0, 200, 'webhooks a second', false);
  const duration = number('--duration', 60, 1, 600, 'seconds', true);
  const quiet = number('--quiet', 30, 1, 600, 'seconds', true);
  const capacity = number('--capacity', 0, 0, MAX_CAPACITY_GIFTS, 'gifts', true);
  const webhooks = rate * duration;
  if (webhooks < 1) throw new Error(`--rate × --duration must send at least one webhook (got ${rate} × ${duration})`);
  if (webhooks > MAX_STORM_WEBHOOKS)
    throw new Error(
      `--rate × --duration must send at most ${MAX_STORM_WEBHOOKS.toLocaleString('en-GB')} webhooks, e.g. 200/s for 60 s or 20/s for 600 s (got ${rate} × ${duration} = ${Math.round(webhooks).toLocaleString('en-GB')})`,
    );
  const db = value('--db') ?? 'd1';
  if (!(STORM_DATABASES as readonly string[]).includes(db))
    throw new Error(`--db must be ${STORM_DATABASES.join(' or ')}, got "${db}"`);
  return {
    rate,
    duration,
    quiet,
    capacity,
    out: value('--out') ?? 'bench-storm.json',
    dist: value('--dist') ?? 'dist',
    db: db as StormDatabase,
  };
}

const round1 = (n: number) => Math.round(n * 10) / 10;

/**
 * `load`: the one-minute load average when the phase ended (2 cores shared: above 2, runs wait for
 * a CPU). `workerCpuMs`: CPU the worker's processes used in the phase (null without /proc).
 */
type Reads = {
  rps: number;
  requests: number;
  p50: number;
  p99: number;
  non2xx: number;
  errors: number;
  load: number;
  workerCpuMs: number | null;
  /** Where the machine's cores went in the phase (null without /proc). */
  cores: CoreUse | null;
  /** Answers by their X-Cache (HIT, STALE, MISS, SHARED; `none` where the answer had none): a MISS is a render. */
  cache: Record<string, number>;
};

/**
 * Cores in use on average over a phase: the worker's process tree, the database server's (with
 * --db turso; 0 with D1, which runs inside the worker), this bench's own process (the load
 * generator, the Stripe and mail fakes, the webhook sender: one Node thread), everything else, and
 * idle. On a machine where all of it shares 2 cores, the reads' ratio is a split of what is left.
 */
export type CoreUse = { worker: number; database: number; bench: number; other: number; idle: number };
type CoreSample = {
  at: number;
  worker: number | null;
  database: number;
  bench: number;
  machine: { busy: number; total: number } | null;
};

/** The processes whose CPU a phase reports apart: the worker and, with --db turso, the database server. */
type Servers = { worker?: number; database?: number };

/** Busy and total seconds of all CPUs since boot, from /proc/stat's first line. */
function machineSeconds(): { busy: number; total: number } | null {
  if (!existsSync('/proc/stat')) return null;
  const fields = readFileSync('/proc/stat', 'utf8').split('\n')[0].trim().split(/\s+/).slice(1, 9).map(Number);
  const total = fields.reduce((a, b) => a + b, 0);
  const idle = fields[3] + fields[4];
  return { busy: (total - idle) / TICKS_PER_SECOND, total: total / TICKS_PER_SECOND };
}

function coreSample(servers: Servers): CoreSample {
  const own = process.cpuUsage();
  return {
    at: Date.now(),
    worker: treeCpuSeconds(servers.worker),
    database: servers.database ? (treeCpuSeconds(servers.database) ?? 0) : 0,
    bench: (own.user + own.system) / 1e6,
    machine: machineSeconds(),
  };
}

export function coreUse(before: CoreSample, after: CoreSample): CoreUse | null {
  if (before.worker === null || after.worker === null || !before.machine || !after.machine) return null;
  const seconds = (after.at - before.at) / 1000;
  if (!(seconds > 0)) return null;
  const cores = (after.machine.total - before.machine.total) / seconds;
  const busy = (after.machine.busy - before.machine.busy) / seconds;
  const worker = (after.worker - before.worker) / seconds;
  const database = (after.database - before.database) / seconds;
  const bench = (after.bench - before.bench) / seconds;
  const r = (n: number) => Math.round(n * 100) / 100;
  return {
    worker: r(worker),
    database: r(database),
    bench: r(bench),
    other: r(Math.max(0, busy - worker - database - bench)),
    idle: r(Math.max(0, cores - busy)),
  };
}

/** The renders among a phase's reads (each page or API read that missed the cache), in all and a second. */
const rendersText = (r: Pick<Reads, 'cache'>, seconds: number) =>
  `${r.cache.MISS ?? 0} (${round1((r.cache.MISS ?? 0) / seconds)}/s)`;

const coresText = (c: CoreUse | null) =>
  c
    ? `worker ${c.worker}, ${c.database ? `database server ${c.database}, ` : ''}bench ${c.bench}, other ${c.other}, idle ${c.idle}`
    : 'not measured (no /proc)';

/** Closed-loop public reads: READ_CONNECTIONS connections cycling through the paths. */
async function reads(base: string, paths: string[], seconds: number, servers: Servers): Promise<Reads> {
  const workerPid = servers.worker;
  const cpuBefore = treeCpuSeconds(workerPid);
  const coresBefore = coreSample(servers);
  const cache: Record<string, number> = {};
  const result = await autocannon({
    url: loopbackOnly(base),
    connections: READ_CONNECTIONS,
    duration: seconds,
    timeout: 10,
    requests: paths.map((path) => ({
      method: 'GET' as const,
      path,
      onResponse: (_status: number, _body: string, _context: unknown, headers: Record<string, string | string[]>) => {
        const state = String(headers['x-cache'] ?? headers['X-Cache'] ?? 'none');
        cache[state] = (cache[state] ?? 0) + 1;
      },
    })),
  });
  const cpuAfter = treeCpuSeconds(workerPid);
  const cores = coreUse(coresBefore, coreSample(servers));
  return {
    rps: round1(result.requests.average),
    requests: result.requests.total,
    p50: result.latency.p50,
    p99: result.latency.p99,
    non2xx: result.non2xx,
    errors: result.errors + result.timeouts,
    load: loadAverage(),
    workerCpuMs: cpuBefore === null || cpuAfter === null ? null : Math.round((cpuAfter - cpuBefore) * 1000),
    cores,
    cache,
  };
}

/**
 * The worker's CPU per quiet read, and per webhook delivery in the storm once the storm's reads
 * are taken out at the quiet price (what a gift costs the thread the visitors share, its page
 * re-renders included). CPU time moves far less with the machine's other load than throughput does.
 */
export function cpuPerRequest(
  quiet: Pick<Reads, 'requests' | 'workerCpuMs'>[],
  storm: Pick<Reads, 'requests' | 'workerCpuMs'>,
  deliveries: number,
): { perReadMs: number; perDeliveryMs: number } | null {
  const quietCpu = quiet.reduce((n, q) => n + (q.workerCpuMs ?? Number.NaN), 0);
  const quietReads = quiet.reduce((n, q) => n + q.requests, 0);
  if (!Number.isFinite(quietCpu) || storm.workerCpuMs === null || !quietReads || !deliveries) return null;
  const perRead = quietCpu / quietReads;
  return {
    perReadMs: Number(perRead.toFixed(3)),
    perDeliveryMs: Number(((storm.workerCpuMs - storm.requests * perRead) / deliveries).toFixed(1)),
  };
}

/** Receipts the mail provider received, matched to the gifts by their payment reference. */
function receiptsSent(mails: { subject?: string; text?: string }[], gifts: { intentId: string }[]) {
  const perIntent = new Map<string, number>();
  for (const mail of mails) {
    if (!mail.subject?.startsWith('Your receipt')) continue;
    const reference = /Payment reference:\s+(\S+)/.exec(mail.text ?? '')?.[1];
    if (reference) perIntent.set(reference, (perIntent.get(reference) ?? 0) + 1);
  }
  const counts = gifts.map((g) => perIntent.get(g.intentId) ?? 0);
  return {
    gifts: gifts.length,
    sent: counts.reduce((n, c) => n + c, 0),
    missing: counts.filter((c) => c === 0).length,
    twice: counts.filter((c) => c > 1).length,
  };
}

/** Waits while receipts are still arriving (none for 3 s, or every gift's, ends it; 60 s at most). */
async function receiptsSettled(missing: () => number) {
  const until = Date.now() + 60_000;
  let last = missing();
  let quietSince = Date.now();
  while (last > 0 && Date.now() < until && Date.now() - quietSince < 3000) {
    await new Promise((resolve) => setTimeout(resolve, 250));
    const now = missing();
    if (now !== last) quietSince = Date.now();
    last = now;
  }
}

type Gift = {
  intentId: string;
  donationId: string;
  amount: number;
  campaignId: string;
  appealId: string | null;
  /** Stripe's `payment_intent.succeeded`: the charge is made at the first delivery, as Stripe makes it just before the event. */
  event: () => Record<string, unknown>;
};

/** Starts one-off gifts through the API, as donors' browsers do, and makes Stripe's event for each. */
async function startGifts(
  base: string,
  fake: StripeFake,
  count: number,
  target: { campaignId: string; appealId: string },
  tag: string,
): Promise<Gift[]> {
  const gifts: Gift[] = [];
  let next = 0;
  const worker = async () => {
    while (next < count) {
      const i = next++;
      // Seven in ten to the appeal whose pages are read, the rest to its campaign.
      const appealId = i % 10 < 7 ? target.appealId : null;
      const amount = 500 + ((i * 7919) % 9500);
      const res = await fetch(loopbackOnly(`${base}/api/stripe/client_secret`), {
        method: 'POST',
        // Each donor from an address of their own (per-address limits hold one address to 30 checkouts in 15 minutes).
        headers: {
          'content-type': 'application/json',
          'cf-connecting-ip': `10.${tag === 's' ? 1 : 2}.${(i >> 8) & 255}.${i & 255}`,
        },
        body: JSON.stringify({
          email: `storm-${tag}-${i}@example.org`,
          amount,
          campaign_id: target.campaignId,
          appeal_id: appealId,
          giftAid: false,
          turnstile_token: `storm-${tag}-${i}`,
        }),
      });
      if (!res.ok) throw new Error(`POST /api/stripe/client_secret answered ${res.status}: ${await res.text()}`);
      const { clientSecret } = (await res.json()) as { clientSecret: string };
      const intentId = clientSecret.split('_secret_')[0];
      const intent = fake.paymentIntents.get(intentId);
      if (!intent) throw new Error(`the Stripe fake has no PaymentIntent ${intentId}`);
      let event: Record<string, unknown> | null = null;
      gifts.push({
        intentId,
        donationId: intent.metadata.donation_id,
        amount,
        campaignId: target.campaignId,
        appealId,
        event: () => (event ??= fake.succeedPaymentIntent(intentId).event),
      });
      if (gifts.length % 200 === 0) console.log(`[storm] ${gifts.length} of ${count} gifts started`);
    }
  };
  await Promise.all(Array.from({ length: PREP_CONCURRENCY }, worker));
  return gifts;
}

/** The deliveries: every event once, one in DUPLICATE_EVERY again a few places later, some neighbours swapped. */
function deliveryOrder(gifts: Gift[]): Gift[] {
  const order = [...gifts];
  for (let i = 0; i < gifts.length; i += DUPLICATE_EVERY) {
    const at = Math.min(order.length, i + 1 + ((i * 31) % 40));
    order.splice(at, 0, gifts[i]);
  }
  for (let i = 0; i + 1 < order.length; i += SWAP_EVERY) [order[i], order[i + 1]] = [order[i + 1], order[i]];
  return order;
}

type Deliveries = {
  sent: number;
  retries: number;
  latencies: number[];
  outcomes: Record<string, number>;
  /** The first few failed answers, as they came (what to look at when a gift is lost). */
  failures: string[];
  failed: number;
  seconds: number;
};

async function deliver(base: string, gift: Gift, d: Deliveries) {
  const payload = JSON.stringify(gift.event());
  for (let attempt = 0; attempt < 5; attempt++) {
    const header = await Stripe.webhooks.generateTestHeaderStringAsync({
      payload,
      secret: WEBHOOK_SECRET,
      cryptoProvider: Stripe.createSubtleCryptoProvider(),
    });
    const started = performance.now();
    d.sent++;
    try {
      const res = await fetch(loopbackOnly(`${base}/api/stripe/webhook`), {
        method: 'POST',
        body: payload,
        headers: { 'stripe-signature': header, 'content-type': 'application/json' },
      });
      const text = await res.text().catch(() => '');
      const body = ((): { outcome?: string } => {
        try {
          return JSON.parse(text) as { outcome?: string };
        } catch {
          return {};
        }
      })();
      d.latencies.push(performance.now() - started);
      if (res.ok) {
        const outcome = body.outcome ?? 'unknown';
        d.outcomes[outcome] = (d.outcomes[outcome] ?? 0) + 1;
        return;
      }
      d.outcomes[`HTTP ${res.status}`] = (d.outcomes[`HTTP ${res.status}`] ?? 0) + 1;
      if (d.failures.length < 5) d.failures.push(`HTTP ${res.status}: ${text.slice(0, 300)}`);
    } catch (err) {
      d.outcomes['network error'] = (d.outcomes['network error'] ?? 0) + 1;
      if (d.failures.length < 5) d.failures.push(`network error: ${(err as Error).message}`);
    }
    // Stripe retries a failed delivery later; here a second later.
    d.retries++;
    await new Promise((r) => setTimeout(r, 1000));
  }
  d.failed++;
}

/** Open loop: one delivery every 1000/rate ms, whatever the answers do. */
async function storm(base: string, order: Gift[], rate: number): Promise<Deliveries> {
  const d: Deliveries = { sent: 0, retries: 0, latencies: [], outcomes: {}, failures: [], failed: 0, seconds: 0 };
  const started = performance.now();
  const inFlight: Promise<void>[] = [];
  for (const [i, gift] of order.entries()) {
    const due = started + (i * 1000) / rate;
    const wait = due - performance.now();
    if (wait > 0) await new Promise((r) => setTimeout(r, wait));
    inFlight.push(deliver(base, gift, d));
  }
  await Promise.all(inFlight);
  d.seconds = (performance.now() - started) / 1000;
  return d;
}

/** Closed loop: as fast as the worker answers, CAPACITY_CONCURRENCY at a time. */
async function capacity(base: string, gifts: Gift[]): Promise<Deliveries> {
  const d: Deliveries = { sent: 0, retries: 0, latencies: [], outcomes: {}, failures: [], failed: 0, seconds: 0 };
  const started = performance.now();
  let next = 0;
  await Promise.all(
    Array.from({ length: CAPACITY_CONCURRENCY }, async () => {
      while (next < gifts.length) await deliver(base, gifts[next++], d);
    }),
  );
  d.seconds = (performance.now() - started) / 1000;
  return d;
}

/** A free loopback port, for a child that must be told its port. */
async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/**
 * The local libSQL server (`npm run db:turso-local`) on a copy of the seeded D1 file, in its own
 * process: the worker reaches it over libSQL's remote protocol, as a deployment reaches Turso.
 */
async function startDatabaseServer(persist: string): Promise<{ child: ChildProcess; url: string; file: string }> {
  const file = join(persist, 'turso', 'app.db');
  mkdirSync(dirname(file), { recursive: true });
  // D1 keeps the seed in its write-ahead log: VACUUM INTO writes one self-contained database file.
  const d1 = createClient({ url: `file:${d1File(persist)}` });
  try {
    await d1.execute({ sql: 'VACUUM INTO ?', args: [file] });
  } finally {
    d1.close();
  }
  const port = await freePort();
  const child = spawnTracked('tsx', ['scripts/turso-local.ts', '--port', String(port), '--db', file]);
  const url = `http://127.0.0.1:${port}`;
  await waitForServer(url, 60_000, { health: '/health', child });
  return { child, url, file };
}

function d1File(persist: string): string {
  const dir = join(persist, 'v3', 'd1', 'miniflare-D1DatabaseObject');
  const file = readdirSync(dir).find((f) => f.endsWith('.sqlite') && f !== 'metadata.sqlite');
  if (!file) throw new Error(`no D1 database under ${dir}`);
  return join(dir, file);
}

type Check = {
  recorded: number;
  lost: number;
  doubled: number;
  totalsExact: boolean;
  totalsMismatches: string[];
  stormPence: number;
  stormRecordedPence: number;
  /** Recorded gifts whose fee is Stripe's (the fake's balance transaction), stored after the answer. */
  feesStored: number;
};

/** Counts, in the worker's database, what the storm's gifts became. */
async function checkDatabase(file: string, gifts: Gift[]): Promise<Check> {
  const db = createClient({ url: `file:${file}` });
  try {
    const intents = new Set(gifts.map((g) => g.intentId));
    const rows = (
      await db.execute(
        'SELECT payment_intent_id AS pi, status, amount, fee_pence AS fee FROM donations WHERE payment_intent_id IS NOT NULL',
      )
    ).rows as unknown as { pi: string; status: string; amount: number; fee: number | null }[];
    const succeeded = new Map<string, number>();
    let stormRecordedPence = 0;
    let feesStored = 0;
    for (const row of rows) {
      if (!intents.has(row.pi) || row.status !== 'succeeded') continue;
      succeeded.set(row.pi, (succeeded.get(row.pi) ?? 0) + 1);
      stormRecordedPence += Number(row.amount);
      if (row.fee !== null && Number(row.fee) === ukCardFee(Number(row.amount))) feesStored++;
    }
    const recorded = succeeded.size;
    const doubled = [...succeeded.values()].filter((n) => n > 1).length;
    // Every stored total against a recount of its gifts (an appeal's gifts also count for its campaign).
    const recount = (
      await db.execute(`
        WITH counted AS (
          SELECT campaign_id AS id, amount - refunded_amount AS net, status FROM donations WHERE status IN ('succeeded', 'refunded')
          UNION ALL
          SELECT appeal_id AS id, amount - refunded_amount AS net, status FROM donations WHERE status IN ('succeeded', 'refunded') AND appeal_id IS NOT NULL
        )
        SELECT c.id AS id, coalesce(t.raised_pence, 0) AS stored, coalesce(t.gift_count, 0) AS stored_count,
               coalesce((SELECT sum(net) FROM counted WHERE counted.id = c.id), 0) AS recount,
               coalesce((SELECT count(*) FROM counted WHERE counted.id = c.id AND status = 'succeeded'), 0) AS recount_count
        FROM campaigns c LEFT JOIN campaign_totals t ON t.campaign_id = c.id`)
    ).rows as unknown as { id: string; stored: number; stored_count: number; recount: number; recount_count: number }[];
    const totalsMismatches = recount
      .filter((r) => Number(r.stored) !== Number(r.recount) || Number(r.stored_count) !== Number(r.recount_count))
      .map(
        (r) =>
          `${r.id}: stored ${r.stored} pence / ${r.stored_count} gifts, gifts sum to ${r.recount} / ${r.recount_count}`,
      );
    return {
      recorded,
      lost: gifts.length - recorded,
      doubled,
      totalsExact: totalsMismatches.length === 0,
      totalsMismatches,
      stormPence: gifts.reduce((sum, g) => sum + g.amount, 0),
      stormRecordedPence,
      feesStored,
    };
  } finally {
    db.close();
  }
}

function summary(d: Deliveries) {
  const sorted = [...d.latencies].sort((a, b) => a - b);
  return {
    deliveries: d.sent,
    retries: d.retries,
    failedAfterRetries: d.failed,
    outcomes: d.outcomes,
    failures: d.failures,
    p50: percentile(sorted, 0.5),
    p99: percentile(sorted, 0.99),
    seconds: round1(d.seconds),
  };
}

export async function runStorm(argv: string[]): Promise<number> {
  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    process.on(signal, () => {
      stopChildren();
      process.exit(130);
    });
  }
  let args: StormArgs;
  try {
    args = parseStormArgs(argv);
  } catch (err) {
    console.error(`[storm] ${(err as Error).message}`);
    console.error(STORM_USAGE);
    return 2;
  }
  let port: number;
  try {
    port = benchPort();
  } catch (err) {
    console.error(`[storm] ${(err as Error).message}`);
    return 2;
  }
  const base = local(port);
  const gifts = stormGiftCount(args);
  const limitSeconds = stormTimeLimitSeconds(args);
  const deadline = setTimeout(() => {
    console.error(`[storm] stopped: over its time limit (${Math.round(limitSeconds)} s)`);
    stopChildren();
    process.exit(1);
  }, limitSeconds * 1000);
  deadline.unref();

  if (!existsSync(join(args.dist, 'server/wrangler.json'))) {
    console.error(`[storm] ${args.dist}/server/wrangler.json is missing: run \`npm run build\` first`);
    return 2;
  }
  let fake: StripeFake | null = null;
  let turnstile: TurnstileFake | null = null;
  let worker: ChildProcess | null = null;
  let database: Awaited<ReturnType<typeof startDatabaseServer>> | null = null;
  const persist = '.wrangler/bench-storm-state';
  // Receipts go to a mail provider, as in production (not the development outbox printed to the log).
  const mailProvider = fakeMailProvider();
  let mailStarted = false;
  try {
    fake = await startStripeFake();
    turnstile = await startTurnstileFake();
    const mailUrl = await mailProvider.start();
    mailStarted = true;
    // The demo data is seeded once into a template (kept for the next run) and copied for each run.
    console.log(`[storm] preparing the demo data (${loadNote()})`);
    freshSeededCopy('.wrangler/bench-storm-seed', persist);
    const vars = {
      // STRIPE_API_BASE (the local fake) is honoured only in development.
      APP_ENV: 'development',
      PUBLIC_ORIGIN: base,
      STRIPE_SECRET_KEY: 'sk_test_bench_storm',
      STRIPE_PUBLISHABLE_KEY: 'pk_test_bench_storm',
      STRIPE_WEBHOOK_SECRET: WEBHOOK_SECRET,
      STRIPE_API_BASE: fake.url,
      TURNSTILE_VERIFY_URL: turnstile.url,
      MAIL_API_KEY: 're_bench_storm',
      MAIL_API_URL: mailUrl,
    };
    if (args.db === 'turso') {
      database = await startDatabaseServer(persist);
      Object.assign(vars, { TURSO_DATABASE_URL: database.url });
    }
    worker = serveWorker({ dist: args.dist, port, persistTo: persist, vars });
    await waitForServer(base);

    const { appeal, campaign } = await pickDemoAppeal(base);
    const readPaths = [
      '/',
      `/campaigns/${campaign.short_id}`,
      `/appeals/${appeal.short_id}`,
      '/api/campaigns',
      `/api/campaigns/${campaign._id}`,
      `/api/appeals/${appeal._id}`,
      `/api/donations?type=public&campaign_id=${campaign._id}`,
    ];

    console.log(`[storm] starting ${gifts + args.capacity} gifts through POST /api/stripe/client_secret`);
    const prepStarted = performance.now();
    const stormGifts = await startGifts(base, fake, gifts, { campaignId: campaign._id, appealId: appeal._id }, 's');
    const capacityGifts = args.capacity
      ? await startGifts(base, fake, args.capacity, { campaignId: campaign._id, appealId: appeal._id }, 'c')
      : [];
    const checkoutsPerSecond = round1((gifts + args.capacity) / ((performance.now() - prepStarted) / 1000));
    for (let k = 0; k < 3; k++) for (const path of readPaths) await (await fetch(base + path)).arrayBuffer();

    const servers: Servers = { worker: worker.pid, database: database?.child.pid };
    console.log(`[storm] public reads without the storm, ${args.quiet} s`);
    const quietBefore = await reads(base, readPaths, args.quiet, servers);
    console.log(`[storm] ${args.rate} webhooks a second for ${args.duration} s, with the same reads`);
    const order = deliveryOrder(stormGifts);
    const stormOrder = order.slice(0, Math.round(args.rate * args.duration));
    const stormCpuStart = treeCpuSeconds(worker.pid);
    // Whatever did not fit in the window (the duplicates' share) is delivered straight after it.
    const [stormReads, stormDeliveries] = await Promise.all([
      reads(base, readPaths, args.duration, servers),
      storm(base, stormOrder, args.rate),
    ]);
    const tail = order.slice(stormOrder.length);
    const tailDeliveries = tail.length ? await storm(base, tail, args.rate) : null;
    // Every delivery answered: the worker's CPU for the storm, a backlog worked off after the window included.
    const stormCpuEnd = treeCpuSeconds(worker.pid);
    console.log(`[storm] public reads without the storm, ${args.quiet} s`);
    const quietAfter = await reads(base, readPaths, args.quiet, servers);
    // With no reads running, the worker's CPU is the deliveries' own (no page re-renders in it).
    const capacityCpuStart = treeCpuSeconds(worker.pid);
    const capacityRun = capacityGifts.length ? await capacity(base, capacityGifts) : null;
    const capacityCpuEnd = treeCpuSeconds(worker.pid);
    // What the last gifts left for after their answers (Stripe's fees gather for up to a second) ends before the worker.
    await new Promise((resolve) => setTimeout(resolve, FEE_FILL_WINDOW_MS * 2));
    // Receipts leave at most MAX_BATCH a second per isolate, so a capacity run's ends later: wait while they still arrive.
    await receiptsSettled(
      () =>
        receiptsSent(
          mailProvider.received.map((m) => m.body as { subject?: string; text?: string }),
          [...stormGifts, ...capacityGifts],
        ).missing,
    );

    await stopChild(worker, 8000);
    worker = null;
    if (database) await stopChild(database.child, 8000);
    const check = await checkDatabase(database?.file ?? d1File(persist), [...stormGifts, ...capacityGifts]);
    const receipts = receiptsSent(
      mailProvider.received.map((m) => m.body as { subject?: string; text?: string }),
      [...stormGifts, ...capacityGifts],
    );
    const mailRequests = providerRequests(mailProvider.received);
    const quietRps = (quietBefore.rps + quietAfter.rps) / 2;
    const readRatio = quietRps > 0 ? Number((stormReads.rps / quietRps).toFixed(2)) : 0;
    const webhooks = summary(stormDeliveries);
    const cpu = cpuPerRequest(
      [quietBefore, quietAfter],
      {
        requests: stormReads.requests,
        workerCpuMs:
          stormCpuStart === null || stormCpuEnd === null ? null : Math.round((stormCpuEnd - stormCpuStart) * 1000),
      },
      stormDeliveries.sent + (tailDeliveries?.sent ?? 0),
    );
    const result = {
      date: new Date().toISOString(),
      settings: {
        rate: args.rate,
        duration: args.duration,
        quiet: args.quiet,
        readConnections: READ_CONNECTIONS,
        readPaths,
        duplicateEvery: DUPLICATE_EVERY,
        swapEvery: SWAP_EVERY,
        appEnv: 'development',
        mail: 'provider (local fake)',
        database: args.db === 'turso' ? 'local libSQL server (own process)' : 'local D1 (in the worker)',
      },
      gifts: { started: stormGifts.length, checkoutsPerSecond, ...check },
      receipts,
      mailRequests,
      // Stripe's API asked for fees (GET /v1/charges): once a gift when each waited for its own.
      stripeFeeLookups: fake.requests.filter((r) => r.method === 'GET' && r.path.startsWith('/v1/charges')).length,
      webhooks,
      afterWindow: tailDeliveries ? summary(tailDeliveries) : null,
      reads: { quietBefore, storm: stormReads, quietAfter, ratio: readRatio },
      workerCpu: cpu,
      capacity: capacityRun
        ? {
            gifts: capacityGifts.length,
            concurrency: CAPACITY_CONCURRENCY,
            ...summary(capacityRun),
            giftsPerSecond: round1(capacityGifts.length / capacityRun.seconds),
            workerCpuMsPerDelivery:
              capacityCpuStart === null || capacityCpuEnd === null || !capacityRun.sent
                ? null
                : round1(((capacityCpuEnd - capacityCpuStart) * 1000) / capacityRun.sent),
          }
        : null,
    };
    const line = (pass: boolean, text: string) => console.log(`${pass ? 'PASS' : 'FAIL'}  ${text}`);
    console.log(
      `\nTelethon night: ${args.rate} webhooks/s for ${args.duration} s (${stormGifts.length} gifts, ${webhooks.deliveries} deliveries with duplicates and retries), reads at ${READ_CONNECTIONS} connections, database ${result.settings.database}`,
    );
    console.log(
      `webhook outcomes: ${JSON.stringify(webhooks.outcomes)}; p50 ${webhooks.p50} ms, p99 ${webhooks.p99} ms (load ${stormReads.load} at the storm's end)`,
    );
    console.log(
      `public reads: ${quietBefore.rps} req/s before (load ${quietBefore.load}), ${stormReads.rps} during (p99 ${stormReads.p99} ms; load ${stormReads.load}), ${quietAfter.rps} after (load ${quietAfter.load})`,
    );
    console.log(
      `renders (X-Cache MISS) of the reads: ${rendersText(quietBefore, args.quiet)} before, ${rendersText(stormReads, args.duration)} during, ${rendersText(quietAfter, args.quiet)} after`,
    );
    if (cpu)
      console.log(
        `worker CPU: ${cpu.perReadMs} ms a quiet read; ${cpu.perDeliveryMs} ms a webhook delivery in the storm, its re-renders included (the storm's reads taken out at the quiet price; load ${stormReads.load})`,
      );
    console.log(
      `cores in use (of ${cpus().length}): quiet before ${coresText(quietBefore.cores)}; storm ${coresText(stormReads.cores)}; quiet after ${coresText(quietAfter.cores)}`,
    );
    if (result.capacity)
      console.log(
        `capacity: ${result.capacity.giftsPerSecond} gifts/s recorded at ${CAPACITY_CONCURRENCY} at a time (webhook p50 ${result.capacity.p50} ms, p99 ${result.capacity.p99} ms; worker CPU ${result.capacity.workerCpuMsPerDelivery ?? 'not measured'} ms a delivery, no reads running)`,
      );
    line(
      check.lost === 0,
      `gifts recorded ${check.recorded} of ${stormGifts.length + capacityGifts.length}, lost ${check.lost}`,
    );
    line(check.doubled === 0, `doubled ${check.doubled}`);
    // Every gift's event is applied by one delivery; its copies, at once or later, answer 'duplicate'.
    const answeredRecorded = (webhooks.outcomes.recorded ?? 0) + (result.afterWindow?.outcomes.recorded ?? 0);
    line(
      answeredRecorded === stormGifts.length,
      `answered 'recorded' ${answeredRecorded} times for ${stormGifts.length} gifts (every other delivery 'duplicate')`,
    );
    line(
      receipts.missing === 0 && receipts.twice === 0,
      `receipts sent through the mail provider: ${receipts.sent} for ${receipts.gifts} gifts, ${receipts.missing} missing, ${receipts.twice} sent twice`,
    );
    // Resend's default rate limit is 2 requests a second per team (decision 057): more would be refused (429).
    console.log(
      `mail provider: ${mailRequests.messages} emails in ${mailRequests.requests} requests (${mailRequests.batchRequests} of them batches), at most ${mailRequests.mostInOneSecond} requests in one second`,
    );
    line(
      check.totalsExact && check.stormPence === check.stormRecordedPence,
      `totals equal the sum of the gifts (${check.totalsExact ? 'every campaign and appeal' : check.totalsMismatches.slice(0, 3).join('; ')}; storm ${check.stormRecordedPence} of ${check.stormPence} pence)`,
    );
    line(
      check.feesStored === check.recorded,
      `Stripe's fees stored after the answers: ${check.feesStored} of ${check.recorded} gifts, in ${result.stripeFeeLookups} look-ups`,
    );
    line(
      readRatio >= 0.7,
      `public reads during the storm ${readRatio}x the same reads without it (${stormReads.rps} vs ${round1(quietRps)} req/s; load ${quietBefore.load} / ${stormReads.load} / ${quietAfter.load})`,
    );
    writeFileSync(args.out, `${JSON.stringify(result, null, 2)}\n`);
    console.log(`[storm] wrote ${args.out}`);
    return 0;
  } catch (err) {
    console.error('[storm]', err instanceof Error ? err.message : err);
    return 1;
  } finally {
    if (worker) await stopChild(worker, 8000);
    stopChildren();
    await fake?.close();
    await turnstile?.close();
    if (mailStarted) await mailProvider.stop();
    clearTimeout(deadline);
  }
}
