import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type Client, createClient, LibsqlBatchError, LibsqlError } from '@libsql/client/web';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isDatabaseUnavailable } from '../../api/lib/unavailable';
import { postHrana, text } from '../mocks/hrana-requests';
import { type LibsqlServer, splitStatements, startLibsqlServer } from '../mocks/libsql-server';

let dir: string;
let server: LibsqlServer;
let client: Client;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'libsql-server-test-'));
  server = await startLibsqlServer({
    dbPath: join(dir, 'main.db'),
    databasesDir: dir,
    streamIdleMs: 300,
    maxBodyBytes: 64 * 1024,
  });
  client = createClient({ url: server.url, intMode: 'bigint' });
  await client.execute('CREATE TABLE t (id INTEGER PRIMARY KEY, name TEXT UNIQUE NOT NULL, score REAL, data BLOB)');
});

afterAll(async () => {
  client.close();
  await server.close();
  rmSync(dir, { recursive: true, force: true });
});

/** One raw Hrana request, the way the client sends it. */
const post = (path: string, body: unknown) => postHrana(server.url, path, body);

const stmt = (sql: string, args: unknown[] = []) => ({ sql, args, want_rows: true });
/** A batch step's condition: step `step` succeeded. */
const ok = (step: number) => ({ type: 'ok', step });

describe('local libSQL protocol server: what a client may probe', () => {
  it('answers /health, the index, the JSON versions, and 404 for Protobuf (the client then falls back to JSON v2)', async () => {
    expect((await fetch(`${server.url}/health`)).status).toBe(200);
    expect(await (await fetch(`${server.url}/`)).text()).toContain('Hrana over HTTP');
    expect((await fetch(`${server.url}/v2`)).status).toBe(200);
    expect((await fetch(`${server.url}/v3`)).status).toBe(200);
    expect((await fetch(`${server.url}/v3-protobuf`)).status).toBe(404);
    expect((await fetch(`${server.url}/v2/pipeline`)).status).toBe(405);
    expect((await post('/v9/pipeline', {})).status).toBe(404);
  });
});

describe('local libSQL protocol server: malformed requests get an error, never a hang', () => {
  it('refuses a body that is not JSON, not an object, or has no requests, as sqld does: 400 text/plain', async () => {
    for (const body of ['{not json', '[]', '{}', '{"requests": "nope"}']) {
      const res = await post('/v2/pipeline', body);
      expect(res.status, body).toBe(400);
      expect(res.type).toBe('text/plain');
      expect(res.text).toMatch(/^Cannot deserialize client message from JSON/);
    }
  });

  it('refuses unknown request types, values and conditions, and an oversized body (413)', async () => {
    const unknownType = await post('/v2/pipeline', { requests: [{ type: 'drop_everything' }] });
    expect([unknownType.status, unknownType.text]).toEqual([
      400,
      'Cannot deserialize client message from JSON: unknown request type "drop_everything"',
    ]);
    const badValue = await post('/v2/pipeline', {
      requests: [{ type: 'execute', stmt: stmt('SELECT ?', [{ type: 'integer', value: 12 }]) }],
    });
    expect(badValue.status).toBe(400);
    expect(badValue.text).toContain('an integer value must be a string of digits');
    const noSql = await post('/v2/pipeline', { requests: [{ type: 'execute', stmt: { args: [] } }] });
    expect([noSql.status, noSql.text]).toEqual([400, 'Either `sql` or `sql_id` are required']);
    const huge = await post('/v2/pipeline', {
      requests: [{ type: 'execute', stmt: stmt('SELECT ?', [text('x'.repeat(70 * 1024))]) }],
    });
    expect(huge.status).toBe(413);
  });

  it('refuses a batch condition that points at a later step', async () => {
    const res = await post('/v2/pipeline', {
      requests: [
        {
          type: 'batch',
          batch: {
            steps: [{ stmt: stmt('SELECT 1'), condition: { type: 'ok', step: 1 } }, { stmt: stmt('SELECT 2') }],
          },
        },
      ],
    });
    expect([res.status, res.text]).toEqual([400, 'Invalid reference to step in a batch condition']);
  });

  it('keeps the v3-only parts of the protocol (is_autocommit, get_autocommit) out of v2', async () => {
    const v2 = await post('/v2/pipeline', { requests: [{ type: 'get_autocommit' }] });
    expect(v2.status).toBe(400);
    const v3 = await post('/v3/pipeline', { requests: [{ type: 'get_autocommit' }, { type: 'close' }] });
    expect(v3.json.results[0]).toEqual({ type: 'ok', response: { type: 'get_autocommit', is_autocommit: true } });
  });
});

