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
 * as `{type: integer|float|text|blob|null}` with integers as strings and blobs in base64. A body is
 * checked whole before anything runs (sqld decodes it first), a batch's SQL is parsed before its
 * first step, and each stream sees a connection as fresh as sqld's: nothing another stream set
 * (PRAGMAs, temp tables, changes(), last_insert_rowid()) carries over.
 *
 * Statements run on libsql's own threads (its promise API), so a long query does not stall other
 * requests; one running past `statementTimeoutMs` is interrupted (SQLITE_INTERRUPT). Writers take
 * turns, as in SQLite, D1 and sqld: a server-wide write lock per file (first come, first served)
 * is held by a stream from a write, a batch's first write or BEGIN, or a BEGIN of `execute`, until
 * its transaction ends (COMMIT, ROLLBACK, or the stream closing or expiring, which rolls back);
 * reads outside a transaction take none. A writer waits up to `busyTimeoutMs` for it (and for a
 * file locked by another process), as sqld's busy handler does, before answering SQLITE_BUSY.
 * Open streams are capped (`maxStreams`): each holds a connection.
 *
 * What it cannot copy: sqld's rows_read/rows_written come from libSQL's statement counters, which
 * the Node engine does not expose. Here rows_written is the number of rows changed and rows_read
 * is the rows returned plus the full-scan steps SQLite counts for the statement (sqlite_stmt):
 * an estimate, low for index range scans (docs/decisions/028). Nor sqld's lock stealing: a
 * transaction holding the write lock is never rolled back for a waiting writer. And connections
 * are pooled, not fresh: each has a private in-memory schema attached (`turso_local`, seen in
 * PRAGMA database_list) for resetting changes() and last_insert_rowid(), and one a stream changed
 * (PRAGMA, ATTACH, temp objects) is closed rather than pooled.
 */
import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import Database from 'libsql';
import AsyncDatabase from 'libsql/promise';

type Json = Record<string, unknown>;
type Params = unknown[] | Record<string, unknown>;

/** A statement of libsql's promise API: `iterate` runs its first step on libsql's threads. */
type Stmt = {
  readonly reader: boolean;
  raw(on?: boolean): Stmt;
  safeIntegers(on?: boolean): Stmt;
  iterate(params: Params): Promise<IterableIterator<unknown>>;
  get(params: Params): unknown;
  run(params: Params): unknown;
  columns(): { name: string; type: string | null }[];
};
/** A connection of libsql's promise API (the parts used here). */
type Native = {
  prepare(sql: string): Promise<Stmt>;
  exec(sql: string): Promise<void>;
  interrupt(): void;
  close(): void;
  readonly inTransaction: boolean;
};

type ServerConfig = {
  statementTimeoutMs: number;
  busyTimeoutMs: number;
  onStatement?: LibsqlServerOptions['onStatement'];
};
/** A database file the server serves. */
type DatabaseFile = {
  path: string;
  config: ServerConfig;
  /** Writers waiting for the file's write lock: called whenever a statement or stream of it ends. */
  waiters: Set<() => void>;
  /**
   * The server's write lock on the file (SQLite's one writer at a time, which sqld keeps by making
   * writers wait): the stream holding it, and the streams waiting for it, first come first served.
   */
  writer: Stream | null;
  queue: LockWaiter[];
};
/** A stream waiting for a file's write lock, until `busyTimeoutMs`. */
type LockWaiter = { stream: Stream; grant: () => void; fail: (error: Error) => void };

/** One libSQL connection, with the statements it prepared. */
type Conn = {
  native: Native;
  database: DatabaseFile;
  /** User statements by SQL text, prepared once (sqlite_stmt counts full scans on them). */
  stmts: Map<string, Stmt>;
  /** changes(), last_insert_rowid(), total_changes(). */
  counters: Stmt;
  nscan: Stmt;
  tempObjects: Stmt;
  rollback: Stmt;
  resetCounters: Stmt[];
  /**
   * A statement failed mid-step (SQLITE_BUSY, SQLITE_LOCKED): libsql does not reset it, so it keeps
   * its transaction open until finalized, and anything run on the connection later would never
   * commit. The connection is never used again once out of a transaction.
   */
  broken: boolean;
  /** The stream changed connection state (PRAGMA, ATTACH, DETACH): no other stream inherits it. */
  tainted: boolean;
};

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
  /** A statement running longer is interrupted and answers SQLITE_INTERRUPT (default 10 s). */
  statementTimeoutMs?: number;
  /** How long a write waits for another connection's write lock before SQLITE_BUSY (default 5 s). */
  busyTimeoutMs?: number;
  /** Streams open at once (each holds a connection); past it a new stream gets HTTP 503 (default 128). */
  maxStreams?: number;
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
/** Every stream slot is taken: HTTP 503 with a Hrana `{message, code}` body. */
class TooManyStreamsError extends Error {}
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

/** sqld's HTTP limits on the SQL texts one stream may store (hrana/http/request.rs). */
const MAX_SQL_COUNT = 50;
const MAX_STORED_SQL_BYTES = 5000;
/** serde_json, which decodes sqld's requests, refuses JSON nested deeper than 128. */
const MAX_CONDITION_DEPTH = 100;
/** Idle connections kept for the next streams, across all files. */
const MAX_IDLE_CONNECTIONS = 16;

/**
 * libsql (0.5) closes a connection's file only once every statement it prepared is garbage
 * collected, and V8 does not see that pressure: a burst of streams whose connections are closed
 * would run the process out of file descriptors. So closing connections asks for a collection soon.
 */
