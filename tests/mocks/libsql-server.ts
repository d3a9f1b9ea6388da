/**
 * A local stand-in for Turso's server (sqld): Hrana over HTTP, the protocol `@libsql/client`'s web
 * build speaks (v2 and v3 pipelines with JSON bodies, the v3 cursor), on a real libSQL database file
 * opened with the `libsql` engine that `@libsql/client` ships for Node. A fake at the network
 * boundary, like the Stripe one: the app's own client code runs unchanged against it.
 *
 * What it copies from sqld (libsql-server/src/hrana/http): batons (stream id + sequence number +
 * HMAC, a baton is good for one request only), idle streams expiring after 10 s (then
 * STREAM_EXPIRED for 5 minutes, then "invalid baton"), protocol faults as HTTP 400 text/plain,
 * statement errors as `{message, code}` results with HTTP 200 (`SQLITE_CONSTRAINT`,
 * `SQLITE_UNKNOWN` for a plain SQLITE_ERROR, `SQL_PARSE_ERROR`, `SQL_MANY_STATEMENTS`...), values
 * as `{type: integer|float|text|blob|null}` with integers as strings and blobs in base64.
 *
 * What it cannot copy: sqld's rows_read/rows_written come from libSQL's statement counters, which
 * the Node engine does not expose. Here rows_written is the number of rows changed and rows_read
 * is the rows returned plus the full-scan steps SQLite counts for the statement (sqlite_stmt):
 * an estimate, low for index range scans (docs/decisions/028).
 */
import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import Database from 'libsql';

type Conn = InstanceType<typeof Database>;
type Json = Record<string, unknown>;
/** A database file the server serves, with connections kept for the next stream. */
type DatabaseFile = { path: string; idle: Conn[] };

export type LibsqlServerOptions = {
  /** The database file (created if missing). */
  dbPath: string;
  /**
   * Also serve a database per name under `/db/<name>/` (a client URL of `http://host:port/db/<name>/`),
   * each a file `<databasesDir>/<name>.db` created on first use: the test suite's fresh database
   * per test file. sqld tells databases apart by host name (namespaces) instead.
   */
  databasesDir?: string;
  port?: number;
  host?: string;
  /** How long an idle stream (a held baton) lives; sqld uses 10 s. */
  streamIdleMs?: number;
  /** How long an expired stream's baton answers STREAM_EXPIRED before it is forgotten (sqld: 300 s). */
  expiredMemoryMs?: number;
  /** Largest request body accepted (bytes). */
  maxBodyBytes?: number;
  /** Called with each statement run, its rows and full-scan steps (`--log-statements`). */
  onStatement?: (entry: { sql: string; rows: number; fullScanSteps: number; ms: number }) => void;
};

export type LibsqlServer = {
  url: string;
  port: number;
  /** Streams currently held open by a baton. */
  openStreams(): number;
  /** Requests answered, by path, for tests and the log. */
  requests: { method: string; path: string; status: number }[];
  close(): Promise<void>;
};

/** A fault of the client's request: HTTP 400, text/plain, like sqld's ProtocolError. */
class ProtocolError extends Error {}
/** STREAM_EXPIRED: HTTP 400 with a JSON `{message, code}` body, like sqld's StreamError. */
class StreamExpiredError extends Error {
  constructor() {
    super('The stream has expired due to inactivity');
  }
}
/** An error of one statement, reported inside the results as `{message, code}`. */
class StmtError extends Error {
  constructor(
    message: string,
    readonly code: string,
  ) {
    super(message);
  }
}

type Stream = {
  id: bigint;
  database: DatabaseFile;
  seq: bigint;
  conn: Conn | null;
  sqls: Map<number, string>;
  timer?: NodeJS.Timeout;
};

/** sqld caps the SQL texts one stream may store. */
const MAX_STORED_SQLS = 150;

