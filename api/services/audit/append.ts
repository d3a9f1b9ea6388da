import { sql, type SQL } from 'drizzle-orm';
import type { Db } from '../../../db/client';
import { auditLog } from '../../../db/schema';
import type { AuditTarget } from '../../../domain/finance';
import type { AuthUser } from '../../lib/types';

/** Who made a change and in which request; a null actor is the system (webhooks, housekeeping). */
export type AuditActor = { user: Pick<AuthUser, 'id' | 'email' | 'type'> | null; requestId: string | null };

/** The actor of a staff request. */
/** The actor of a signed-in write: the viewer, in this request. */
export const staffActor = (ctx: { viewer: AuthUser; requestId: string | null }) => ({
  user: ctx.viewer,
  requestId: ctx.requestId,
});
export const actorOf = (user: AuditActor['user'], requestId: string | null = null): AuditActor => ({ user, requestId });

export type AuditEntry = {
  /** `<target>.<verb>`, e.g. `donation.refund`, `claim.void`, `user.type`. */
  action: string;
  targetType: AuditTarget;
  targetId: string;
  organizationId?: string | null;
  changes?: Record<string, [unknown, unknown]>;
  note?: string | null;
};

/**
 * The insert for one audit row, to run in the same `db.batch` as the write it records: the change
 * and its record are stored together or not at all. The table refuses UPDATE and DELETE (migration 0009).
 */
export function auditInsert(db: Db, actor: AuditActor, entry: AuditEntry, at = new Date()) {
  return db.insert(auditLog).values({
    at,
    actorId: actor.user?.id ?? null,
    actorEmail: actor.user?.email ?? null,
    actorType: actor.user?.type ?? 'system',
    action: entry.action,
    targetType: entry.targetType,
    targetId: entry.targetId,
    organizationId: entry.organizationId ?? null,
    changes: entry.changes ?? {},
    requestId: actor.requestId,
    note: entry.note ?? null,
  });
}

/**
 * The same row, written only when `condition` holds at that point of the batch (e.g. "the guarded
 * write before it went in"), so a refused write leaves no audit row. Columns in db/schema/audit.ts order.
 */
export function auditInsertIf(db: Db, actor: AuditActor, condition: SQL, entry: AuditEntry, at = new Date()) {
  return db.insert(auditLog).select(
    sql`select ${crypto.randomUUID()}, ${at.getTime()}, ${actor.user?.id ?? null}, ${actor.user?.email ?? null}, ${actor.user?.type ?? 'system'},
      ${entry.action}, ${entry.targetType}, ${entry.targetId}, ${entry.organizationId ?? null}, ${JSON.stringify(entry.changes ?? {})},
      ${actor.requestId}, ${entry.note ?? null} where ${condition}`,
  );
}

/** The fields that differ between two versions of a record, as `{field: [before, after]}`. */
export function changedFields<T extends Record<string, unknown>>(
  before: T,
  after: Partial<T>,
): Record<string, [unknown, unknown]> {
  const changes: Record<string, [unknown, unknown]> = {};
  for (const key of Object.keys(after) as (keyof T & string)[]) {
    const from = before[key] instanceof Date ? (before[key] as Date).toISOString() : before[key];
    const to = after[key] instanceof Date ? (after[key] as Date).toISOString() : after[key];
    if (JSON.stringify(from) !== JSON.stringify(to)) changes[key] = [from ?? null, to ?? null];
  }
  return changes;
}