const collectGarbage = (() => {
  try {
    setFlagsFromString('--expose-gc');
    return runInNewContext('gc') as () => void;
  } catch {
    return () => {};
  }
})();
let collectTimer: NodeJS.Timeout | undefined;
const collectSoon = () => {
  collectTimer ??= setTimeout(() => {
    collectTimer = undefined;
    collectGarbage();
  }, 100).unref();
};

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

const rawCodeOf = (error: unknown): number | undefined => {
  const rawCode = (error as { rawCode?: unknown } | null)?.rawCode;
  return typeof rawCode === 'number' ? rawCode : undefined;
};

/** A libsql engine error as sqld words it: parse errors apart, the rest "SQLite error: …". */
function stmtErrorFrom(error: unknown): StmtError {
  if (error instanceof StmtError) return error;
  const message = error instanceof Error ? error.message : String(error);
  if (/syntax error|incomplete input|unrecognized token/i.test(message)) {
    return new StmtError(`SQL string could not be parsed: ${message}`, 'SQL_PARSE_ERROR');
  }
  const rawCode = rawCodeOf(error);
  const primary = rawCode === undefined ? undefined : PRIMARY_CODES[rawCode & 0xff];
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

/** sqld reports last_insert_rowid for an INSERT only (its parser's `is_insert`), null otherwise. */
const isInsert = (sql: string) => /^(WITH\b[\s\S]*?\)\s*)?(INSERT|REPLACE)\b/i.test(stripComments(sql).trim());

const TRANSACTION_CONTROL = /^\s*(BEGIN|COMMIT|END|ROLLBACK|SAVEPOINT|RELEASE)\b/i;

/**
 * What a statement needs of the file's write lock (see `takeWriteLock`): `none` for a plain read
 * and for ending a transaction, `begin` for a BEGIN that may go on to write (a batch that only
 * reads and ends its transaction runs it without the lock), `write` for anything that may write. Be
 * conservative: what is not known to be a read is a write.
 */
