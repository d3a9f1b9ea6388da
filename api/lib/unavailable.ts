import { MissingSettingError } from './config';

/** How long a client should wait before retrying while the database is down (seconds). */
export const RETRY_AFTER_SECONDS = 30;

export const UNAVAILABLE_MESSAGE = 'The service is busy right now. Nothing was changed; please try again in a minute.';

/** Driver error codes that mean "could not reach the database", not "the query is wrong". */
const UNAVAILABLE_CODES = new Set([
  'CLIENT_CLOSED',
  'HRANA_WEBSOCKET_ERROR',
  'HRANA_CLOSED_ERROR',
  'SERVER_ERROR',
  'ECONNREFUSED',
  'ECONNRESET',
  'ENOTFOUND',
  'ETIMEDOUT',
  'EAI_AGAIN',
  'UND_ERR_CONNECT_TIMEOUT',
  'UND_ERR_SOCKET',
  'SQLITE_BUSY',
  // Turso's server (sqld): a stream lost to inactivity or a restart, a transaction that waited too
  // long for the write lock, and BLOCKED: the plan's monthly quota of rows is spent.
  'STREAM_EXPIRED',
  'TRANSACTION_TIMEOUT',
  'TRANSACTION_BUSY',
  'BLOCKED',
  'SQLITE_BUSY_SNAPSHOT',
  'SQLITE_BUSY_RECOVERY',
  'SQLITE_BUSY_TIMEOUT',
  'SQLITE_LOCKED',
  'SQLITE_LOCKED_SHAREDCACHE',
]);

/** SQLite's primary result codes for "busy" and "locked" (libSQL's rawCode). */
const UNAVAILABLE_RAW_CODES = new Set([5, 6]);

/**
 * D1's transient errors (Cloudflare lists them as safe to retry), libSQL's network failures and a
 * closed client. SQL mistakes (no such table, constraint failures) are not outages: they stay 500s.
 */
const UNAVAILABLE_MESSAGES =
  /Network connection lost|D1 DB is overloaded|Too many requests queued|storage operation exceeded timeout|storage caused object to be reset|reset because its code was updated|Cannot resolve D1 DB|D1_ERROR: internal error|Internal error (?:in|while starting up) D1|Failed to get session commit token|Durable Object (?:is overloaded|reset|storage operation)|fetch failed|Failed to fetch|ECONNREFUSED|connection refused|The client is closed|socket hang up|database (?:table )?is locked|database is busy|SQLITE_BUSY|SQLITE_LOCKED|Server returned HTTP status 5\d\d|stream (?:has )?expired|No database configured/i;

/** True when the error (or one it wraps) says the database could not be reached. */
export function isDatabaseUnavailable(error: unknown): boolean {
  let current: unknown = error;
  for (let depth = 0; current && depth < 6; depth++) {
    const code = (current as { code?: unknown }).code;
    if (typeof code === 'string' && UNAVAILABLE_CODES.has(code)) return true;
    const rawCode = (current as { rawCode?: unknown }).rawCode;
    if (typeof rawCode === 'number' && UNAVAILABLE_RAW_CODES.has(rawCode & 0xff)) return true;
    const message = (current as { message?: unknown }).message;
    if (typeof message === 'string' && UNAVAILABLE_MESSAGES.test(message)) return true;
    current = (current as { cause?: unknown }).cause;
  }
  return false;
}

/** Outages and missing production settings: answered with 503 and Retry-After, never a stack. */
export function isTemporarilyUnavailable(error: unknown): boolean {
  return error instanceof MissingSettingError || isDatabaseUnavailable(error);
}
