import { and, desc, eq, isNotNull, isNull, sql, type SQL } from 'drizzle-orm';
import { alias } from 'drizzle-orm/sqlite-core';
import type { Db } from '../../../db/client';
import { parseId } from '../../../domain/ids';
import { supportRequests, users } from '../../../db/schema';
import { notFound } from '../../lib/errors';
import { canReadSupportInbox } from '../../lib/policy';
import { type SupportRequestDto, toSupportRequestDto } from './dto';
import type { SignedInContext, ViewerContext } from '../../lib/service-context';

const handler = alias(users, 'handler');

type ListOptions = { status?: 'open' | 'handled' | 'all'; limit?: number; offset?: number };

/**
 * Admins read the whole inbox (open first by default); everyone else only what they sent
 * themselves, whatever they ask for.
 */
export async function listSupportRequests(
  ctx: ViewerContext,
  options: ListOptions,
): Promise<{ items: SupportRequestDto[]; total: number }> {
  const { db, viewer } = ctx;
  const inbox = canReadSupportInbox(viewer);
  const status = options.status ?? (inbox ? 'open' : 'all');
  const where = and(
    inbox ? undefined : eq(supportRequests.userId, viewer.id),
    status === 'open'
      ? isNull(supportRequests.handledAt)
      : status === 'handled'
        ? isNotNull(supportRequests.handledAt)
        : undefined,
  );
  const [rows, [count]] = await Promise.all([
    rowsWhere(db, where)
      .orderBy(desc(supportRequests.createdAt), desc(supportRequests.id))
      .limit(Math.min(options.limit ?? 50, 100))
      .offset(options.offset ?? 0),
    db.select({ n: sql<number>`count(*)` }).from(supportRequests).where(where),
  ]);
  return { items: rows.map(toDto), total: Number(count?.n ?? 0) };
}

function rowsWhere(db: Db, where: SQL | undefined) {
  return db
    .select({ row: supportRequests, handlerFirst: handler.firstName, handlerLast: handler.lastName })
    .from(supportRequests)
    .leftJoin(handler, eq(handler.id, supportRequests.handledBy))
    .where(where)
    .$dynamic();
}

const toDto = (r: {
  row: typeof supportRequests.$inferSelect;
  handlerFirst: string | null;
  handlerLast: string | null;
}) =>
  toSupportRequestDto(
    r.row,
    `${r.handlerFirst ?? ''} ${r.handlerLast ?? ''}`.trim() || (r.row.handledAt ? 'an admin' : null),
  );

/** Marks one message handled (or open again); admins only, by the route's policy. */
export async function setSupportRequestHandled(
  ctx: ViewerContext & Pick<SignedInContext, 'now'>,
  idParam: string,
  handled: boolean,
): Promise<SupportRequestDto> {
  const { db, viewer, now } = ctx;
  const id = parseId(idParam);
  if (!id) throw notFound('Message not found');
  const [existing] = await db
    .select({ id: supportRequests.id, handledAt: supportRequests.handledAt })
    .from(supportRequests)
    .where(eq(supportRequests.id, id))
    .limit(1);
  if (!existing) throw notFound('Message not found');
  // Marking an already handled message handled again keeps who handled it first.
  if (handled !== (existing.handledAt !== null)) {
    await db
      .update(supportRequests)
      .set(handled ? { handledAt: now, handledBy: viewer.id } : { handledAt: null, handledBy: null })
      .where(eq(supportRequests.id, id));
  }
  const [row] = await rowsWhere(db, eq(supportRequests.id, id)).limit(1);
  return toDto(row);
}