type LockNeed = 'none' | 'begin' | 'write';
/** PRAGMAs that write (or checkpoint) though they take no value. */
const WRITING_PRAGMAS = new Set(['optimize', 'incremental_vacuum', 'wal_checkpoint']);
/** PRAGMAs that only report, though they take an argument. */
const READING_PRAGMA_CALLS = new Set([
  'table_info',
  'table_xinfo',
  'table_list',
  'index_info',
  'index_xinfo',
  'index_list',
  'foreign_key_list',
  'foreign_key_check',
  'integrity_check',
  'quick_check',
]);
function lockNeedOf(sql: string, inTransaction: boolean): LockNeed {
  const text = stripComments(sql).trim();
  if (/^(COMMIT|END|ROLLBACK|RELEASE)\b/i.test(text)) return 'none';
  if (/^BEGIN\b/i.test(text)) {
    if (/\bREADONLY\b/i.test(text)) return 'none';
    return /^BEGIN\s+(IMMEDIATE|EXCLUSIVE)\b/i.test(text) ? 'write' : 'begin';
  }
  // A savepoint outside a transaction opens one.
  if (/^SAVEPOINT\b/i.test(text)) return inTransaction ? 'none' : 'write';
  if (/^(SELECT|VALUES|EXPLAIN)\b/i.test(text)) return 'none';
  // WITH ... SELECT reads; WITH ... INSERT/UPDATE/DELETE writes (any such word counts).
  if (/^WITH\b/i.test(text)) return /\b(INSERT|UPDATE|DELETE|REPLACE)\b/i.test(text) ? 'write' : 'none';
  const pragma = /^PRAGMA\s+(?:\w+\s*\.\s*)?(\w+)\s*(\(\s*[\w'"]*\s*\))?\s*;?$/i.exec(text);
  if (pragma) {
    const name = pragma[1].toLowerCase();
    if (pragma[2] === undefined) return WRITING_PRAGMAS.has(name) ? 'write' : 'none';
    return READING_PRAGMA_CALLS.has(name) ? 'none' : 'write';
  }
  return 'write';
}

/** Statements that change what the connection is for later streams (query_only, foreign_keys, ATTACH...). */
const changesConnectionState = (sql: string) => /\b(PRAGMA|ATTACH|DETACH)\b/i.test(sql);

const I64_MIN = -(2n ** 63n);
const I64_MAX = 2n ** 63n - 1n;
/** Standard base64, padded or not (sqld's decoder accepts both). */
const BASE64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}(?:==)?|[A-Za-z0-9+/]{3}=?)?$/;

/** A fault serde would find decoding the body: sqld answers 400 before running anything. */
const badJson = (detail: string) => new ProtocolError(`Cannot deserialize client message from JSON: ${detail}`);
const isObject = (value: unknown): value is Json =>
  typeof value === 'object' && value !== null && !Array.isArray(value);
const isI32 = (value: unknown) => Number.isInteger(value) && Math.abs(value as number) <= 2 ** 31 - 1;

/** A Hrana value (`{type, value}` / `{type: 'blob', base64}`) as a value the engine binds. */
function decodeValue(value: unknown): unknown {
  if (!isObject(value)) throw badJson('a value must be an object');
  switch (value.type) {
    case 'null':
      return null;
    case 'integer': {
      if (typeof value.value !== 'string' || !/^-?\d{1,19}$/.test(value.value))
        throw badJson('an integer value must be a string of digits');
      const integer = BigInt(value.value);
      if (integer < I64_MIN || integer > I64_MAX) throw badJson(`integer value ${value.value} is out of 64-bit range`);
      return integer;
    }
    case 'float':
      if (typeof value.value !== 'number') throw badJson('a float value must be a number');
      return value.value;
    case 'text':
      if (typeof value.value !== 'string') throw badJson('a text value must be a string');
      return value.value;
    case 'blob':
      if (typeof value.base64 !== 'string') throw badJson('a blob value needs base64');
      if (!BASE64.test(value.base64)) throw badJson('a blob value is not valid base64');
      return Buffer.from(value.base64, 'base64');
    default:
      throw badJson(`unknown value type ${JSON.stringify(value.type)}`);
  }
}

/** An engine value as Hrana JSON: integers as decimal strings, blobs as base64. */
function encodeValue(value: unknown): Json {
  if (value === null || value === undefined) return { type: 'null' };
  if (typeof value === 'bigint') return { type: 'integer', value: value.toString() };
  if (typeof value === 'number') return { type: 'float', value };
  if (typeof value === 'string') return { type: 'text', value };
  if (value instanceof Uint8Array || value instanceof ArrayBuffer)
    return { type: 'blob', base64: Buffer.from(value as Uint8Array).toString('base64') };
  return { type: 'text', value: String(value) };
}

// ---- Checking a request body whole, before anything runs -------------------------------------

/**
 * sqld decodes the whole body (serde) before it acquires the stream, and builds a batch (every
 * step, every condition) before running its first step: a malformed request anywhere is a 400 and
 * nothing has run. The same checks, up front, for every request of a pipeline.
 */
function checkPipelineBody(body: Json, version: number): void {
  checkBaton(body.baton);
  if (!Array.isArray(body.requests)) throw badJson('missing field `requests`');
  for (const request of body.requests) checkRequest(request, version);
}

function checkCursorBody(body: Json, version: number): void {
  checkBaton(body.baton);
  checkBatch(body.batch, version);
}

function checkBaton(baton: unknown): void {
  if (baton !== undefined && baton !== null && typeof baton !== 'string') throw badJson('baton must be a string');
}

function checkRequest(request: unknown, version: number): void {
  if (!isObject(request)) throw badJson('a request must be an object');
  switch (request.type) {
    case 'close':
      return;
    case 'get_autocommit':
      if (version < 3)
        throw new ProtocolError('The `get_autocommit` request is only supported in protocol version 3 and higher');
      return;
    case 'execute':
      return checkStmt(request.stmt);
    case 'batch':
      return checkBatch(request.batch, version);
    case 'sequence':
    case 'describe':
      return checkSqlSource(request);
    case 'store_sql':
      if (!isI32(request.sql_id) || typeof request.sql !== 'string') throw badJson('store_sql needs sql and sql_id');
      return;
    case 'close_sql':
      if (!isI32(request.sql_id)) throw badJson('close_sql needs an integer sql_id');
      return;
    default:
      throw badJson(`unknown request type ${JSON.stringify(request.type)}`);
  }
}

/** `sql` or `sql_id`, exactly one. Whether a `sql_id` is stored is known only when it runs. */
function checkSqlSource(source: Json): void {
  const hasSql = source.sql !== undefined && source.sql !== null;
  const hasId = source.sql_id !== undefined && source.sql_id !== null;
  if (hasSql && typeof source.sql !== 'string') throw badJson('sql must be a string');
  if (hasId && !isI32(source.sql_id)) throw badJson('sql_id must be an integer');
  if (hasSql && hasId) throw new ProtocolError('Either `sql` or `sql_id` are required, but not both');
  if (!hasSql && !hasId) throw new ProtocolError('Either `sql` or `sql_id` are required');
}

function checkStmt(stmt: unknown): void {
  if (!isObject(stmt)) throw badJson('stmt must be an object');
  checkSqlSource(stmt);
  if (stmt.args !== undefined) {
    if (!Array.isArray(stmt.args)) throw badJson('args must be an array of values');
    stmt.args.forEach(decodeValue);
  }
  if (stmt.named_args !== undefined) {
    if (!Array.isArray(stmt.named_args)) throw badJson('named_args must be an array');
    for (const arg of stmt.named_args) {
      if (!isObject(arg) || typeof arg.name !== 'string') throw badJson('a named argument needs a name');
      decodeValue(arg.value);
    }
  }
  if (stmt.want_rows !== undefined && stmt.want_rows !== null && typeof stmt.want_rows !== 'boolean')
    throw badJson('want_rows must be a boolean');
}

function checkBatch(batch: unknown, version: number): void {
  if (!isObject(batch) || !Array.isArray(batch.steps)) throw badJson('batch.steps must be an array');
  batch.steps.forEach((step: unknown, index: number) => {
    if (!isObject(step)) throw badJson('a batch step must be an object');
    checkStmt(step.stmt);
    if (step.condition !== undefined && step.condition !== null) checkCond(step.condition, index, version, 0);
  });
}

function checkCond(cond: unknown, stepIndex: number, version: number, depth: number): void {
  if (depth > MAX_CONDITION_DEPTH) throw badJson('recursion limit exceeded');
  if (!isObject(cond)) throw badJson('a condition must be an object');
  switch (cond.type) {
    case 'ok':
    case 'error':
      if (!Number.isInteger(cond.step) || (cond.step as number) < 0)
        throw badJson('a condition step must be a non-negative integer');
      // Conditions refer to earlier steps only.
      if ((cond.step as number) >= stepIndex) throw new ProtocolError('Invalid reference to step in a batch condition');
      return;
    case 'not':
      return checkCond(cond.cond, stepIndex, version, depth + 1);
    case 'and':
    case 'or':
      if (!Array.isArray(cond.conds)) throw badJson(`\`${cond.type}\` needs conds`);
      for (const inner of cond.conds) checkCond(inner, stepIndex, version, depth + 1);
      return;
    case 'is_autocommit':
      if (version < 3)
        throw new ProtocolError('BatchCond of type `is_autocommit` is only supported in protocol version 3 and higher');
      return;
    default:
      throw badJson(`unknown condition type ${JSON.stringify(cond.type)}`);
  }
}

// ---- Running statements ---------------------------------------------------------------------

type StmtResult = {
  cols: { name: string; decltype: string | null }[];
  rows: Json[][];
  affected_row_count: number;
  last_insert_rowid: string | null;
  rows_read: number;
  rows_written: number;
  query_duration_ms: number;
};

/** A connection of its own to the file, with the statements every stream needs prepared. */
async function openConnection(database: DatabaseFile): Promise<Conn> {
  const native = new AsyncDatabase(database.path, {}) as unknown as Native;
  try {
    // A private in-memory schema holding one table: inserting rowid 0 there (rolled back) is the
    // only way SQL has to put changes() and last_insert_rowid() back to 0 between streams.
    await native.exec("ATTACH ':memory:' AS turso_local; CREATE TABLE turso_local.turso_local_counters (x)");
    const prepare = async (sql: string) => (await native.prepare(sql)).safeIntegers(true);
    const resetCounters: Stmt[] = [];
    for (const sql of [
      'SAVEPOINT turso_local_reset',
      'INSERT INTO turso_local.turso_local_counters (rowid) VALUES (0)',
      'DELETE FROM turso_local.turso_local_counters WHERE 0',
      'ROLLBACK TO turso_local_reset',
      'RELEASE turso_local_reset',
    ])
      resetCounters.push(await prepare(sql));
    return {
      native,
      database,
      stmts: new Map(),
      counters: (await prepare('SELECT changes(), last_insert_rowid(), total_changes()')).raw(true),
      nscan: (await prepare('SELECT nscan FROM sqlite_stmt WHERE sql = ?')).raw(true),
      tempObjects: (await prepare('SELECT count(*) FROM temp.sqlite_master')).raw(true),
      rollback: await prepare('ROLLBACK'),
      resetCounters,
      broken: false,
      tainted: false,
    };
  } catch (error) {
    native.close();
    throw error;
  }
}

const counters = (conn: Conn) => conn.counters.get([]) as [bigint, bigint, bigint];

/** Full-scan steps SQLite has counted so far for this SQL's prepared statement on this connection. */
const fullScanSteps = (conn: Conn, sql: string): number => {
  const row = conn.nscan.get([sql]) as [bigint] | undefined;
  return row ? Number(row[0]) : 0;
};

/** A user statement, prepared once per connection. */
async function prepareStmt(conn: Conn, sql: string): Promise<Stmt> {
  let stmt = conn.stmts.get(sql);
  if (!stmt) {
    stmt = (await conn.native.prepare(sql)).safeIntegers(true);
    if (stmt.reader) stmt.raw(true);
    if (conn.stmts.size >= 500) conn.stmts.clear();
    conn.stmts.set(sql, stmt);
  }
  return stmt;
}

/** Whoever waits for the file's write lock tries again: a statement or stream of it just ended. */
const locksMayHaveChanged = (database: DatabaseFile) => {
  for (const wake of [...database.waiters]) wake();
};
const lockBusy = () => new StmtError('SQLite error: database is locked', 'SQLITE_BUSY');

/**
 * The file's write lock for this stream, held until `dropWriteLock`: at once if the stream holds it
 * already (its own transaction), else after the streams waiting before it, waiting at most
 * `busyTimeoutMs` (then SQLITE_BUSY, as sqld's busy handler answers). SQLite, D1 and sqld all have
 * one writer at a time; without the lock two deferred transactions that read and then write would
 * run at once on two connections, and the second to write would fail at once (SQLITE_BUSY_SNAPSHOT,
 * which no busy handler waits out) where sqld makes it wait its turn.
 */
function takeWriteLock(stream: Stream): Promise<void> {
  const database = stream.database;
  if (database.writer === stream) return Promise.resolve();
  if (database.writer === null && database.queue.length === 0) {
    database.writer = stream;
    return Promise.resolve();
  }
  const { busyTimeoutMs } = database.config;
  if (busyTimeoutMs <= 0) return Promise.reject(lockBusy());
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      const at = database.queue.indexOf(waiter);
      if (at >= 0) database.queue.splice(at, 1);
      reject(lockBusy());
    }, busyTimeoutMs);
    const waiter: LockWaiter = {
      stream,
      grant: () => {
        clearTimeout(timer);
        resolve();
      },
      fail: (error) => {
        clearTimeout(timer);
        reject(error);
      },
    };
    database.queue.push(waiter);
  });
}

