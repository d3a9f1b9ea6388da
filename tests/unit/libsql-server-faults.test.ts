import { mkdtempSync, readdirSync, readlinkSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type Client, createClient } from '@libsql/client/web';
import Database from 'libsql';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { type HranaResponse, postHrana, text } from '../mocks/hrana-requests';
import { type LibsqlServer, type LibsqlServerOptions, startLibsqlServer } from '../mocks/libsql-server';

/**
 * The local libSQL server (tests/mocks/libsql-server.ts) under faults a reviewer found: locks,
 * long statements, malformed requests, state left on a pooled connection, too many streams.
 * Each test runs its own server, so its limits can be small.
 */
let dir: string;
let server: LibsqlServer | undefined;

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'libsql-server-faults-'));
});
afterEach(async () => {
  await server?.close();
  server = undefined;
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

let files = 0;
let dbPath: string;
async function start(options: Partial<LibsqlServerOptions> = {}): Promise<LibsqlServer> {
  dbPath = join(dir, `db-${++files}.db`);
  server = await startLibsqlServer({ dbPath, ...options });
  await pipeline([execute('CREATE TABLE k (id INTEGER PRIMARY KEY, v TEXT)'), close]);
  return server;
}

const post = (path: string, body: unknown) => postHrana(server?.url ?? '', path, body);
const pipeline = (requests: unknown[], baton?: string) => post('/v3/pipeline', { baton, requests });
const execute = (sql: string, args?: unknown) => ({ type: 'execute', stmt: { sql, args } });
const close = { type: 'close' };
const insert = (v: string) => execute('INSERT INTO k (v) VALUES (?)', [text(v)]);
/** Rows of `k` with this value, read by a stream of its own. */
async function countOf(v: string): Promise<number> {
  const res = await pipeline([execute('SELECT count(*) FROM k WHERE v = ?', [text(v)]), close]);
  return Number(res.json.results[0].response.result.rows[0][0].value);
}
/** Rows of `k` with this value in the file, read past the server (a connection of the server could see its own uncommitted rows). */
function onDisk(v: string): number {
  const db = new Database(dbPath, { readonly: true });
  try {
    return Number((db.prepare('SELECT count(*) AS n FROM k WHERE v = ?').get(v) as { n: number }).n);
  } finally {
    db.close();
  }
}
const resultTypes = (res: HranaResponse) => res.json.results.map((r: { type: string }) => r.type);

describe('local libSQL server: locks', () => {
  it('lets a write that finds the file locked wait for the lock, as sqld does, instead of failing at once', async () => {
    await start({ busyTimeoutMs: 3000 });
    const holder = await pipeline([execute('BEGIN IMMEDIATE'), insert('first')]);
    const waiting = pipeline([insert('second'), close]);
    await new Promise((resolve) => setTimeout(resolve, 150));
    expect(resultTypes(await pipeline([execute('COMMIT'), close], holder.json.baton))).toEqual(['ok', 'ok']);
    expect(resultTypes(await waiting)).toEqual(['ok', 'ok']);
    expect([await countOf('first'), await countOf('second')]).toEqual([1, 1]);
  });

  it('answers SQLITE_BUSY once the wait is over, and that connection wedges no later write', async () => {
    await start({ busyTimeoutMs: 100 });
    const holder = await pipeline([execute('BEGIN IMMEDIATE')]);
    // Without arguments: libsql then leaves the failed statement unreset (with them it happens to reset it).
    const busy = await pipeline([execute("INSERT INTO k (v) VALUES ('b')"), close]);
    expect(busy.json.results[0]).toEqual({
      type: 'error',
      error: { message: 'SQLite error: database is locked', code: 'SQLITE_BUSY' },
    });
    await pipeline([execute('COMMIT'), close], holder.json.baton);
    // One stream held, so the next one takes whichever connection the busy stream left.
    const held = await pipeline([execute('SELECT 1')]);
    const later = await pipeline([insert('c'), { type: 'get_autocommit' }, close]);
    expect(later.json.results[1].response).toEqual({ type: 'get_autocommit', is_autocommit: true });
    expect(onDisk('c')).toBe(1);
    // Another connection can write: no transaction was left holding the lock.
    expect(resultTypes(await pipeline([insert('d')], held.json.baton))).toEqual(['ok']);
    expect(onDisk('d')).toBe(1);
  });
});

describe('local libSQL server: one writer at a time, as SQLite, D1 and sqld', () => {
  const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
  const clients: Client[] = [];
  const client = () => {
    const made = createClient({ url: server?.url ?? '' });
    clients.push(made);
    return made;
  };
  afterEach(() => {
    for (const made of clients.splice(0)) made.close();
  });

  it('runs concurrent deferred batches that read then write the same row one after another: all succeed', async () => {
    await start();
    await client().batch([
      'CREATE TABLE counter (id INTEGER PRIMARY KEY, n INTEGER NOT NULL)',
      'INSERT INTO counter VALUES (1, 0)',
    ]);
    // The client's batch: BEGIN DEFERRED, the steps, COMMIT. Run on two connections at once, the
    // second to write after the first committed would fail at once (SQLITE_BUSY_SNAPSHOT).
    const writers = Array.from({ length: 8 }, () => client());
    const outcomes = await Promise.allSettled(
      writers.map((writer, i) =>
        writer.batch(
          [
            'SELECT n FROM counter WHERE id = 1',
            'UPDATE counter SET n = (SELECT n FROM counter WHERE id = 1) + 1 WHERE id = 1',
            { sql: 'INSERT INTO k (v) VALUES (?)', args: [`batch ${i}`] },
          ],
          'deferred',
        ),
      ),
    );
    expect(outcomes.map((outcome) => (outcome.status === 'fulfilled' ? 'ok' : String(outcome.reason)))).toEqual(
      Array(8).fill('ok'),
    );
    expect(Number((await client().execute('SELECT n FROM counter WHERE id = 1')).rows[0].n)).toBe(8);
    for (let i = 0; i < 8; i++) expect(onDisk(`batch ${i}`)).toBe(1);
  });

  it('holds the lock for an interactive transaction from BEGIN to COMMIT: its own requests go on, other writers wait, readers do not', async () => {
    await start();
    const tx = await client().transaction('deferred');
    expect(Number((await tx.execute('SELECT count(*) AS n FROM k')).rows[0].n)).toBe(0);
    let written = false;
    const other = client()
      .execute("INSERT INTO k (v) VALUES ('other')")
      .then(() => {
        written = true;
      });
    await sleep(150);
    const started = performance.now();
    expect((await fetch(`${server?.url}/health`)).status).toBe(200);
    const reader = client();
    expect(Number((await reader.execute('SELECT count(*) AS n FROM k')).rows[0].n)).toBe(0);
    const [counted] = await reader.batch(['SELECT count(*) AS n FROM k', 'PRAGMA table_info(k)'], 'deferred');
    expect(Number(counted.rows[0].n)).toBe(0);
    expect(performance.now() - started).toBeLessThan(1000);
    // The transaction writes after reading (no SQLITE_BUSY_SNAPSHOT), and is not stuck behind the waiting writer.
    await tx.execute("INSERT INTO k (v) VALUES ('tx')");
    expect(written).toBe(false);
    await tx.commit();
    await other;
    expect([onDisk('tx'), onDisk('other')]).toEqual([1, 1]);
  });

  it('gives the lock up when its stream expires and when its statement is interrupted', async () => {
    await start({ streamIdleMs: 300, statementTimeoutMs: 500, busyTimeoutMs: 3000 });
    // A transaction left open: its stream expires (rolled back) and the waiting writer goes on.
    await pipeline([execute('BEGIN DEFERRED'), insert('abandoned')]);
    let started = performance.now();
    expect(resultTypes(await pipeline([insert('after expiry'), close]))).toEqual(['ok', 'ok']);
    expect(performance.now() - started).toBeGreaterThan(200);
    expect([onDisk('abandoned'), onDisk('after expiry')]).toEqual([0, 1]);
    // A write running past statementTimeoutMs is interrupted; the writer waiting for it goes on.
    const long = pipeline([
      execute(
        "INSERT INTO k (v) SELECT 'long' FROM (WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c LIMIT 100000000) SELECT x FROM c WHERE x < 0)",
      ),
      close,
    ]);
    await sleep(100);
    started = performance.now();
    expect(resultTypes(await pipeline([insert('after interrupt'), close]))).toEqual(['ok', 'ok']);
    expect(performance.now() - started).toBeLessThan(2000);
    expect((await long).json.results[0].error.code).toBe('SQLITE_INTERRUPT');
    expect(onDisk('after interrupt')).toBe(1);
  }, 30_000);

  it('answers SQLITE_BUSY to a batch that cannot get the lock within busyTimeoutMs, with nothing of it run', async () => {
    await start({ busyTimeoutMs: 300 });
    const holder = await pipeline([execute('BEGIN IMMEDIATE'), insert('held')]);
    const started = performance.now();
    const refused = client().batch([{ sql: 'INSERT INTO k (v) VALUES (?)', args: ['refused'] }], 'deferred');
    await expect(refused).rejects.toMatchObject({ code: 'SQLITE_BUSY' });
    expect(performance.now() - started).toBeGreaterThan(250);
    expect(resultTypes(await pipeline([execute('COMMIT'), close], holder.json.baton))).toEqual(['ok', 'ok']);
    expect([onDisk('held'), onDisk('refused')]).toEqual([1, 0]);
    // The lock is free again.
    await client().execute("INSERT INTO k (v) VALUES ('later')");
    expect(onDisk('later')).toBe(1);
  });
});

describe('local libSQL server: long statements', () => {
  it('interrupts a statement past its time budget (SQLITE_INTERRUPT) and answers other requests meanwhile', async () => {
    await start({ statementTimeoutMs: 2000 });
    const long = pipeline([
      execute('WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c LIMIT 100000000) SELECT count(*) FROM c'),
      execute('SELECT 42'),
      close,
    ]);
    await new Promise((resolve) => setTimeout(resolve, 150));
    const started = performance.now();
    expect((await fetch(`${server?.url}/health`)).status).toBe(200);
    expect(resultTypes(await pipeline([insert('meanwhile'), close]))).toEqual(['ok', 'ok']);
    expect(performance.now() - started).toBeLessThan(1000);
    const res = await long;
    expect(res.json.results[0]).toEqual({
      type: 'error',
      error: { message: 'SQLite error: interrupted', code: 'SQLITE_INTERRUPT' },
    });
    expect(res.json.results[1].response.result.rows).toEqual([[{ type: 'integer', value: '42' }]]);
  }, 30_000);
});

describe('local libSQL server: a request is checked whole before any of it runs', () => {
  it('answers 400 for a malformed request anywhere in a pipeline, a batch or a cursor, with nothing written', async () => {
    await start();
    // Built as text: JSON.stringify would recurse as deep.
    const deep = `${'{"type":"not","cond":'.repeat(20_000)}{"type":"ok","step":0}${'}'.repeat(20_000)}`;
    const batch = (condition: unknown) => ({
      type: 'batch',
      batch: { steps: [{ stmt: insert('x').stmt }, { stmt: { sql: 'SELECT 1' }, condition }] },
    });
    const cases: [string, string, unknown, string][] = [
      ['unknown request', '/v3/pipeline', { requests: [insert('x'), { type: 'bogus' }] }, 'unknown request type'],
      [
        'malformed argument',
        '/v3/pipeline',
        { requests: [insert('x'), execute('SELECT ?', [{ type: 'integer', value: 5 }])] },
        'an integer value must be a string of digits',
      ],
      [
        'condition on a later step',
        '/v3/pipeline',
        { requests: [batch({ type: 'ok', step: 5 })] },
        'Invalid reference to step in a batch condition',
      ],
      [
        'cursor condition on its own step',
        '/v3/cursor',
        { batch: batch({ type: 'ok', step: 1 }).batch },
        'Invalid reference to step in a batch condition',
      ],
      [
        'condition 20,000 deep',
        '/v3/pipeline',
        `{"requests":[${JSON.stringify(batch(null)).replace('null', deep)}]}`,
        'recursion limit exceeded',
      ],
      ['args not an array', '/v3/pipeline', { requests: [insert('x'), execute('SELECT ?', { a: 1 })] }, 'args'],
      [
        'integer out of range',
        '/v3/pipeline',
        { requests: [insert('x'), execute('SELECT ?', [{ type: 'integer', value: '9999999999999999999' }])] },
        'out of 64-bit range',
      ],
      [
        'invalid base64',
        '/v3/pipeline',
        { requests: [insert('x'), execute('SELECT ?', [{ type: 'blob', base64: '!!!!' }])] },
        'not valid base64',
      ],
    ];
    for (const [name, path, body, message] of cases) {
      const res = await post(path, body);
      expect([res.status, res.type], name).toEqual([400, 'text/plain']);
      expect(res.text, name).toContain(message);
    }
    expect(await countOf('x')).toBe(0);
    expect(server?.openStreams()).toBe(0);
  }, 30_000);

  it('runs no step of a batch whose SQL does not parse: its error in a pipeline, HTTP 500 on the cursor (as sqld)', async () => {
    await start();
    const steps = [{ stmt: insert('parse').stmt }, { stmt: { sql: 'SELEC 1' } }];
    const inPipeline = await pipeline([{ type: 'batch', batch: { steps } }, close]);
    expect(inPipeline.json.results[0].type).toBe('error');
    expect(inPipeline.json.results[0].error).toMatchObject({ code: 'SQL_PARSE_ERROR' });
    const onCursor = await post('/v3/cursor', { batch: { steps } });
    expect(onCursor.status).toBe(500);
    expect(onCursor.json.error).toContain('SQL string could not be parsed');
    expect(await countOf('parse')).toBe(0);
    // A step may still use what an earlier step creates: only syntax is checked up front.
    const created = await pipeline([
      {
        type: 'batch',
        batch: {
          steps: [
            { stmt: { sql: 'CREATE TABLE made (x)' } },
            { stmt: { sql: 'INSERT INTO made VALUES (1)' }, condition: { type: 'ok', step: 0 } },
          ],
        },
      },
      close,
    ]);
    expect(created.json.results[0].response.result.step_errors).toEqual([null, null]);
  });
});

describe('local libSQL server: each stream gets a fresh connection', () => {
  it("leaves no stream a PRAGMA, temp table, changes() or last_insert_rowid() of another's", async () => {
    await start();
    const first = await pipeline([
      execute('CREATE TEMP TABLE k (shadow)'),
      execute("INSERT INTO main.k (v) VALUES ('mine')"),
      execute('PRAGMA foreign_keys = OFF'),
      execute('PRAGMA query_only = 1'),
      close,
    ]);
    expect(resultTypes(first)).toEqual(['ok', 'ok', 'ok', 'ok', 'ok']);
    // A plain writer after it (in the same pool): an autocommit INSERT and a transaction's.
    const next = await pipeline([
      execute('SELECT last_insert_rowid(), changes()'),
      insert('after'),
      execute('SELECT count(*) FROM temp.sqlite_master'),
      execute('PRAGMA query_only'),
      execute('PRAGMA foreign_keys'),
      close,
    ]);
    const rows = next.json.results.map((r: any) => r.response.result?.rows);
    expect(rows[0]).toEqual([
      [
        { type: 'integer', value: '0' },
        { type: 'integer', value: '0' },
      ],
    ]);
    expect(next.json.results[1].type).toBe('ok');
    expect([rows[2], rows[3], rows[4]]).toEqual([
      [[{ type: 'integer', value: '0' }]],
      [[{ type: 'integer', value: '0' }]],
      [[{ type: 'integer', value: '1' }]],
    ]);
    expect(await countOf('after')).toBe(1);
    // An INSERT's own rowid is reported; other statements report none, as sqld does.
    const fresh = await pipeline([execute('SELECT last_insert_rowid()'), insert('again'), close]);
    expect(fresh.json.results[0].response.result.rows).toEqual([[{ type: 'integer', value: '0' }]]);
    expect(fresh.json.results[0].response.result.last_insert_rowid).toBeNull();
    expect(fresh.json.results[1].response.result.last_insert_rowid).toMatch(/^[1-9]\d*$/);
  });
});

describe('local libSQL server: streams and connections are bounded', () => {
  it('refuses a stream past maxStreams with HTTP 503 {message, code}; closing one frees its slot', async () => {
    await start({ maxStreams: 3 });
    const batons: string[] = [];
    for (let i = 0; i < 3; i++) batons.push((await pipeline([execute('SELECT 1')])).json.baton);
    const refused = await pipeline([execute('SELECT 1'), close]);
    expect([refused.status, refused.type, refused.json.code]).toEqual([503, 'application/json', 'TOO_MANY_STREAMS']);
    expect(refused.json.message).toMatch(/^Too many open streams: 3 are open/);
    // The open streams still work, and a closed one's slot is free again.
    expect((await pipeline([close], batons[0])).status).toBe(200);
    expect((await pipeline([execute('SELECT 1'), close])).status).toBe(200);
    for (const baton of batons.slice(1)) await pipeline([close], baton);
  });

  it.runIf(process.platform === 'linux')(
    'reuses connections: bursts of concurrent streams leave a bounded number of files open',
    async () => {
      await start();
      /** Descriptors of this test's database files (the process has sockets and others). */
      const databaseFds = () =>
        readdirSync('/proc/self/fd').filter((fd) => {
          try {
            return readlinkSync(`/proc/self/fd/${fd}`).startsWith(dir);
          } catch {
            return false;
          }
        }).length;
      for (let round = 0; round < 10; round++) {
        const opened = await Promise.all(Array.from({ length: 30 }, () => pipeline([execute('SELECT 1')])));
        await Promise.all(opened.map((res) => pipeline([close], res.json.baton)));
      }
      // A closed connection gives its files back once its statements are collected; SQLite keeps
      // some database descriptors for the next connections to reuse.
      await new Promise((resolve) => setTimeout(resolve, 300));
      expect(databaseFds()).toBeLessThan(120);
    },
    30_000,
  );
});

describe('local libSQL server: stored SQL texts, within sqld limits', () => {
  it('stores 50 SQL texts of up to 5 KB per stream', async () => {
    await start();
    const store = (id: number, sql = 'SELECT 1') => ({ type: 'store_sql', sql_id: id, sql });
    const many = await pipeline([...Array.from({ length: 51 }, (_, i) => store(i)), close]);
    expect(resultTypes(many).slice(48)).toEqual(['ok', 'ok', 'error', 'ok']);
    expect(many.json.results[50].error).toEqual({
      message: 'The server already stores 50 SQL texts, it cannot store more',
      code: 'SQL_STORE_TOO_MANY',
    });
    const large = await pipeline([store(1, `SELECT '${'x'.repeat(10_000)}'`), close]);
    expect(large.json.results[0].error).toEqual({
      message: 'The statement is too large to be stored: 10.0 KB/5.0 KB',
      code: 'SQL_STORE_TOO_LARGE',
    });
  });
});
