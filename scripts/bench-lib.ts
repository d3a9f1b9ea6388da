/**
 * What the bench scripts share (bench.ts, bench-storm.ts, bench-lighthouse.ts, bench-rows.ts,
 * bench-gift-cost.ts): reading and checking options (`npm run bench`'s own among them), BENCH_PORT
 * and BENCH_DEADLINE_S, serving the built worker on loopback, waiting for it, stopping it with its
 * process group, seeding a template database once, and the load average printed beside every
 * figure (the machine is shared: a figure without it cannot be compared).
 */
import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { cpSync, existsSync, openSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { cpus, loadavg } from 'node:os';
import { join } from 'node:path';
import { MAX_SEED_SCALE, parseSeedScale } from '../db/seed';

/** The value after `--name`, or undefined when the option is absent; throws when it has no value. */
export function optionValue(argv: string[], name: string): string | undefined {
  const i = argv.indexOf(name);
  if (i < 0) return undefined;
  const v = argv[i + 1];
  if (v === undefined || v.startsWith('--')) throw new Error(`${name} needs a value`);
  return v;
}

/** Edit distance (insertions, deletions, substitutions) between two short strings. */
function editDistance(a: string, b: string): number {
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    for (let j = 1; j <= b.length; j++)
      current[j] = Math.min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (a[i - 1] === b[j - 1] ? 0 : 1));
    previous = current;
  }
  return previous[b.length];
}

/**
 * Checks that `argv` holds only the options a command takes: `values` (each followed by its
 * value) and `flags` (alone), each at most once. Throws, naming it, on anything else: an unknown
 * or misspelled option (with the nearest known one), a stray word, `--name=value`, an option
 * given twice or left without its value. A typo is never silently ignored.
 */
export function checkOptions(argv: string[], options: { values: readonly string[]; flags?: readonly string[] }) {
  const flags = options.flags ?? [];
  const known = [...options.values, ...flags];
  const seen = new Set<string>();
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    if (!known.includes(arg)) {
      const [name, ...rest] = arg.split('=');
      if (rest.length && options.values.includes(name))
        throw new Error(`write "${name} ${rest.join('=')}" (a space, not "="), got "${arg}"`);
      if (!arg.startsWith('-')) throw new Error(`unexpected argument "${arg}"${i > 0 ? ` after ${argv[i - 1]}` : ''}`);
      const nearest = known
        .map((option) => ({ option, distance: editDistance(name, option) }))
        .sort((a, b) => a.distance - b.distance)[0];
      throw new Error(
        `unknown option "${arg}"${nearest && nearest.distance <= 2 ? ` (did you mean ${nearest.option}?)` : ''}`,
      );
    }
    if (seen.has(arg)) throw new Error(`${arg} is given twice`);
    seen.add(arg);
    if (options.values.includes(arg)) {
      optionValue(argv.slice(i), arg);
      i++;
    }
  }
}

/** BENCH_PORT (default 4398): the first of the ports a bench listens on. */
export function benchPort(env: NodeJS.ProcessEnv = process.env): number {
  const port = Number(env.BENCH_PORT ?? 4398);
  if (!Number.isInteger(port) || port < 1024 || port > 65535)
    throw new Error('BENCH_PORT must be a port number from 1024 to 65535');
  return port;
}

export const local = (port: number) => `http://127.0.0.1:${port}`;

/** BENCH_DEADLINE_S: the main bench's time limit, a whole number of seconds in this range (default 1500). */
export const BENCH_DEADLINE = { min: 60, max: 86_400, fallback: 1500 } as const;

/**
 * BENCH_DEADLINE_S (default 1500): the seconds after which `npm run bench` stops itself. Anything but
 * a whole number from 60 to 86,400 is refused: a timer of NaN, 0, a negative or more than 2^31 - 1 ms
 * would fire at once and stop the bench at its first await as "over the time limit".
 */
export function benchDeadlineSeconds(env: NodeJS.ProcessEnv = process.env): number {
  const raw = env.BENCH_DEADLINE_S;
  if (raw === undefined) return BENCH_DEADLINE.fallback;
  const seconds = /^\d+$/.test(raw) ? Number(raw) : Number.NaN;
  if (!Number.isSafeInteger(seconds) || seconds < BENCH_DEADLINE.min || seconds > BENCH_DEADLINE.max)
    throw new Error(
      `BENCH_DEADLINE_S must be a whole number of seconds from ${BENCH_DEADLINE.min} to ${BENCH_DEADLINE.max} (default ${BENCH_DEADLINE.fallback}), got ${JSON.stringify(raw)}`,
    );
  return seconds;
}