/** Gives the stream's write lock (if it holds it) to the next stream waiting. */
function dropWriteLock(stream: Stream): void {
  const database = stream.database;
  if (database.writer !== stream) return;
  const next = database.queue.shift();
  database.writer = next ? next.stream : null;
  next?.grant();
  locksMayHaveChanged(database);
}

/** After a request: a stream out of its transaction holds the write lock no longer. */
function settleWriteLock(stream: Stream): void {
  if (stream.database.writer === stream && !stream.conn?.native.inTransaction) dropWriteLock(stream);
}

/** Resolves when a lock of the file may have been released, or after 25 ms (another process may hold it). */
const lockChange = (database: DatabaseFile, until: number) =>
  new Promise<void>((resolve) => {
    const wake = () => {
      clearTimeout(timer);
      database.waiters.delete(wake);
      resolve();
    };
    const timer = setTimeout(wake, Math.max(0, Math.min(25, until - performance.now())));
    database.waiters.add(wake);
  });

/**
 * Runs a prepared statement to its last row. Its first step runs on libsql's threads, so a long
 * query leaves the server free, and past the time budget it is interrupted (SQLITE_INTERRUPT, what
 * sqld answers for a cancelled query). SQLite calls its busy handler only for a connection outside
 * a transaction; so here too only such a write waits, re-run (iterate() resets the statement first)
 * whenever a lock of the file may have been released, until busyTimeoutMs.
 */