/** The primary result code names sqld reports (rusqlite's ErrorCode; a plain SQLITE_ERROR is "Unknown"). */
const PRIMARY_CODES: Record<number, string> = {
  1: 'SQLITE_UNKNOWN',
  2: 'SQLITE_INTERNAL',
  3: 'SQLITE_PERM',
  4: 'SQLITE_ABORT',
  5: 'SQLITE_BUSY',
  6: 'SQLITE_LOCKED',
  7: 'SQLITE_NOMEM',
  8: 'SQLITE_READONLY',
  9: 'SQLITE_INTERRUPT',
  10: 'SQLITE_IOERR',
  11: 'SQLITE_CORRUPT',
  12: 'SQLITE_NOTFOUND',
  13: 'SQLITE_FULL',
  14: 'SQLITE_CANTOPEN',
  15: 'SQLITE_PROTOCOL',
  17: 'SQLITE_SCHEMA',
  18: 'SQLITE_TOOBIG',
  19: 'SQLITE_CONSTRAINT',
  20: 'SQLITE_MISMATCH',
  21: 'SQLITE_MISUSE',
  22: 'SQLITE_NOLFS',
  23: 'SQLITE_AUTH',
  25: 'SQLITE_RANGE',
  26: 'SQLITE_NOTADB',
};

/** A libsql engine error as sqld words it: parse errors apart, the rest "SQLite error: …". */
function stmtErrorFrom(error: unknown): StmtError {
  if (error instanceof StmtError) return error;
  const message = error instanceof Error ? error.message : String(error);
  const rawCode = (error as { rawCode?: unknown }).rawCode;
  if (/syntax error|incomplete input|unrecognized token/i.test(message)) {
    return new StmtError(`SQL string could not be parsed: ${message}`, 'SQL_PARSE_ERROR');
  }
  const primary = typeof rawCode === 'number' ? PRIMARY_CODES[rawCode & 0xff] : undefined;
  return new StmtError(`SQLite error: ${message}`, primary ?? 'SQLITE_UNKNOWN');
}

/**
 * The statements in a SQL text, split on `;` outside quotes, comments and trigger bodies; empty
 * statements dropped. Enough to tell one statement from several, as sqld's parser does.
 */
export function splitStatements(sql: string): string[] {
  const statements: string[] = [];
  let start = 0;
  let depth = 0;
  let inTrigger = false;
  let i = 0;
  const word = /[A-Za-z_][A-Za-z0-9_]*/y;
  const push = (end: number) => {
    const text = sql.slice(start, end).trim();
    if (stripComments(text).trim()) statements.push(text);
  };
  while (i < sql.length) {
    const ch = sql[i];
    if (ch === "'" || ch === '"' || ch === '`') {
      const close = sql.indexOf(ch, i + 1);
      i = close < 0 ? sql.length : close + 1;
    } else if (ch === '[') {
      const close = sql.indexOf(']', i + 1);
      i = close < 0 ? sql.length : close + 1;
    } else if (ch === '-' && sql[i + 1] === '-') {
      const close = sql.indexOf('\n', i);
      i = close < 0 ? sql.length : close + 1;
    } else if (ch === '/' && sql[i + 1] === '*') {
      const close = sql.indexOf('*/', i + 2);
      i = close < 0 ? sql.length : close + 2;
    } else if (ch === ';' && depth === 0) {
      push(i);
      start = i + 1;
      inTrigger = false;
      i++;
    } else if (/[A-Za-z_]/.test(ch) && (i === 0 || !/[A-Za-z0-9_$]/.test(sql[i - 1]))) {
      word.lastIndex = i;
      const token = (word.exec(sql)?.[0] ?? ch).toUpperCase();
      if (token === 'TRIGGER' && /^\s*CREATE\s+(TEMP\s+|TEMPORARY\s+)?$/i.test(stripComments(sql.slice(start, i))))
        inTrigger = true;
      else if (inTrigger && (token === 'BEGIN' || token === 'CASE')) depth++;
      else if (inTrigger && token === 'END' && depth > 0) depth--;
      i += token.length;
    } else {
      i++;
    }
  }
  push(sql.length);
  return statements;
}

const stripComments = (text: string) => text.replace(/--[^\n]*(\n|$)/g, ' ').replace(/\/\*[\s\S]*?(\*\/|$)/g, ' ');