describe('local libSQL protocol server: batons', () => {
  it('hands out a baton per request, good once; refuses unknown and reused ones; null after close', async () => {
    const first = await post('/v2/pipeline', { requests: [{ type: 'execute', stmt: stmt('SELECT 1') }] });
    expect(first.status).toBe(200);
    expect(first.json.baton).toMatch(/^[A-Za-z0-9+/]{64}$/);
    const second = await post('/v2/pipeline', {
      baton: first.json.baton,
      requests: [{ type: 'execute', stmt: stmt('SELECT 2') }],
    });
    expect(second.status).toBe(200);
    expect(second.json.baton).not.toBe(first.json.baton);
    const reused = await post('/v2/pipeline', { baton: first.json.baton, requests: [] });
    expect([reused.status, reused.type, reused.text]).toEqual([
      400,
      'text/plain',
      'Received a baton that has already been used',
    ]);
    // The stream itself is untouched: its current baton still works.
    const third = await post('/v2/pipeline', { baton: second.json.baton, requests: [{ type: 'close' }] });
    expect([third.status, third.json.baton]).toEqual([200, null]);
    // Closed, unknown and forged batons.
    for (const baton of [second.json.baton, 'not-a-baton', Buffer.alloc(48, 7).toString('base64').replace(/=+$/, '')]) {
      const res = await post('/v2/pipeline', { baton, requests: [] });
      expect([res.status, res.text], baton).toEqual([400, 'Received an invalid baton']);
    }
    const closed = await post('/v2/pipeline', { requests: [{ type: 'close' }] });
    expect(closed.json).toEqual({
      baton: null,
      base_url: null,
      results: [{ type: 'ok', response: { type: 'close' } }],
    });
  });

  it('expires an idle stream, rolling its transaction back: STREAM_EXPIRED as sqld words it, then through the client', async () => {
    const begun = await post('/v2/pipeline', {
      requests: [
        { type: 'execute', stmt: stmt('BEGIN') },
        { type: 'execute', stmt: stmt("INSERT INTO t (name) VALUES ('held')") },
      ],
    });
    expect(begun.json.results.map((r: { type: string }) => r.type)).toEqual(['ok', 'ok']);
    expect(server.openStreams()).toBeGreaterThan(0);
    await new Promise((resolve) => setTimeout(resolve, 600));
    expect(server.openStreams()).toBe(0);
    const late = await post('/v2/pipeline', {
      baton: begun.json.baton,
      requests: [{ type: 'execute', stmt: stmt('COMMIT') }],
    });
    expect([late.status, late.json]).toEqual([
      400,
      { message: 'The stream has expired due to inactivity', code: 'STREAM_EXPIRED' },
    ]);
    expect((await client.execute("SELECT count(*) AS n FROM t WHERE name = 'held'")).rows[0].n).toBe(0n);

    const tx = await client.transaction('write');
    await tx.execute("INSERT INTO t (name) VALUES ('late')");
    await new Promise((resolve) => setTimeout(resolve, 600));
    const error = await tx.execute('SELECT 1').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(LibsqlError);
    expect((error as LibsqlError).code).toBe('STREAM_EXPIRED');
    // The app answers it as an outage (503, try again), not as its own mistake.
    expect(isDatabaseUnavailable(error)).toBe(true);
    tx.close();
  });

  it('keeps an interactive transaction on its stream across requests: unseen by others until COMMIT', async () => {
    const tx = await client.transaction('write');
    await tx.execute("INSERT INTO t (name) VALUES ('tx-a')");
    expect((await client.execute("SELECT count(*) AS n FROM t WHERE name = 'tx-a'")).rows[0].n).toBe(0n);
    await tx.commit();
    expect((await client.execute("SELECT count(*) AS n FROM t WHERE name = 'tx-a'")).rows[0].n).toBe(1n);
    const rolledBack = await client.transaction('write');
    await rolledBack.execute("INSERT INTO t (name) VALUES ('tx-b')");
    await rolledBack.rollback();
    expect((await client.execute("SELECT count(*) AS n FROM t WHERE name = 'tx-b'")).rows[0].n).toBe(0n);
  });
});