async function stepToEnd(conn: Conn, sql: string, stmt: Stmt, params: Params): Promise<unknown[][]> {
  const { statementTimeoutMs, busyTimeoutMs } = conn.database.config;
  const wasAutocommit = !conn.native.inTransaction;
  const busyUntil = performance.now() + busyTimeoutMs;
  for (;;) {
    const deadline = performance.now() + statementTimeoutMs;
    const timer = setTimeout(() => conn.native.interrupt(), statementTimeoutMs);
    let failure: unknown;
    try {
      // Transaction control does no query work: run inline, sparing the two thread hops.
      if (TRANSACTION_CONTROL.test(sql)) {
        stmt.run(params);
        return [];
      }
      const rows: unknown[][] = [];
      // An error of the first step surfaces at the first next(): always iterate.
      for (const row of await stmt.iterate(params)) {
        rows.push(row as unknown[]);
        if (rows.length % 256 === 0 && performance.now() > deadline) conn.native.interrupt();
      }
      return rows;
    } catch (error) {
      failure = error;
    } finally {
      clearTimeout(timer);
    }
    const code = rawCodeOf(failure);
    if (code !== undefined && (code & 0xff) === 5 && wasAutocommit && performance.now() < busyUntil) {
      await lockChange(conn.database, busyUntil);
      continue;
    }
    // libsql leaves a statement that failed this way unreset, holding its transaction open.
    if (code === undefined || (code & 0xff) === 5 || (code & 0xff) === 6) {
      conn.broken = true;
      conn.stmts.delete(sql);
    }
    throw stmtErrorFrom(failure);
  }
}

/** One statement, as sqld runs and reports it. */
async function runSql(conn: Conn, sql: string, params: Params, wantRows: boolean): Promise<StmtResult> {
  if (changesConnectionState(sql)) conn.tainted = true;
  const started = performance.now();
  let stmt: Stmt;
  try {
    stmt = await prepareStmt(conn, sql);
  } catch (error) {
    throw stmtErrorFrom(error);
  }
  const scansBefore = fullScanSteps(conn, sql);
  const totalBefore = counters(conn)[2];
  let rows: unknown[][];
  try {
    rows = await stepToEnd(conn, sql, stmt, params);
  } finally {
    locksMayHaveChanged(conn.database);
  }
  const [changes, lastInsertRowid, totalAfter] = counters(conn);
  // changes() keeps the last INSERT/UPDATE/DELETE's count: it counts for this statement only if it changed rows.
  const affected = totalAfter !== totalBefore ? Number(changes) : 0;
  const cols = stmt.reader ? stmt.columns().map((col) => ({ name: col.name, decltype: col.type ?? null })) : [];
  const scans = fullScanSteps(conn, sql) - scansBefore;
  conn.database.config.onStatement?.({
    sql,
    rows: rows.length,
    fullScanSteps: scans,
    ms: performance.now() - started,
  });
  return {
    cols,
    rows: wantRows ? rows.map((row) => row.map(encodeValue)) : [],
    affected_row_count: affected,
    last_insert_rowid: isInsert(sql) ? String(lastInsertRowid) : null,
    rows_read: rows.length + Math.max(0, scans),
    rows_written: affected,
    query_duration_ms: Math.round((performance.now() - started) * 1000) / 1000,
  };
}

function sqlOf(source: Json, sqls: Map<number, string>): string {
  if (typeof source.sql === 'string') return source.sql;
  const sql = sqls.get(Number(source.sql_id));
  if (sql === undefined) throw new ProtocolError(`SQL text ${source.sql_id} not found`);
  return sql;
}

/** The values a (checked) statement binds: positional, or named without their prefix. */
function paramsOf(stmt: Json): Params {
  const args = (stmt.args ?? []) as unknown[];
  const namedArgs = (stmt.named_args ?? []) as Json[];
  if (args.length && namedArgs.length) {
    throw new StmtError(
      'Specifying both positional and named arguments is not supported',
      'ARGS_BOTH_POSITIONAL_AND_NAMED',
    );
  }
  if (!namedArgs.length) return args.map(decodeValue);
  const named: Record<string, unknown> = {};
  for (const arg of namedArgs) named[(arg.name as string).replace(/^[:@$]/, '')] = decodeValue(arg.value);
  return named;
}

function checkOneStatement(sql: string): void {
  const statements = splitStatements(sql);
  if (statements.length === 0) throw new StmtError('SQL string does not contain any statement', 'SQL_NO_STATEMENT');
  if (statements.length > 1) throw new StmtError('SQL string contains more than one statement', 'SQL_MANY_STATEMENTS');
}