/** A Hrana value (`{type, value}` / `{type: 'blob', base64}`) as a value the engine binds. */
function decodeValue(value: unknown): unknown {
  if (!value || typeof value !== 'object')
    throw new ProtocolError('Cannot deserialize client message from JSON: a value must be an object');
  const v = value as Json;
  switch (v.type) {
    case 'null':
      return null;
    case 'integer':
      if (typeof v.value !== 'string' || !/^-?\d{1,19}$/.test(v.value)) {
        throw new ProtocolError(
          'Cannot deserialize client message from JSON: an integer value must be a string of digits',
        );
      }
      return BigInt(v.value);
    case 'float':
      if (typeof v.value !== 'number')
        throw new ProtocolError('Cannot deserialize client message from JSON: a float value must be a number');
      return v.value;
    case 'text':
      if (typeof v.value !== 'string')
        throw new ProtocolError('Cannot deserialize client message from JSON: a text value must be a string');
      return v.value;
    case 'blob':
      if (typeof v.base64 !== 'string')
        throw new ProtocolError('Cannot deserialize client message from JSON: a blob value needs base64');
      return Buffer.from(v.base64, 'base64');
    default:
      throw new ProtocolError(
        `Cannot deserialize client message from JSON: unknown value type ${JSON.stringify(v.type)}`,
      );
  }
}

/** An engine value as Hrana JSON: integers as decimal strings, blobs as base64. */
function encodeValue(value: unknown): Json {
  if (value === null || value === undefined) return { type: 'null' };
  if (typeof value === 'bigint') return { type: 'integer', value: value.toString() };
  if (typeof value === 'number') return { type: 'float', value };
  if (typeof value === 'string') return { type: 'text', value };
  if (value instanceof Uint8Array) return { type: 'blob', base64: Buffer.from(value).toString('base64') };
  return { type: 'text', value: String(value) };
}

type StmtResult = {
  cols: { name: string; decltype: string | null }[];
  rows: Json[][];
  affected_row_count: number;
  last_insert_rowid: string | null;
  rows_read: number;
  rows_written: number;
  query_duration_ms: number;
};

/** Statements prepared once per connection (the engine keeps them; sqlite_stmt counts on them). */
const preparedByConn = new WeakMap<Conn, Map<string, ReturnType<Conn['prepare']>>>();

function prepared(conn: Conn, sql: string) {
  let cache = preparedByConn.get(conn);
  if (!cache) preparedByConn.set(conn, (cache = new Map()));
  let stmt = cache.get(sql);
  if (!stmt) {
    stmt = conn.prepare(sql).safeIntegers(true);
    if (cache.size > 500) cache.clear();
    cache.set(sql, stmt);
  }
  return stmt;
}

/** Full-scan steps SQLite has counted so far for this SQL's prepared statement on this connection. */
function fullScanSteps(conn: Conn, sql: string): number {
  const row = prepared(conn, 'SELECT nscan FROM sqlite_stmt WHERE sql = ?').raw(true).get([sql]) as
    | [bigint]
    | undefined;
  return row ? Number(row[0]) : 0;
}

function sqlOf(stmt: Json, sqls: Map<number, string>): string {
  const hasSql = stmt.sql !== undefined && stmt.sql !== null;
  const hasId = stmt.sql_id !== undefined && stmt.sql_id !== null;
  if (hasSql && hasId) throw new ProtocolError('Either `sql` or `sql_id` are required, but not both');
  if (hasSql) {
    if (typeof stmt.sql !== 'string')
      throw new ProtocolError('Cannot deserialize client message from JSON: sql must be a string');
    return stmt.sql;
  }
  if (hasId) {
    const sql = sqls.get(Number(stmt.sql_id));
    if (sql === undefined) throw new ProtocolError(`SQL text ${stmt.sql_id} not found`);
    return sql;
  }
  throw new ProtocolError('Either `sql` or `sql_id` are required');
}

let onStatement: LibsqlServerOptions['onStatement'];