describe('local libSQL protocol server: batches', () => {
  it('runs each step by its condition (ok, error, not, and, or, is_autocommit) and reports results and errors per step', async () => {
    const res = await post('/v3/pipeline', {
      requests: [
        {
          type: 'batch',
          batch: {
            steps: [
              { stmt: stmt('INSERT INTO t (name) VALUES (?)', [text('batch-1')]) },
              { stmt: stmt('INSERT INTO t (name) VALUES (?)', [text('batch-1')]) },
              { stmt: stmt('SELECT 2'), condition: ok(1) },
              { stmt: stmt('SELECT 3'), condition: { type: 'error', step: 1 } },
              { stmt: stmt('SELECT 4'), condition: { type: 'not', cond: ok(0) } },
              { stmt: stmt('SELECT 5'), condition: { type: 'and', conds: [ok(0), { type: 'error', step: 1 }] } },
              { stmt: stmt('SELECT 6'), condition: { type: 'or', conds: [ok(2), ok(4)] } },
              { stmt: stmt('SELECT 7'), condition: { type: 'is_autocommit' } },
            ],
          },
        },
        { type: 'close' },
      ],
    });
    expect(res.status).toBe(200);
    const { step_results: results, step_errors: errors } = res.json.results[0].response.result;
    expect(results.map((r: unknown) => r !== null)).toEqual([true, false, false, true, false, true, false, true]);
    expect(errors.map((e: unknown) => e !== null)).toEqual([false, true, false, false, false, false, false, false]);
    expect(errors[1]).toEqual({ message: 'SQLite error: UNIQUE constraint failed: t.name', code: 'SQLITE_CONSTRAINT' });
    expect(results[0]).toMatchObject({
      cols: [],
      rows: [],
      affected_row_count: 1,
      last_insert_rowid: expect.stringMatching(/^\d+$/),
      rows_written: 1,
    });
    expect(results[3].rows).toEqual([[{ type: 'integer', value: '3' }]]);
  });

  it('rolls a whole client batch back when one statement fails (LibsqlBatchError with the step index)', async () => {
    const error = await client
      .batch([
        { sql: 'INSERT INTO t (name) VALUES (?)', args: ['atomic-1'] },
        { sql: 'INSERT INTO t (name) VALUES (?)', args: ['atomic-1'] },
      ])
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(LibsqlBatchError);
    expect((error as LibsqlBatchError).statementIndex).toBe(1);
    expect((error as LibsqlBatchError).code).toBe('SQLITE_CONSTRAINT');
    expect((await client.execute("SELECT count(*) AS n FROM t WHERE name = 'atomic-1'")).rows[0].n).toBe(0n);
  });

  it('streams a batch through the v3 cursor: the baton first, then step_begin, rows, step_end and step_error lines', async () => {
    const res = await post('/v3/cursor', {
      batch: { steps: [{ stmt: stmt('SELECT 1 AS one UNION ALL SELECT 2') }, { stmt: stmt('SELECT * FROM nowhere') }] },
    });
    expect(res.status).toBe(200);
    const lines = res.text
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line));
    expect(lines[0]).toEqual({ baton: expect.any(String), base_url: null });
    expect(lines.slice(1).map((line) => line.type)).toEqual(['step_begin', 'row', 'row', 'step_end', 'step_error']);
    expect(lines[2].row).toEqual([{ type: 'integer', value: '1' }]);
    expect(lines[5].error.code).toBe('SQLITE_UNKNOWN');
  });
});