/** Which run `npm run bench` makes: the speed figures (scripts/bench.ts), --storm or --lighthouse. */
export function benchMode(argv: string[]): 'speed' | 'storm' | 'lighthouse' {
  const storm = argv.includes('--storm');
  const lighthouse = argv.includes('--lighthouse');
  if (storm && lighthouse) throw new Error('--storm and --lighthouse are separate runs: give one of them');
  return storm ? 'storm' : lighthouse ? 'lighthouse' : 'speed';
}

/** `npm run bench`'s own options (the speed figures; --storm and --lighthouse have theirs). */
export type BenchArgs = {
  duration: number;
  scale: number;
  lighthouse: boolean;
  out: string;
  dist: string;
  label: string;
  compare: string | null;
  rows: boolean;
  rowsOnly: boolean;
  keepData: boolean;
};

export const BENCH_USAGE = `usage: npm run bench -- [options]
  --duration S     whole seconds per route, 1-60 (default 5)
  --scale N        the scaled run's data, 1-${MAX_SEED_SCALE} times the demo's (default 100; 1 skips it)
  --no-lighthouse  skip Lighthouse
  --no-rows        skip the rows-read section
  --rows-only      only the rows read and the month's cost (--keep-data: reuse the last run's databases)
  --out FILE       (default bench-results.json)
  --dist DIR       another build than dist/
  --compare DIR    a second build, measured at the same moment (before/after)
  --label TEXT     stored in the JSON
or: npm run bench -- --storm [options]; npm run bench -- --lighthouse [options]
env: BENCH_PORT 1024-65535 (default 4398), BENCH_DEADLINE_S ${BENCH_DEADLINE.min}-${BENCH_DEADLINE.max} (default ${BENCH_DEADLINE.fallback})`;

/** Reads and checks `npm run bench`'s options; throws with a message that says what to fix. */
export function parseBenchArgs(argv: string[]): BenchArgs {
  checkOptions(argv, {
    values: ['--duration', '--scale', '--out', '--dist', '--label', '--compare'],
    flags: ['--no-lighthouse', '--no-rows', '--rows-only', '--keep-data'],
  });
  const value = (name: string) => optionValue(argv, name);
  const rawDuration = value('--duration') ?? '5';
  const duration = /^\d+$/.test(rawDuration) ? Number(rawDuration) : Number.NaN;
  if (!Number.isInteger(duration) || duration < 1 || duration > 60)
    throw new Error(`--duration must be a whole number of seconds from 1 to 60, got "${rawDuration}"`);
  const rowsOnly = argv.includes('--rows-only');
  const rows = !argv.includes('--no-rows');
  const keepData = argv.includes('--keep-data');
  const compare = value('--compare') ?? null;
  if (rowsOnly && !rows) throw new Error('--rows-only and --no-rows contradict each other: give one');
  if (keepData && !rowsOnly) throw new Error('--keep-data goes with --rows-only only');
  if (rowsOnly && compare !== null) throw new Error('--compare is not measured with --rows-only');
  return {
    duration,
    scale: parseSeedScale(value('--scale') ?? '100'),
    lighthouse: !argv.includes('--no-lighthouse'),
    out: value('--out') ?? 'bench-results.json',
    dist: value('--dist') ?? 'dist',
    label: value('--label') ?? '',
    compare,
    rows,
    rowsOnly,
    keepData,
  };
}

/** Every load run targets this machine only. */
export function loopbackOnly(url: string): string {
  if (!url.startsWith('http://127.0.0.1:')) throw new Error('the bench only targets 127.0.0.1');
  return url;
}

/** One-minute load average and the cores it is shared by, e.g. "load 1.4 on 2 cores". */
export function loadNote(): string {
  return `load ${loadavg()[0].toFixed(1)} on ${cpus().length} cores`;
}

export const loadAverage = () => Number(loadavg()[0].toFixed(2));

/** Linux's clock ticks a second in /proc/<pid>/stat (USER_HZ, 100 on every Linux this runs on). */
export const TICKS_PER_SECOND = 100;