function executeStmt(conn: Conn, stmt: Json, sqls: Map<number, string>): StmtResult {
  if (!stmt || typeof stmt !== 'object')
    throw new ProtocolError('Cannot deserialize client message from JSON: stmt must be an object');
  const sql = sqlOf(stmt, sqls);
  const args = Array.isArray(stmt.args) ? stmt.args : [];
  const namedArgs = Array.isArray(stmt.named_args) ? stmt.named_args : [];
  const positional = args.map(decodeValue);
  const named: Record<string, unknown> = {};
  for (const arg of namedArgs as Json[]) {
    if (!arg || typeof arg.name !== 'string')
      throw new ProtocolError('Cannot deserialize client message from JSON: a named argument needs a name');
    named[arg.name.replace(/^[:@$]/, '')] = decodeValue(arg.value);
  }
  if (positional.length && namedArgs.length) {
    throw new StmtError(
      'Specifying both positional and named arguments is not supported',
      'ARGS_BOTH_POSITIONAL_AND_NAMED',
    );
  }
  const statements = splitStatements(sql);
  if (statements.length === 0) throw new StmtError('SQL string does not contain any statement', 'SQL_NO_STATEMENT');
  if (statements.length > 1) throw new StmtError('SQL string contains more than one statement', 'SQL_MANY_STATEMENTS');

  const started = performance.now();
  let prepared_;
  try {
    prepared_ = prepared(conn, sql);
  } catch (error) {
    throw stmtErrorFrom(error);
  }
  const params = namedArgs.length ? named : positional;
  const scansBefore = fullScanSteps(conn, sql);
  const wantRows = stmt.want_rows !== false;
  let rows: unknown[][] = [];
  let affected = 0;
  let lastInsertRowid: string | null = null;
  try {
    if (prepared_.reader) {
      const changesBefore = totalChanges(conn);
      rows = prepared_.raw(true).all(params) as unknown[][];
      if (totalChanges(conn) !== changesBefore)
        affected = Number((prepared(conn, 'SELECT changes()').raw(true).get([]) as [bigint])[0]);
    } else {
      const info = prepared_.run(params);
      affected = Number(info.changes);
    }
    lastInsertRowid = String((prepared(conn, 'SELECT last_insert_rowid()').raw(true).get([]) as [bigint])[0]);
  } catch (error) {
    throw stmtErrorFrom(error);
  }
  const cols = prepared_.reader
    ? prepared_.columns().map((col) => ({ name: col.name, decltype: col.type ?? null }))
    : [];
  const scans = fullScanSteps(conn, sql) - scansBefore;
  onStatement?.({ sql, rows: rows.length, fullScanSteps: scans, ms: performance.now() - started });
  return {
    cols,
    rows: wantRows ? rows.map((row) => row.map(encodeValue)) : [],
    affected_row_count: affected,
    last_insert_rowid: lastInsertRowid,
    rows_read: rows.length + Math.max(0, scans),
    rows_written: affected,
    query_duration_ms: Math.round((performance.now() - started) * 1000) / 1000,
  };
}

const totalChanges = (conn: Conn) => (prepared(conn, 'SELECT total_changes()').raw(true).get([]) as [bigint])[0];

type Outcome = 'ok' | 'error' | 'skipped';

function evalCond(cond: unknown, outcomes: Outcome[], conn: Conn, version: number): boolean {
  if (!cond || typeof cond !== 'object')
    throw new ProtocolError('Cannot deserialize client message from JSON: a condition must be an object');
  const c = cond as Json;
  switch (c.type) {
    case 'ok':
    case 'error': {
      const step = c.step;
      if (typeof step !== 'number' || !Number.isInteger(step) || step < 0 || step >= outcomes.length) {
        throw new ProtocolError('Invalid reference to step in a batch condition');
      }
      return outcomes[step] === c.type;
    }
    case 'not':
      return !evalCond(c.cond, outcomes, conn, version);
    case 'and':
      if (!Array.isArray(c.conds))
        throw new ProtocolError('Cannot deserialize client message from JSON: `and` needs conds');
      return c.conds.every((inner) => evalCond(inner, outcomes, conn, version));
    case 'or':
      if (!Array.isArray(c.conds))
        throw new ProtocolError('Cannot deserialize client message from JSON: `or` needs conds');
      return c.conds.some((inner) => evalCond(inner, outcomes, conn, version));
    case 'is_autocommit':
      if (version < 3)
        throw new ProtocolError('BatchCond of type `is_autocommit` is only supported in protocol version 3 and higher');
      return !conn.inTransaction;
    default:
      throw new ProtocolError(
        `Cannot deserialize client message from JSON: unknown condition type ${JSON.stringify(c.type)}`,
      );
  }
}

