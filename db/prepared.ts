import { fillPlaceholders, type Placeholder, type SQL } from 'drizzle-orm';
import type { Db } from './client';

/** An id where a query takes one: a value, a subquery, or a placeholder of a prepared read. */
export type IdValue = string | SQL | Placeholder;

/**
 * Reads whose SQL is built once per database and query shape, then run with new values: for the
 * public pages' reads, which run on every render that misses the page cache. Building a query is
 * drizzle's costliest step (its `is` checks walk each column and chunk): the six of an appeal
 * page took about 1.1 ms in Node, and drizzle was a fifth of a render's CPU in workerd
 * (docs/decisions/015).
 *
 * `build` makes the query with `sql.placeholder(name)` where the values go; `values` fills them.
 * The result goes into `db.batch([...])` like the query itself, or is awaited alone. Each call
 * site's `shape` must name everything that changes the SQL other than the placeholders (limits,
 * optional conditions). Driver-dependent parts are those of drizzle's own batch: the prepared
 * query's `getQuery`, `mapResult` and (D1) `stmt`; `db/prepared.test.ts` runs both engines.
 */
type Prepared = {
  getQuery(): { sql: string; params: unknown[] };
  mapResult(result: unknown, isFromBatch?: boolean): unknown;
  all(values?: Record<string, unknown>): Promise<unknown>;
  /** D1's prepared statement (drizzle's D1 batch binds it). */
  stmt?: unknown;
};

const preparedByDb = new WeakMap<Db, Map<string, Prepared>>();

/** What drizzle's batch asks of each item, and a promise of its rows when awaited alone. */
class BoundQuery {
  constructor(
    private readonly prepared: Prepared,
    private readonly values: Record<string, unknown>,
  ) {}

  _prepare() {
    const { prepared, values } = this;
    return {
      stmt: prepared.stmt,
      getQuery: () => {
        const query = prepared.getQuery();
        return { sql: query.sql, params: fillPlaceholders(query.params, values) };
      },
      mapResult: (result: unknown, isFromBatch?: boolean) => prepared.mapResult(result, isFromBatch),
    };
  }

  /** Awaited alone, like drizzle's own query builders. */
  then<T, E = never>(resolve?: (rows: unknown) => T | PromiseLike<T>, reject?: (error: unknown) => E | PromiseLike<E>) {
    return this.prepared.all(this.values).then(resolve, reject);
  }
}

/** The query `build` makes, prepared once for `db` under `shape`, bound to `values`. Typed as the query. */
export function preparedRead<Q extends { prepare(): unknown }>(
  db: Db,
  shape: string,
  build: () => Q,
  values: Record<string, unknown>,
): Q {
  let prepared = preparedByDb.get(db);
  if (!prepared) preparedByDb.set(db, (prepared = new Map()));
  let query = prepared.get(shape);
  if (!query) prepared.set(shape, (query = build().prepare() as Prepared));
  return new BoundQuery(query, values) as unknown as Q;
}