/**
 * CPU seconds (user + system) used so far by a process and all its descendants (the bench's
 * worker: tsx, wrangler's Node and workerd, whose one thread serves every request and runs the
 * local D1). It grows far less than wall time when other work shares the machine (some: caches
 * and cores are shared), so a phase's CPU per request compares builds run in the same minutes on a
 * busy machine. Null where /proc is not there.
 */
export function treeCpuSeconds(rootPid: number | undefined): number | null {
  if (!rootPid || !existsSync('/proc/self/stat')) return null;
  const stats = new Map<number, { ppid: number; ticks: number }>();
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const text = readFileSync(`/proc/${entry}/stat`, 'utf8');
      // Fields after the command name (which may hold spaces): state, ppid, ..., utime (14th), stime (15th).
      const fields = text.slice(text.lastIndexOf(')') + 2).split(' ');
      stats.set(Number(entry), { ppid: Number(fields[1]), ticks: Number(fields[11]) + Number(fields[12]) });
    } catch {
      // the process ended meanwhile
    }
  }
  let ticks = 0;
  const todo = [rootPid];
  while (todo.length) {
    const pid = todo.pop() as number;
    ticks += stats.get(pid)?.ticks ?? 0;
    for (const [child, stat] of stats) if (stat.ppid === pid) todo.push(child);
  }
  return ticks / TICKS_PER_SECOND;
}

export const percentile = (sorted: number[], p: number) =>
  sorted.length ? Math.round(sorted[Math.min(sorted.length - 1, Math.ceil(p * sorted.length) - 1)] * 10) / 10 : 0;

/** The child processes a bench started (each in its own process group), stopped together on exit. */
export const children = new Set<ChildProcess>();

/** Stops every child's process group at once (signals, time limits). */
export function stopChildren() {
  for (const child of children) {
    child.removeAllListeners('exit');
    if (child.pid && child.exitCode === null) {
      try {
        process.kill(-child.pid, 'SIGTERM');
      } catch {
        child.kill('SIGTERM');
      }
    }
  }
  children.clear();
}

/** Stops one child's process group: SIGTERM, then SIGKILL after `graceMs`. */
export async function stopChild(child: ChildProcess, graceMs = 5000) {
  children.delete(child);
  if (child.exitCode !== null || !child.pid) return;
  const exited = new Promise((resolve) => child.once('exit', resolve));
  process.kill(-child.pid, 'SIGTERM');
  await Promise.race([exited, new Promise((r) => setTimeout(r, graceMs))]);
  if (child.exitCode === null) {
    try {
      process.kill(-child.pid, 'SIGKILL');
    } catch {
      // gone meanwhile
    }
  }
}

/**
 * A child started in its own process group, remembered so that stopChildren stops it. With
 * BENCH_WORKER_LOG=FILE, what a child writes that is not piped here is appended to FILE.
 */
export function spawnTracked(command: string, argv: string[], pipeStdout = false): ChildProcess {
  const logFile = process.env.BENCH_WORKER_LOG ? openSync(process.env.BENCH_WORKER_LOG, 'a') : null;
  const child = spawn(command, argv, {
    stdio: ['ignore', pipeStdout ? 'pipe' : (logFile ?? 'ignore'), logFile ?? 'inherit'],
    detached: true,
    env: { ...process.env, CI: 'true' },
  });
  children.add(child);
  child.on('exit', () => children.delete(child));
  return child;
}

export type ServeWorker = {
  dist: string;
  port: number;
  persistTo: string;
  /** wrangler's log level: 'warn' for load runs, 'log' to read the request lines. */
  logLevel?: 'warn' | 'log';
  vars: Record<string, string>;
  /** Pipe the worker's console to this process (child.stdout). */
  pipeStdout?: boolean;
};

/** The built worker (scripts/serve.ts, no debugger attached) on loopback, on a local D1 state. */
export function serveWorker(o: ServeWorker): ChildProcess {
  const argv = [
    'scripts/serve.ts',
    '--config',
    join(o.dist, 'server/wrangler.json'),
    '--port',
    String(o.port),
    '--ip',
    '127.0.0.1',
    '--persist-to',
    o.persistTo,
    '--log-level',
    o.logLevel ?? 'warn',
    // BENCH_SERVER=direct: without wrangler's dev proxy (scripts/serve.ts, serveBuiltWorkerDirect).
    ...(process.env.BENCH_SERVER === 'direct' ? ['--direct'] : []),
  ];
  for (const [name, value] of Object.entries(o.vars)) argv.push('--var', `${name}:${value}`);
  return spawnTracked('tsx', argv, o.pipeStdout);
}

