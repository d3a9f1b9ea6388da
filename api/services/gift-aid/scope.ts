import { inArray, sql, type SQL } from 'drizzle-orm';
import type { SQLiteColumn } from 'drizzle-orm/sqlite-core';
import { parseId } from '../../../domain/ids';
import { isIsoDay, londonMidnight } from '../../../domain';
import { badRequest, HttpError } from '../../lib/errors';
import type { AuthUser } from '../../lib/types';
import { orgScope, readsFinance } from '../../lib/policy';
import { nextDay } from '../../../domain/dates';

/** The organizations a viewer may claim for: null means every one (admins). */
export function claimScope(viewer: AuthUser): string[] | null {
  if (!readsFinance(viewer))
    throw new HttpError(403, 'Only admins, organization admins and finance users can see Gift Aid claims');
  const scope = orgScope(viewer);
  return scope === 'all' ? null : scope;
}

export function orgCondition(column: SQLiteColumn, scope: string[] | null): SQL | undefined {
  if (scope === null) return undefined;
  return scope.length ? inArray(column, scope) : sql`0`;
}

export function resolveScopedOrg(ref: string, viewer: AuthUser): string {
  const id = parseId(ref);
  if (!id) throw badRequest('organization_id: must be an organization id');
  const scope = claimScope(viewer);
  if (scope !== null && !scope.includes(id))
    throw new HttpError(403, 'You can only see Gift Aid for your own organizations');
  return id;
}

export type DateRange = { from?: string | null; to?: string | null };

/** London calendar days, inclusive; each a 400 naming its field when it is not a real day. */
export function parseDateRange(range: DateRange): { start: Date | null; end: Date | null } {
  for (const key of ['from', 'to'] as const) {
    const value = range[key];
    if (value && !isIsoDay(value)) throw badRequest(`${key}: enter a date like 2026-04-06`);
  }
  if (range.from && range.to && range.from > range.to) throw badRequest('to: must be on or after from');
  return {
    start: range.from ? londonMidnight(range.from) : null,
    end: range.to ? londonMidnight(nextDay(range.to)) : null,
  };
}