/** A (checked) statement: `lock` takes what it needs of the write lock once its SQL and arguments pass. */
async function executeStmt(
  conn: Conn,
  stmt: Json,
  sqls: Map<number, string>,
  lock: (sql: string) => Promise<void>,
): Promise<StmtResult> {
  const sql = sqlOf(stmt, sqls);
  const params = paramsOf(stmt);
  checkOneStatement(sql);
  await lock(sql);
  return runSql(conn, sql, params, stmt.want_rows !== false);
}

/**
 * sqld parses every SQL text of a batch or sequence before it runs any (its own parser): an unknown
 * `sql_id` is a 400, and a text that is empty, holds several statements or does not parse fails the
 * whole request. SQLite's prepare stands in for that parser; its other errors ("no such table")
 * wait for the step to run, since an earlier step may create what a later one needs.
 */
async function checkParses(conn: Conn, sqls: string[]): Promise<void> {
  for (const sql of sqls) {
    try {
      await prepareStmt(conn, sql);
    } catch (error) {
      const stmtError = stmtErrorFrom(error);
      if (stmtError.code === 'SQL_PARSE_ERROR') throw stmtError;
    }
  }
}

type Outcome = 'ok' | 'error' | 'skipped';

/** A (checked) batch condition. */
function evalCond(cond: Json, outcomes: Outcome[], conn: Conn): boolean {
  switch (cond.type) {
    case 'ok':
    case 'error':
      return outcomes[cond.step as number] === cond.type;
    case 'not':
      return !evalCond(cond.cond as Json, outcomes, conn);
    case 'and':
      return (cond.conds as Json[]).every((inner) => evalCond(inner, outcomes, conn));
    case 'or':
      return (cond.conds as Json[]).some((inner) => evalCond(inner, outcomes, conn));
    default:
      return !conn.native.inTransaction; // is_autocommit
  }
}

const errorJson = (error: StmtError) => ({ message: error.message, code: error.code });

/** ByteSize's wording in sqld's messages: "10.0 KB". */
const byteSize = (bytes: number) => {
  if (bytes < 1000) return `${bytes} B`;
  const exponent = Math.min(6, Math.floor(Math.log(bytes) / Math.log(1000)));
  return `${(bytes / 1000 ** exponent).toFixed(1)} ${'KMGTPE'[exponent - 1]}B`;
};