/**
 * Waits until GET `url` + `health` answers (up to two minutes by default): the worker's
 * /api/health, or another server's own check. Gives up at once when `child` has exited.
 */
export async function waitForServer(
  url: string,
  timeoutMs = 120_000,
  { health = '/api/health', child }: { health?: string; child?: ChildProcess } = {},
) {
  const until = Date.now() + timeoutMs;
  while (Date.now() < until) {
    if (child && child.exitCode !== null) throw new Error(`the server for ${url} exited (${child.exitCode})`);
    try {
      if ((await fetch(`${url}${health}`)).ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 300));
  }
  throw new Error(`the server did not start on ${url}`);
}

/** Seeds the demo data (scale N) into a fresh local D1 state; throws when seeding fails. */
export function seedInto(persistTo: string, scale = 1) {
  rmSync(persistTo, { recursive: true, force: true });
  const argv = ['scripts/db-local.ts', 'seed', '--persist-to', persistTo];
  if (scale !== 1) argv.push('--scale', String(scale));
  const seeded = spawnSync('tsx', argv, {
    stdio: ['ignore', 'ignore', 'inherit'],
    env: { ...process.env, CI: 'true' },
  });
  if (seeded.status !== 0) {
    rmSync(persistTo, { recursive: true, force: true });
    throw new Error(`seeding ${persistTo} failed`);
  }
}

/**
 * What the seeded data is made from: the migrations and the seed's code. A kept template seeded from
 * other sources is stale (a storm against a database without a new column records nothing).
 */
export function seedSourceStamp(): string {
  const files = [
    ...readdirSync('db/migrations', { recursive: true }).map((f) => join('db/migrations', String(f))),
    'db/seed.ts',
    ...readdirSync('db/factories').map((f) => join('db/factories', f)),
  ]
    .filter((file) => statSync(file).isFile())
    .sort();
  const hash = createHash('sha256');
  for (const file of files) hash.update(file).update('\0').update(readFileSync(file)).update('\0');
  return hash.digest('hex');
}

/** A fresh copy of the demo data at `persistTo`, seeded once into `template` and kept for the next run. */
export function freshSeededCopy(template: string, persistTo: string) {
  const stamp = seedSourceStamp();
  const stampFile = join(template, 'seed-source.sha256');
  const current =
    existsSync(join(template, 'v3')) && existsSync(stampFile) && readFileSync(stampFile, 'utf8') === stamp;
  if (!current) {
    seedInto(template);
    writeFileSync(stampFile, stamp);
  }
  rmSync(persistTo, { recursive: true, force: true });
  cpSync(template, persistTo, { recursive: true });
}

/** The seed's popular appeal (the oldest of the demo's own; scaled copies carry "(n)") and its campaign. */
export async function pickDemoAppeal(base: string) {
  const appeals = (await (await fetch(`${base}/api/appeals?limit=100`)).json()) as {
    _id: string;
    short_id: string;
    title: string;
    campaign_id: string;
  }[];
  const appeal = appeals.filter((a) => !/\(\d+\)$/.test(a.title)).at(-1);
  if (!appeal) throw new Error('no appeal to measure: is the database seeded?');
  const campaign = (await (await fetch(`${base}/api/campaigns/${appeal.campaign_id}`)).json()) as {
    _id: string;
    short_id: string;
  };
  return { appeal, campaign };
}

/** A plain text table: the first column left-aligned, the others right-aligned, a rule under the header. */
export function printTable(rows: (string | number)[][]) {
  const widths = rows[0].map((_, i) => Math.max(...rows.map((r) => String(r[i] ?? '').length)));
  for (const [n, row] of rows.entries()) {
    console.log(
      row
        .map((cell, i) => (i === 0 ? String(cell).padEnd(widths[i]) : String(cell ?? '').padStart(widths[i])))
        .join('  '),
    );
    if (n === 0) console.log(widths.map((w) => '-'.repeat(w)).join('  '));
  }
}
