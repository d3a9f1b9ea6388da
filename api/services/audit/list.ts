import { and, desc, eq, gte, inArray, lt, or, sql, type SQL } from 'drizzle-orm';
import type { Db } from '../../../db/client';
import { auditLog } from '../../../db/schema';
import { londonMidnight, nextDay } from '../../../domain/dates';
import { forbidden } from '../../lib/errors';
import { orgScope, readsFinance } from '../../lib/policy';
import type { AuthUser } from '../../lib/types';
import type { AuditEntryDto, AuditFilters } from '../../schemas/audit';
import type { ViewerContext } from '../../lib/service-context';

type AuditRow = typeof auditLog.$inferSelect;

/**
 * Who reads which rows: admins every row; org admins and finance users the rows of their
 * organizations (platform-wide rows, such as a user's type, have no organization: admins only).
 */
function scopeOf(viewer: AuthUser): SQL | undefined {
  if (!readsFinance(viewer))
    throw forbidden('Only admins, organization admins and finance users can read the audit log');
  const scope = orgScope(viewer);
  if (scope === 'all') return undefined;
  return scope.length ? inArray(auditLog.organizationId, scope) : sql`0`;
}

export function auditWhere(viewer: AuthUser, f: AuditFilters): SQL | undefined {
  const actor = f.actor?.toLowerCase();
  return and(
    scopeOf(viewer),
    actor
      ? or(eq(auditLog.actorId, actor), sql`instr(lower(coalesce(${auditLog.actorEmail}, '')), ${actor}) > 0`)
      : undefined,
    f.target ? eq(auditLog.targetId, f.target.toLowerCase()) : undefined,
    f.target_type ? eq(auditLog.targetType, f.target_type) : undefined,
    f.action
      ? or(eq(auditLog.action, f.action), sql`instr(${auditLog.action}, ${`${f.action.replace(/\.$/, '')}.`}) = 1`)
      : undefined,
    f.from ? gte(auditLog.at, londonMidnight(f.from)) : undefined,
    f.to ? lt(auditLog.at, londonMidnight(nextDay(f.to))) : undefined,
  );
}

export function toAuditDto(row: AuditRow): AuditEntryDto {
  return {
    _id: row.id,
    at: row.at.toISOString(),
    actor_id: row.actorId,
    actor_email: row.actorEmail,
    actor_type: row.actorType,
    action: row.action,
    target_type: row.targetType,
    target_id: row.targetId,
    organization_id: row.organizationId,
    changes: row.changes ?? {},
    request_id: row.requestId,
    note: row.note,
  };
}

/** Newest first; ties by rowid so pages never overlap. */
export function auditRows(
  db: Db,
  where: SQL | undefined,
  page: { limit: number; offset: number },
): Promise<AuditRow[]> {
  return db
    .select()
    .from(auditLog)
    .where(where)
    .orderBy(desc(auditLog.at), sql`${auditLog}.rowid desc`)
    .limit(page.limit)
    .offset(page.offset);
}

export async function listAudit(ctx: ViewerContext, f: AuditFilters & { limit: number; offset: number }) {
  const { db, viewer } = ctx;
  const where = auditWhere(viewer, f);
  const [rows, [count]] = await Promise.all([
    auditRows(db, where, f),
    db.select({ n: sql<number>`count(*)` }).from(auditLog).where(where),
  ]);
  return { items: rows.map(toAuditDto), total: Number(count?.n ?? 0) };
}

/** One record's history, oldest first (the donation page). */
export async function historyOf(db: Db, targetIds: string[]): Promise<AuditEntryDto[]> {
  if (!targetIds.length) return [];
  const rows = await db
    .select()
    .from(auditLog)
    .where(inArray(auditLog.targetId, targetIds))
    .orderBy(auditLog.at, sql`${auditLog}.rowid`)
    .limit(200);
  return rows.map(toAuditDto);
}