describe('local libSQL protocol server: values and errors as the client reads them', () => {
  it('round-trips integers past 2^53 (as strings on the wire), floats, text, blobs (base64) and null', async () => {
    const big = 9007199254740993n;
    const data = new Uint8Array([0, 1, 254, 255]);
    await client.execute({
      sql: 'INSERT INTO t (id, name, score, data) VALUES (?, ?, ?, ?)',
      args: [big, 'types £ 🎗', 12.5, data],
    });
    const rs = await client.execute({
      sql: 'SELECT id, name, score, data, NULL AS empty FROM t WHERE id = ?',
      args: [big],
    });
    expect(rs.columns).toEqual(['id', 'name', 'score', 'data', 'empty']);
    expect(rs.columnTypes).toEqual(['INTEGER', 'TEXT', 'REAL', 'BLOB', '']);
    const row = rs.rows[0];
    expect(row.id).toBe(big);
    expect(row.name).toBe('types £ 🎗');
    expect(row.score).toBe(12.5);
    expect(new Uint8Array(row.data as ArrayBuffer)).toEqual(data);
    expect(row.empty).toBeNull();
    expect(rs.rowsAffected).toBe(0);
    const raw = await post('/v2/pipeline', {
      requests: [{ type: 'execute', stmt: stmt("SELECT 9007199254740993, 0.5, x'00ff'") }],
    });
    expect(raw.json.results[0].response.result.rows[0]).toEqual([
      { type: 'integer', value: '9007199254740993' },
      { type: 'float', value: 0.5 },
      { type: 'blob', base64: 'AP8=' },
    ]);
  });

  it('binds a JavaScript number as a float, as the real client and server do (an INTEGER column still stores an integer)', async () => {
    const rs = await client.execute({
      sql: 'SELECT typeof(?) AS kind, typeof(CAST(? AS INTEGER)) AS cast',
      args: [5, 5],
    });
    expect(rs.rows[0]).toMatchObject({ kind: 'real', cast: 'integer' });
    await client.execute({ sql: 'INSERT INTO t (id, name) VALUES (?, ?)', args: [77, 'float-id'] });
    expect((await client.execute('SELECT typeof(id) AS kind FROM t WHERE id = 77')).rows[0].kind).toBe('integer');
  });

  it('words statement errors as sqld does, and the app tells outages from mistakes', async () => {
    const errorOf = (sql: string) =>
      client.execute(sql).then(
        () => new LibsqlError('no error', 'NONE'),
        (e: unknown) => e as LibsqlError,
      );
    const duplicate = await client.execute({ sql: 'INSERT INTO t (name) VALUES (?)', args: ['float-id'] }).then(
      () => new LibsqlError('no error', 'NONE'),
      (e: unknown) => e as LibsqlError,
    );
    expect([duplicate.code, duplicate.message]).toEqual([
      'SQLITE_CONSTRAINT',
      'SQLITE_CONSTRAINT: SQLite error: UNIQUE constraint failed: t.name',
    ]);
    expect((await errorOf('SELEC 1')).code).toBe('SQL_PARSE_ERROR');
    expect((await errorOf('SELECT * FROM nowhere')).message).toBe(
      'SQLITE_UNKNOWN: SQLite error: no such table: nowhere',
    );
    expect((await errorOf('SELECT 1; SELECT 2')).code).toBe('SQL_MANY_STATEMENTS');
    expect((await errorOf('  -- nothing\n')).code).toBe('SQL_NO_STATEMENT');
    // Statement errors are the query's fault (a 500 or 409 in the app), not an outage (503).
    expect(isDatabaseUnavailable(duplicate)).toBe(false);
    // A server that is gone, or one that no longer knows the stream, is an outage.
    const gone = createClient({ url: 'http://127.0.0.1:1' });
    expect(isDatabaseUnavailable(await gone.execute('SELECT 1').catch((e: unknown) => e))).toBe(true);
    // A baton the server no longer knows (as after a restart): 400 text/plain, SERVER_ERROR in the client.
    const forgetful = createClient({
      url: server.url,
      fetch: async (request: Request) => {
        const body = (await request.json()) as { baton?: string };
        if (body.baton) body.baton = `${body.baton.slice(0, -4)}AAAA`;
        return fetch(request.url, { method: 'POST', headers: request.headers, body: JSON.stringify(body) });
      },
    });
    const tx = await forgetful.transaction('write');
    await tx.execute('SELECT 1');
    const lost = await tx.execute('SELECT 2').then(
      () => new LibsqlError('no error', 'NONE'),
      (e: unknown) => e as LibsqlError,
    );
    expect([lost.code, lost.message]).toEqual([
      'SERVER_ERROR',
      'SERVER_ERROR: Server returned HTTP status 400: Received an invalid baton',
    ]);
    expect(isDatabaseUnavailable(lost)).toBe(true);
    tx.close();
  });

  it('tells one statement from several: quotes, comments and trigger bodies hide their semicolons', () => {
    expect(splitStatements('SELECT \'a;b\'; -- c;\n SELECT "x;" /* ; */')).toHaveLength(2);
    expect(
      splitStatements(
        'CREATE TRIGGER tr AFTER INSERT ON t BEGIN UPDATE t SET score = CASE WHEN 1 THEN 2 END; DELETE FROM t WHERE 0; END;',
      ),
    ).toHaveLength(1);
    expect(splitStatements(' ; ;\n')).toHaveLength(0);
  });

  it('serves a database per name under /db/<name>/, each its own file', async () => {
    const a = createClient({ url: `${server.url}/db/alpha/` });
    const b = createClient({ url: `${server.url}/db/beta/` });
    await a.execute('CREATE TABLE only_here (x)');
    expect((await a.execute("SELECT count(*) AS n FROM sqlite_master WHERE name = 'only_here'")).rows[0].n).toBe(1);
    expect((await b.execute("SELECT count(*) AS n FROM sqlite_master WHERE name = 'only_here'")).rows[0].n).toBe(0);
    expect((await post('/db/bad%20name/v2/pipeline', { requests: [] })).status).toBe(400);
  });
});