const errorJson = (error: StmtError) => ({ message: error.message, code: error.code });

/** Runs a batch's steps in order; a step runs when its condition holds (no condition: always). */
function* runBatch(conn: Conn, batch: unknown, sqls: Map<number, string>, version: number) {
  if (!batch || typeof batch !== 'object' || !Array.isArray((batch as Json).steps)) {
    throw new ProtocolError('Cannot deserialize client message from JSON: batch.steps must be an array');
  }
  const steps = (batch as { steps: Json[] }).steps;
  const outcomes: Outcome[] = [];
  for (let i = 0; i < steps.length; i++) {
    const step = steps[i];
    if (!step || typeof step !== 'object')
      throw new ProtocolError('Cannot deserialize client message from JSON: a batch step must be an object');
    // Conditions refer to earlier steps only.
    const run =
      step.condition === undefined || step.condition === null || evalCond(step.condition, outcomes, conn, version);
    if (!run) {
      outcomes.push('skipped');
      yield { step: i, skipped: true as const };
      continue;
    }
    try {
      const result = executeStmt(conn, step.stmt as Json, sqls);
      outcomes.push('ok');
      yield { step: i, result };
    } catch (error) {
      if (error instanceof ProtocolError) throw error;
      outcomes.push('error');
      yield { step: i, error: stmtErrorFrom(error) };
    }
  }
}