/** Starts the server; resolves once it listens. */
export async function startLibsqlServer(options: LibsqlServerOptions): Promise<LibsqlServer> {
  const idleMs = options.streamIdleMs ?? 10_000;
  const expiredMemoryMs = options.expiredMemoryMs ?? 300_000;
  const maxBody = options.maxBodyBytes ?? 10 * 1024 * 1024;
  const maxStreams = options.maxStreams ?? 128;
  const config: ServerConfig = {
    statementTimeoutMs: options.statementTimeoutMs ?? 10_000,
    busyTimeoutMs: options.busyTimeoutMs ?? 5_000,
    onStatement: options.onStatement,
  };
  const batonKey = randomBytes(32);
  const streams = new Map<bigint, Stream | 'acquired' | 'expired'>();
  const requests: LibsqlServer['requests'] = [];
  const databases = new Map<string, DatabaseFile>();
  /** Every open connection (for close()), and the idle ones, oldest first. */
  const conns = new Set<Conn>();
  const idle: Conn[] = [];

  const databaseAt = (path: string): DatabaseFile => {
    let database = databases.get(path);
    if (!database) {
      const setup = new Database(path);
      // WAL: a stream holding a write transaction does not block other streams' reads.
      setup.exec('PRAGMA journal_mode = WAL');
      setup.close();
      database = { path, config, waiters: new Set(), writer: null, queue: [] };
      databases.set(path, database);
    }
    return database;
  };
  databaseAt(options.dbPath);

  const takeConn = async (database: DatabaseFile): Promise<Conn> => {
    for (let i = idle.length - 1; i >= 0; i--) if (idle[i].database === database) return idle.splice(i, 1)[0];
    let conn: Conn;
    try {
      conn = await openConnection(database);
    } catch {
      // Out of file descriptors, likely: give back the idle connections' and closed ones', then retry.
      for (const spare of idle.splice(0)) closeConn(spare);
      collectGarbage();
      // Native finalizers run after the collection, on the next turn.
      await new Promise((resolve) => setImmediate(resolve));
      conn = await openConnection(database);
    }
    conns.add(conn);
    return conn;
  };
  const closeConn = (conn: Conn) => {
    conns.delete(conn);
    conn.stmts.clear();
    try {
      conn.native.close();
    } catch {
      // already closed
    }
    collectSoon();
  };
  /**
   * A connection a stream is done with: rolled back, its changes() and last_insert_rowid() put back
   * to 0, and kept for the next stream; closed instead if anything of the stream could reach that
   * one (temp objects, PRAGMAs, a statement libsql left holding a transaction).
   */
  const parkConn = (conn: Conn) => {
    try {
      if (conn.native.inTransaction) conn.rollback.run([]);
      if (conn.broken || conn.tainted || Number((conn.tempObjects.get([]) as [bigint])[0]) !== 0)
        return closeConn(conn);
      const [changes, lastInsertRowid] = counters(conn);
      if (changes !== 0n || lastInsertRowid !== 0n) for (const stmt of conn.resetCounters) stmt.run([]);
      idle.push(conn);
      if (idle.length > MAX_IDLE_CONNECTIONS) closeConn(idle.shift() as Conn);
    } catch {
      closeConn(conn);
    } finally {
      locksMayHaveChanged(conn.database);
    }
  };
  /** The stream is done (closed, expired, dropped): its connection rolled back, then its write lock given up. */
  const releaseConn = (stream: Stream) => {
    const conn = stream.conn;
    stream.conn = null;
    if (conn) parkConn(conn);
    dropWriteLock(stream);
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

  /** Streams holding a connection: in a request now, or waiting for the next with a baton. */
  const streamsHeld = () => {
    let held = 0;
    for (const handle of streams.values()) if (handle !== 'expired') held++;
    return held;
  };

  const acquire = async (baton: unknown, database: DatabaseFile): Promise<Stream> => {
    if (baton === undefined || baton === null) {
      // Each stream holds a connection (file descriptors, page cache): past the cap, refuse.
      if (streamsHeld() >= maxStreams) {
        throw new TooManyStreamsError(
          `Too many open streams: ${maxStreams} are open, the server's limit. Close a stream when done with it (the client's close(), a transaction's commit or rollback); an idle one expires after ${idleMs / 1000} s`,
        );
      }
      let id = randomBytes(8).readBigUInt64BE(0);
      while (streams.has(id)) id = randomBytes(8).readBigUInt64BE(0);
      streams.set(id, 'acquired');
      try {
        const conn = await takeConn(database);
        return { id, database, seq: randomBytes(8).readBigUInt64BE(0), conn, sqls: new Map() };
      } catch (error) {
        streams.delete(id);
        throw error;
      }
    }
    const { id, seq } = decodeBaton(baton as string);
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

  /**
   * The stream's connection. A broken one stays while its transaction lasts (the stream's ROLLBACK
   * goes to it); out of a transaction the stream moves to another connection, as sqld's streams
   * never share one.
   */
  const connOf = async (stream: Stream): Promise<Conn> => {
    const conn = stream.conn;
    if (!conn) throw new ProtocolError('Stream for this baton was closed');
    if (!conn.broken || conn.native.inTransaction) return conn;
    stream.conn = null;
    parkConn(conn);
    stream.conn = await takeConn(stream.database);
    return stream.conn;
  };

  /** What a statement of a stream needs of the write lock, taken (or SQLITE_BUSY thrown). */
  const lockFor = (stream: Stream, sql: string, conn: Conn) =>
    lockNeedOf(sql, conn.native.inTransaction) === 'none' ? Promise.resolve() : takeWriteLock(stream);

  async function runBatch(stream: Stream, batch: Json) {
    const steps = batch.steps as Json[];
    const stmts = steps.map((step) => step.stmt as Json);
    // sqld builds the whole program first (every SQL text, every argument list), then runs it.
    const sqls = stmts.map((stmt) => sqlOf(stmt, stream.sqls));
    stmts.forEach(paramsOf);
    sqls.forEach(checkOneStatement);
    await checkParses(await connOf(stream), sqls);
    // A batch that only reads and ends the transaction it begins (the client's batch of SELECTs)
    // needs no write lock. Any other takes it at its first step that needs it and keeps it to the
    // end of the batch, and past it while its transaction lasts (the client's interactive
    // transactions begin with a batch).
    const needs = sqls.map((sql) => lockNeedOf(sql, true));
    const readOnly =
      needs.every((need) => need !== 'write') &&
      sqls.some((sql) => /^(COMMIT|END|ROLLBACK)\b/i.test(stripComments(sql).trim()));
    let lockFailed = false;
    const lock = async (sql: string, conn: Conn) => {
      const need = lockNeedOf(sql, conn.native.inTransaction);
      if (need === 'none' || (need === 'begin' && readOnly)) return;
      // One wait per batch: once it timed out, its later writes fail at once.
      if (lockFailed && stream.database.writer !== stream) throw lockBusy();
      try {
        await takeWriteLock(stream);
      } catch (error) {
        lockFailed = true;
        throw error;
      }
    };
    const outcomes: Outcome[] = [];
    const results: { step: number; result?: StmtResult; error?: StmtError }[] = [];
    try {
      for (const [i, step] of steps.entries()) {
        const conn = await connOf(stream);
        if (
          step.condition !== undefined &&
          step.condition !== null &&
          !evalCond(step.condition as Json, outcomes, conn)
        ) {
          outcomes.push('skipped');
          results.push({ step: i });
          continue;
        }
        try {
          const result = await executeStmt(conn, step.stmt as Json, stream.sqls, (sql) => lock(sql, conn));
          results.push({ step: i, result });
          outcomes.push('ok');
        } catch (error) {
          if (error instanceof ProtocolError) throw error;
          outcomes.push('error');
          results.push({ step: i, error: stmtErrorFrom(error) });
        }
      }
    } finally {
      settleWriteLock(stream);
    }
    return results;
  }

  async function handleStreamRequest(stream: Stream, request: Json, version: number): Promise<Json> {
    try {
      return await runStreamRequest(stream, request, version);
    } finally {
      settleWriteLock(stream);
    }
  }

  async function runStreamRequest(stream: Stream, request: Json, version: number): Promise<Json> {
    switch (request.type) {
      case 'close':
        releaseConn(stream);
        return { type: 'close' };
      case 'execute': {
        const conn = await connOf(stream);
        const lock = (sql: string) => lockFor(stream, sql, conn);
        return { type: 'execute', result: await executeStmt(conn, request.stmt as Json, stream.sqls, lock) };
      }
      case 'batch': {
        const stepResults: (StmtResult | null)[] = [];
        const stepErrors: (Json | null)[] = [];
        for (const step of await runBatch(stream, request.batch as Json)) {
          stepResults.push(step.result ?? null);
          stepErrors.push(step.error ? errorJson(step.error) : null);
        }
        return { type: 'batch', result: { step_results: stepResults, step_errors: stepErrors } };
      }
      case 'sequence': {
        const statements = splitStatements(sqlOf(request, stream.sqls));
        await checkParses(await connOf(stream), statements);
        // Each statement runs if the one before succeeded; the first error is the request's.
        for (const sql of statements) {
          const conn = await connOf(stream);
          await lockFor(stream, sql, conn);
          await runSql(conn, sql, [], false);
        }
        return { type: 'sequence' };
      }
      case 'describe': {
        const conn = await connOf(stream);
        const sql = sqlOf(request, stream.sqls);
        let stmt: Stmt;
        try {
          stmt = await conn.native.prepare(sql);
        } catch (error) {
          throw stmtErrorFrom(error);
        }
        const cols = stmt.reader ? stmt.columns().map((col) => ({ name: col.name, decltype: col.type ?? null })) : [];
        const isExplain = /^\s*EXPLAIN\b/i.test(sql);
        const isReadonly = /^\s*(SELECT|WITH|EXPLAIN|VALUES)\b/i.test(stripComments(sql));
        return { type: 'describe', result: { params: [], cols, is_explain: isExplain, is_readonly: isReadonly } };
      }
      case 'store_sql': {
        const id = request.sql_id as number;
        const sql = request.sql as string;
        if (stream.sqls.has(id)) throw new ProtocolError(`SQL text ${id} already exists`);
        if (stream.sqls.size >= MAX_SQL_COUNT) {
          throw new StmtError(
            `The server already stores ${stream.sqls.size} SQL texts, it cannot store more`,
            'SQL_STORE_TOO_MANY',
          );
        }
        const bytes = Buffer.byteLength(sql);
        if (bytes > MAX_STORED_SQL_BYTES) {
          throw new StmtError(
            `The statement is too large to be stored: ${byteSize(bytes)}/${byteSize(MAX_STORED_SQL_BYTES)}`,
            'SQL_STORE_TOO_LARGE',
          );
        }
        stream.sqls.set(id, sql);
        return { type: 'store_sql' };
      }
      case 'close_sql':
        stream.sqls.delete(request.sql_id as number);
        return { type: 'close_sql' };
      default: // get_autocommit (the body was checked)
        return { type: 'get_autocommit', is_autocommit: !(await connOf(stream)).native.inTransaction };
    }
  }

  async function pipeline(body: Json, version: number, database: DatabaseFile): Promise<Json> {
    checkPipelineBody(body, version);
    const stream = await acquire(body.baton, database);
    try {
      const results: Json[] = [];
      for (const request of body.requests as Json[]) {
        try {
          results.push({ type: 'ok', response: await handleStreamRequest(stream, request, version) });
        } catch (error) {
          if (error instanceof StmtError) results.push({ type: 'error', error: errorJson(error) });
          else throw error;
        }
      }
      return { baton: release(stream), base_url: null, results };
    } catch (error) {
      drop(stream);
      throw error;
    }
  }

  /** /v3/cursor: one JSON line with the baton, then step_begin / row / step_end / step_error lines. */
  async function cursor(body: Json, database: DatabaseFile): Promise<string[]> {
    checkCursorBody(body, 3);
    const stream = await acquire(body.baton, database);
    try {
      const entries: Json[] = [];
      for (const step of await runBatch(stream, body.batch as Json)) {
        if (step.error) entries.push({ type: 'step_error', step: step.step, error: errorJson(step.error) });
        else if (step.result) {
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
      const lines = [JSON.stringify({ baton: release(stream), base_url: null })];
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
    if (!isObject(body)) {
      return send(res, 400, 'text/plain', 'Cannot deserialize client message from JSON: expected an object');
    }
    const version = route[1] === 'v3' ? 3 : 2;
    try {
      if (route[2] === 'pipeline')
        return send(res, 200, 'application/json', JSON.stringify(await pipeline(body, version, database)));
      const lines = await cursor(body, database);
      return send(res, 200, 'text/plain', `${lines.join('\n')}\n`);
    } catch (error) {
      if (error instanceof ProtocolError) return send(res, 400, 'text/plain', error.message);
      if (error instanceof StreamExpiredError)
        return send(res, 400, 'application/json', JSON.stringify({ message: error.message, code: 'STREAM_EXPIRED' }));
      if (error instanceof TooManyStreamsError)
        return send(res, 503, 'application/json', JSON.stringify({ message: error.message, code: 'TOO_MANY_STREAMS' }));
      // What sqld has no Hrana answer for (a cursor batch whose SQL does not parse, a file it cannot
      // open) reaches its HTTP layer: 500 with {error}.
      const message = error instanceof Error ? error.message : String(error);
      return send(res, 500, 'application/json', JSON.stringify({ error: `Internal Error: \`${message}\`` }));
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
      for (const handle of streams.values()) if (typeof handle === 'object') clearTimeout(handle.timer);
      streams.clear();
      for (const database of databases.values()) {
        database.writer = null;
        for (const waiter of database.queue.splice(0)) waiter.fail(new Error('The server is closing'));
      }
      idle.length = 0;
      for (const conn of [...conns]) {
        conn.native.interrupt();
        closeConn(conn);
      }
    },
  };
}
