import { index, integer, sqliteTable, text } from 'drizzle-orm/sqlite-core';
import { id } from './columns';

import { AUDIT_TARGETS } from '../../domain/finance';

/**
 * Every staff write, appended: who, what, which record, the changed fields before and after, when,
 * and the request id. Triggers in the migration refuse UPDATE and DELETE, so no code path (and no
 * route) can change history. Actors are referenced by id and a copy of their email at the time.
 */
export const auditLog = sqliteTable(
  'audit_log',
  {
    id: id(),
    at: integer('at', { mode: 'timestamp_ms' }).notNull(),
    /** Null for the system (webhooks, housekeeping). */
    actorId: text('actor_id'),
    actorEmail: text('actor_email'),
    actorType: text('actor_type'),
    /** `<target>.<verb>`, e.g. donation.refund, claim.void, user.type. */
    action: text('action').notNull(),
    targetType: text('target_type', { enum: AUDIT_TARGETS }).notNull(),
    targetId: text('target_id').notNull(),
    /** The organization the record belongs to, for org-scoped reading (null: platform-wide). */
    organizationId: text('organization_id'),
    /** JSON `{field: [before, after]}`. */
    changes: text('changes', { mode: 'json' }).$type<Record<string, [unknown, unknown]>>().notNull().default({}),
    requestId: text('request_id'),
    note: text('note'),
  },
  (t) => [
    index('audit_log_at_idx').on(t.at),
    index('audit_log_target_idx').on(t.targetType, t.targetId, t.at),
    index('audit_log_actor_idx').on(t.actorId, t.at),
    index('audit_log_org_idx').on(t.organizationId, t.at),
  ],
);