/** Starts the server; resolves once it listens. */
export async function startLibsqlServer(options: LibsqlServerOptions): Promise<LibsqlServer> {
  const idleMs = options.streamIdleMs ?? 10_000;
  const expiredMemoryMs = options.expiredMemoryMs ?? 300_000;
  const maxBody = options.maxBodyBytes ?? 10 * 1024 * 1024;
  const batonKey = randomBytes(32);
  onStatement = options.onStatement;
  const streams = new Map<bigint, Stream | 'acquired' | 'expired'>();
  const requests: LibsqlServer['requests'] = [];
  const databases = new Map<string, DatabaseFile>();

  const databaseAt = (path: string): DatabaseFile => {
    let database = databases.get(path);
    if (!database) {
      const setup = new Database(path);
      // WAL: a stream holding a write transaction does not block other streams' reads.
      setup.exec('PRAGMA journal_mode = WAL');
      setup.close();
      database = { path, idle: [] };
      databases.set(path, database);
    }
    return database;
  };
  databaseAt(options.dbPath);

  const openConn = (database: DatabaseFile): Conn => database.idle.pop() ?? new Database(database.path);
  /** A closed stream's connection: rolled back to autocommit and kept for the next stream. */
  const releaseConn = (stream: Stream) => {
    const conn = stream.conn;
    stream.conn = null;
    if (!conn) return;
    try {
      if (conn.inTransaction) conn.exec('ROLLBACK');
      conn.exec('PRAGMA foreign_keys = ON');
      if (stream.database.idle.length < (stream.database.path === options.dbPath ? 4 : 1))
        stream.database.idle.push(conn);
      else conn.close();
    } catch {
      conn.close();
    }
  };

  const encodeBaton = (stream: Stream) => {
    const payload = Buffer.alloc(16);
    payload.writeBigUInt64BE(stream.id, 0);
    payload.writeBigUInt64BE(stream.seq, 8);
    const mac = createHmac('sha256', batonKey).update(payload).digest();
    return Buffer.concat([payload, mac]).toString('base64').replace(/=+$/, '');
  };
  const decodeBaton = (baton: string): { id: bigint; seq: bigint } => {
    const data = /^[A-Za-z0-9+/]*$/.test(baton) ? Buffer.from(baton, 'base64') : Buffer.alloc(0);
    if (data.length !== 48) throw new ProtocolError('Received an invalid baton');
    const payload = data.subarray(0, 16);
    const mac = createHmac('sha256', batonKey).update(payload).digest();
    if (!timingSafeEqual(mac, data.subarray(16))) throw new ProtocolError('Received an invalid baton');
    return { id: payload.readBigUInt64BE(0), seq: payload.readBigUInt64BE(8) };
  };

  const acquire = (baton: unknown, database: DatabaseFile): Stream => {
    if (baton === undefined || baton === null) {
      let id = randomBytes(8).readBigUInt64BE(0);
      while (streams.has(id)) id = randomBytes(8).readBigUInt64BE(0);
      const stream: Stream = {
        id,
        database,
        seq: randomBytes(8).readBigUInt64BE(0),
        conn: openConn(database),
        sqls: new Map(),
      };
      streams.set(id, 'acquired');
      return stream;
    }
    if (typeof baton !== 'string')
      throw new ProtocolError('Cannot deserialize client message from JSON: baton must be a string');
    const { id, seq } = decodeBaton(baton);
    const handle = streams.get(id);
    if (handle === undefined || (typeof handle === 'object' && handle.database !== database))
      throw new ProtocolError('Received an invalid baton');
    if (handle === 'acquired') throw new ProtocolError('Received a baton that has already been used');
    if (handle === 'expired') throw new StreamExpiredError();
    if (handle.seq !== seq) throw new ProtocolError('Received a baton that has already been used');
    clearTimeout(handle.timer);
    handle.seq = BigInt.asUintN(64, handle.seq + 1n);
    streams.set(id, 'acquired');
    return handle;
  };

  /** Ends a request's hold on a stream: a baton for the next request, or null once closed. */
  const release = (stream: Stream): string | null => {
    if (!stream.conn) {
      streams.delete(stream.id);
      return null;
    }
    streams.set(stream.id, stream);
    stream.timer = setTimeout(() => {
      if (streams.get(stream.id) !== stream) return;
      releaseConn(stream);
      streams.set(stream.id, 'expired');
      setTimeout(() => streams.get(stream.id) === 'expired' && streams.delete(stream.id), expiredMemoryMs).unref();
    }, idleMs);
    stream.timer.unref();
    return encodeBaton(stream);
  };
  /** A request failed with a protocol fault: sqld drops the stream it held. */
  const drop = (stream: Stream) => {
    releaseConn(stream);
    streams.delete(stream.id);
  };

  const connOf = (stream: Stream): Conn => {
    if (!stream.conn) throw new ProtocolError('Stream for this baton was closed');
    return stream.conn;
  };

  function handleStreamRequest(stream: Stream, request: Json, version: number): Json {
    switch (request.type) {
      case 'close':
        releaseConn(stream);
        return { type: 'close' };
      case 'execute':
        try {
          return { type: 'execute', result: executeStmt(connOf(stream), request.stmt as Json, stream.sqls) };
        } catch (error) {
          if (error instanceof ProtocolError) throw error;
          throw stmtErrorFrom(error);
        }
      case 'batch': {
        const conn = connOf(stream);
        const stepResults: (StmtResult | null)[] = [];
        const stepErrors: (Json | null)[] = [];
        for (const step of runBatch(conn, request.batch, stream.sqls, version)) {
          stepResults.push('result' in step && step.result ? step.result : null);
          stepErrors.push('error' in step && step.error ? errorJson(step.error) : null);
        }
        return { type: 'batch', result: { step_results: stepResults, step_errors: stepErrors } };
      }
      case 'sequence': {
        const conn = connOf(stream);
        const sql = sqlOf(request, stream.sqls);
        try {
          conn.exec(sql);
        } catch (error) {
          throw stmtErrorFrom(error);
        }
        return { type: 'sequence' };
      }
      case 'describe': {
        const conn = connOf(stream);
        const sql = sqlOf(request, stream.sqls);
        try {
          const stmt = conn.prepare(sql);
          const cols = stmt.reader ? stmt.columns().map((col) => ({ name: col.name, decltype: col.type ?? null })) : [];
          const isExplain = /^\s*EXPLAIN\b/i.test(sql);
          const isReadonly = /^\s*(SELECT|WITH|EXPLAIN|VALUES)\b/i.test(stripComments(sql));
          return { type: 'describe', result: { params: [], cols, is_explain: isExplain, is_readonly: isReadonly } };
        } catch (error) {
          throw stmtErrorFrom(error);
        }
      }
      case 'store_sql': {
        if (typeof request.sql !== 'string' || typeof request.sql_id !== 'number') {
          throw new ProtocolError('Cannot deserialize client message from JSON: store_sql needs sql and sql_id');
        }
        if (stream.sqls.has(request.sql_id)) throw new ProtocolError(`SQL text ${request.sql_id} already exists`);
        if (stream.sqls.size >= MAX_STORED_SQLS) {
          throw new StmtError(
            `The server already stores ${stream.sqls.size} SQL texts, it cannot store more`,
            'SQL_STORE_TOO_MANY',
          );
        }
        stream.sqls.set(request.sql_id, request.sql);
        return { type: 'store_sql' };
      }
      case 'close_sql':
        stream.sqls.delete(Number(request.sql_id));
        return { type: 'close_sql' };
      case 'get_autocommit':
        if (version < 3)
          throw new ProtocolError('The `get_autocommit` request is only supported in protocol version 3 and higher');
        return { type: 'get_autocommit', is_autocommit: !connOf(stream).inTransaction };
      default:
        throw new ProtocolError(
          `Cannot deserialize client message from JSON: unknown request type ${JSON.stringify(request.type)}`,
        );
    }
  }

  function pipeline(body: Json, version: number, database: DatabaseFile): Json {
    if (!Array.isArray(body.requests))
      throw new ProtocolError('Cannot deserialize client message from JSON: missing field `requests`');
    const stream = acquire(body.baton, database);
    try {
      const results = body.requests.map((request: unknown) => {
        if (!request || typeof request !== 'object')
          throw new ProtocolError('Cannot deserialize client message from JSON: a request must be an object');
        try {
          return { type: 'ok', response: handleStreamRequest(stream, request as Json, version) };
        } catch (error) {
          if (error instanceof StmtError) return { type: 'error', error: errorJson(error) };
          throw error;
        }
      });
      return { baton: release(stream), base_url: null, results };
    } catch (error) {
      drop(stream);
      throw error;
    }
  }

  /** /v3/cursor: one JSON line with the baton, then step_begin / row / step_end / step_error lines. */
  function cursor(body: Json, database: DatabaseFile): string[] {
    const stream = acquire(body.baton, database);
    try {
      const conn = connOf(stream);
      const lines: string[] = [];
      const entries: Json[] = [];
      for (const step of runBatch(conn, body.batch, stream.sqls, 3)) {
        if ('error' in step && step.error)
          entries.push({ type: 'step_error', step: step.step, error: errorJson(step.error) });
        else if ('result' in step && step.result) {
          const r = step.result;
          entries.push({ type: 'step_begin', step: step.step, cols: r.cols });
          for (const row of r.rows) entries.push({ type: 'row', row });
          entries.push({
            type: 'step_end',
            affected_row_count: r.affected_row_count,
            last_insert_rowid: r.last_insert_rowid,
          });
        }
      }
      lines.push(JSON.stringify({ baton: release(stream), base_url: null }));
      for (const entry of entries) lines.push(JSON.stringify(entry));
      return lines;
    } catch (error) {
      drop(stream);
      throw error;
    }
  }

  const readBody = (req: IncomingMessage): Promise<Buffer | null> =>
    new Promise((resolve, reject) => {
      const chunks: Buffer[] = [];
      let size = 0;
      // Past the limit the rest is read and dropped, so the client gets its 413 rather than a reset.
      req.on('data', (chunk: Buffer) => {
        size += chunk.length;
        if (size <= maxBody) chunks.push(chunk);
      });
      req.on('end', () => resolve(size > maxBody ? null : Buffer.concat(chunks)));
      req.on('error', reject);
    });

  const send = (res: ServerResponse, status: number, type: string | null, body: string) => {
    if (type) res.setHeader('content-type', type);
    res.statusCode = status;
    res.end(body);
  };

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    let path = new URL(req.url ?? '/', 'http://localhost').pathname;
    const method = req.method ?? 'GET';
    let database = databaseAt(options.dbPath);
    const named = /^\/db\/([^/]*)(\/.*)$/.exec(path);
    if (named && options.databasesDir) {
      if (!/^[A-Za-z0-9-]{1,64}$/.test(named[1]))
        return send(res, 400, 'text/plain', 'A database name is 1-64 letters, digits and dashes');
      database = databaseAt(join(options.databasesDir, `${named[1]}.db`));
      path = named[2];
    }
    if (method === 'GET') {
      if (path === '/') return send(res, 200, 'text/plain', 'Hello, this is HTTP API v2 (Hrana over HTTP)');
      if (path === '/health') return send(res, 200, null, '');
      if (path === '/version') return send(res, 200, 'text/plain', 'turso-local (Hrana over HTTP v2/v3, JSON)');
      // The JSON versions only: a client probing for v3 over Protobuf falls back to these.
      if (path === '/v2' || path === '/v3') return send(res, 200, null, '');
      return send(res, /^\/v[23]\/(pipeline|cursor)$/.test(path) ? 405 : 404, null, '');
    }
    const route = /^\/(v2|v3)\/(pipeline|cursor)$/.exec(path);
    if (!route || (route[1] === 'v2' && route[2] === 'cursor'))
      return send(res, method === 'POST' ? 404 : 405, null, '');
    if (method !== 'POST') return send(res, 405, null, '');
    const raw = await readBody(req);
    if (raw === null) {
      res.setHeader('connection', 'close');
      return send(res, 413, 'text/plain', `Request body is larger than ${maxBody} bytes`);
    }
    let body: unknown;
    try {
      body = JSON.parse(raw.toString('utf8'));
    } catch (error) {
      return send(res, 400, 'text/plain', `Cannot deserialize client message from JSON: ${(error as Error).message}`);
    }
    if (!body || typeof body !== 'object' || Array.isArray(body)) {
      return send(res, 400, 'text/plain', 'Cannot deserialize client message from JSON: expected an object');
    }
    const version = route[1] === 'v3' ? 3 : 2;
    try {
      if (route[2] === 'pipeline')
        return send(res, 200, 'application/json', JSON.stringify(pipeline(body as Json, version, database)));
      const lines = cursor(body as Json, database);
      return send(res, 200, 'text/plain', `${lines.join('\n')}\n`);
    } catch (error) {
      if (error instanceof ProtocolError) return send(res, 400, 'text/plain', error.message);
      if (error instanceof StreamExpiredError)
        return send(res, 400, 'application/json', JSON.stringify({ message: error.message, code: 'STREAM_EXPIRED' }));
      if (error instanceof StmtError) return send(res, 400, 'application/json', JSON.stringify(errorJson(error)));
      return send(
        res,
        500,
        'application/json',
        JSON.stringify({ error: `Internal Error: ${(error as Error).message}` }),
      );
    }
  }

  const server: Server = createServer((req, res) => {
    handle(req, res)
      .catch((error) => {
        if (!res.headersSent)
          send(res, 500, 'application/json', JSON.stringify({ error: `Internal Error: ${(error as Error).message}` }));
      })
      .finally(() => {
        requests.push({ method: req.method ?? '', path: req.url ?? '', status: res.statusCode });
        if (requests.length > 1000) requests.splice(0, requests.length - 1000);
      });
  });
  // A client that stops sending mid-body is cut off rather than held forever.
  server.requestTimeout = 30_000;
  server.headersTimeout = 10_000;
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, options.host ?? '127.0.0.1', () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  const host = options.host ?? '127.0.0.1';
  return {
    url: `http://${host}:${port}`,
    port,
    requests,
    openStreams: () => [...streams.values()].filter((s) => typeof s === 'object').length,
    close: async () => {
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      });
      for (const handle of streams.values()) {
        if (typeof handle === 'object') {
          clearTimeout(handle.timer);
          handle.conn?.close();
        }
      }
      streams.clear();
      for (const database of databases.values()) for (const conn of database.idle.splice(0)) conn.close();
    },
  };
}
