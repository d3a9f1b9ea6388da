import { AsyncLocalStorage } from 'node:async_hooks';

/**
 * What one request did to the database, carried in async context with the request's id: the
 * per-request log line reports the rows read and written, which Turso and D1 bill by.
 * `rowsRead`/`rowsWritten` stay null where the engine reports nothing (libSQL's file engine).
 */
export type RequestContext = { id: string; rowsRead: number | null; rowsWritten: number | null };

export const requestContext = new AsyncLocalStorage<RequestContext>();

export const newRequestContext = (id: string): RequestContext => ({ id, rowsRead: null, rowsWritten: null });

/** Adds a statement's counts to the request being handled (none outside a request: cron, scripts). */
export function countRows(read: unknown, written: unknown): void {
  const context = requestContext.getStore();
  if (!context) return;
  if (typeof read === 'number' && Number.isFinite(read)) context.rowsRead = (context.rowsRead ?? 0) + read;
  if (typeof written === 'number' && Number.isFinite(written))
    context.rowsWritten = (context.rowsWritten ?? 0) + written;
}

type Fetcher = { fetch: (...args: never[]) => Promise<Response> };

/**
 * Every `"rows_read":N` / `"rows_written":N` key in a JSON text. Only a key can match: inside a
 * JSON string a quote is escaped (`\\"`), and no column we select is named so. Cheaper than
 * parsing the whole answer a second time (the driver parses it too), which a storm's profile showed.
 */
const ROW_STATS = /"rows_(read|written)":(\d+)/g;

export function countRowStats(text: string): void {
  let read: number | null = null;
  let written: number | null = null;
  for (const [, kind, value] of text.matchAll(ROW_STATS)) {
    if (kind === 'read') read = (read ?? 0) + Number(value);
    else written = (written ?? 0) + Number(value);
  }
  countRows(read, written);
}

/**
 * A response whose JSON body is counted as the driver reads it: its `text()` (D1's binding) and
 * `json()` (the libSQL web client) count the stats on the way. No copy of the body and no second
 * Response, which a storm's profile showed costing a gift more than the counting itself.
 */
function counted(response: Response): Response {
  if (
    !response.ok ||
    !(response.headers.get('content-type') ?? '').includes('application/json') ||
    !requestContext.getStore()
  )
    return response;
  const readText = response.text.bind(response);
  let body: Promise<string> | null = null;
  const text = () =>
    (body ??= readText().then((read) => {
      countRowStats(read);
      return read;
    }));
  Object.defineProperties(response, {
    text: { value: text },
    json: { value: async () => JSON.parse(await text()) },
  });
  return response;
}

/**
 * A fetch for `@libsql/client` that counts the statement stats (rows_read, rows_written) a Turso
 * server sends in every result: the client itself drops them.
 */
export function countingFetch(inner: typeof fetch = (...args) => fetch(...args)): typeof fetch {
  return async (...args: Parameters<typeof fetch>) => counted(await inner(...args));
}

const countedBindings = new WeakSet<object>();

/**
 * Counts D1's `meta.rows_read/rows_written` for every statement, `raw()` included (which returns
 * no meta to its caller): the binding's JavaScript wrapper sends each query through a `fetcher`
 * whose JSON answer carries the meta; we read it on the way through. Where the binding is shaped
 * otherwise, nothing is counted and nothing else changes.
 */
export function countD1Rows(binding: D1Database): D1Database {
  if (countedBindings.has(binding)) return binding;
  countedBindings.add(binding);
  const holders = [binding, (binding as unknown as { alwaysPrimarySession?: unknown }).alwaysPrimarySession] as {
    fetcher?: Fetcher;
  }[];
  for (const holder of holders) {
    const fetcher = holder?.fetcher;
    if (!fetcher || typeof fetcher.fetch !== 'function') continue;
    try {
      holder.fetcher = { fetch: async (...args: never[]) => counted(await fetcher.fetch(...args)) };
    } catch {
      // A read-only field: no counts from this binding.
    }
  }
  return binding;
}
