import { and, eq, isNotNull, sql } from 'drizzle-orm';
import { campaignOfGift } from '../../../db/gift-joins';
import type { Db } from '../../../db/client';
import { parseId } from '../../../domain/ids';
import {
  auditLog,
  campaigns,
  directDebitMandates,
  donations,
  erasureRequests,
  giftAidDeclarations,
  marketingConsents,
  monthlyGifts,
  organizationDonors,
  organizations,
  sessions,
  supportMessages,
  supportRequests,
  users,
} from '../../../db/schema';
import { badRequest, forbidden, HttpError, notFound } from '../../lib/errors';
import { canMergeDonors, isAdmin, isDonorAccount, isFinanceUser } from '../../lib/policy';
import type { AuthUser } from '../../lib/types';
import type { MergeResultDto } from '../../schemas/users';
import { actorOf, auditInsertIf } from '../audit/append';
import { getUser } from './manage';

const userExists = (id: string) => sql`exists (select 1 from ${users} where ${users.id} = ${id})`;

/**
 * Every organization a donor record touches: gifts and monthly gifts (by campaign), declarations,
 * hand-added links, and the appeals they started (by their campaign's organization), since a merge
 * moves all of them. Support requests and erasure requests are the platform's: any makes it `unowned`.
 */
async function organizationsOf(db: Db, donorId: string): Promise<{ ids: Set<string>; unowned: boolean }> {
  const [gifts, monthly, declarations, links, appeals, requests, erasures] = await Promise.all([
    db
      .selectDistinct({ org: campaigns.organizationId })
      .from(donations)
      .innerJoin(campaigns, campaignOfGift)
      .where(eq(donations.donorId, donorId)),
    db
      .selectDistinct({ org: campaigns.organizationId })
      .from(monthlyGifts)
      .innerJoin(campaigns, eq(campaigns.id, monthlyGifts.campaignId))
      .where(eq(monthlyGifts.donorId, donorId)),
    db
      .selectDistinct({ org: giftAidDeclarations.organizationId })
      .from(giftAidDeclarations)
      .where(and(eq(giftAidDeclarations.donorId, donorId), isNotNull(giftAidDeclarations.organizationId))),
    db
      .select({ org: organizationDonors.organizationId })
      .from(organizationDonors)
      .where(eq(organizationDonors.userId, donorId)),
    db.selectDistinct({ org: campaigns.organizationId }).from(campaigns).where(eq(campaigns.createdBy, donorId)),
    db.select({ id: supportRequests.id }).from(supportRequests).where(eq(supportRequests.userId, donorId)).limit(1),
    db.select({ id: erasureRequests.id }).from(erasureRequests).where(eq(erasureRequests.userId, donorId)).limit(1),
  ]);
  const all = [...gifts, ...monthly, ...declarations, ...links, ...appeals].map((r) => r.org);
  return {
    ids: new Set(all.filter((o): o is string => !!o)),
    unowned: all.some((o) => !o) || requests.length > 0 || erasures.length > 0,
  };
}

/** Whether the donor holds a sign-in, or gave in their own checkout (signed in, or the one that made the account). */
/** The record an organization's tin and bucket collections are kept under. */
async function isCollectionsDonor(db: Db, donorId: string): Promise<boolean> {
  const [row] = await db
    .select({ id: organizations.id })
    .from(organizations)
    .where(eq(organizations.collectionsDonorId, donorId))
    .limit(1);
  return Boolean(row);
}

async function usedByItsOwner(db: Db, donorId: string): Promise<boolean> {
  const [[session], [own]] = await Promise.all([
    db.select({ id: sessions.userId }).from(sessions).where(eq(sessions.userId, donorId)).limit(1),
    db
      .select({ id: donations.id })
      .from(donations)
      .where(and(eq(donations.donorId, donorId), eq(donations.ownCheckout, true)))
      .limit(1),
  ]);
  return Boolean(session || own);
}

/** A donor record visible to the viewer, or 404 naming which one was not found. */
async function visibleDonor(db: Db, id: string, viewer: AuthUser, what: string) {
  try {
    return await getUser({ db, viewer }, id);
  } catch (error) {
    if (error instanceof HttpError && error.status === 404)
      throw notFound(`${what}: no donor with this id (it may have been merged already)`);
    throw error;
  }
}

/**
 * Merges the donor record `sourceParam` into `intoParam`: its gifts, Gift Aid declarations, monthly
 * gifts, marketing consents, organization links, appeals and requests move to the surviving record,
 * then the merged record is deleted (its sessions with it). One db.batch: every statement is guarded
 * by both records still existing, so a merge that lost a race moves nothing and writes no audit row.
 */
export async function mergeDonors(
  db: Db,
  sourceParam: string,
  intoParam: string,
  viewer: AuthUser,
  requestId: string | null,
): Promise<MergeResultDto> {
  if (!canMergeDonors(viewer)) {
    throw forbidden(
      isFinanceUser(viewer)
        ? 'Finance users can read donors but not merge them'
        : 'Only admins and organization admins can merge donors',
    );
  }
  const sourceId = parseId(sourceParam);
  const intoId = parseId(intoParam);
  if (!sourceId) throw notFound('id: no donor with this id');
  if (!intoId) throw notFound('into: no donor with this id');
  if (sourceId === intoId) throw badRequest('into: choose another donor; a record cannot be merged into itself');
  const source = await visibleDonor(db, sourceId, viewer, 'id');
  const into = await visibleDonor(db, intoId, viewer, 'into');
  // Staff accounts carry organization rights and sign-ins that a merge would silently move or delete.
  for (const [what, record] of [
    ['id', source],
    ['into', into],
  ] as const) {
    if (!isDonorAccount(record)) {
      throw badRequest(
        `${what}: ${record.email} is a ${record.type} account; only donor records can be merged (make it a donor first)`,
      );
    }
  }
  if (into.erased_at) throw badRequest('into: that donor’s account was erased; merge into a current record');
  // Collections are many people's coins (decision 081): moved onto a person, they would count as
  // that person's giving; moved off the record, the next collection would start another.
  for (const [what, id] of [
    ['id', sourceId],
    ['into', intoId],
  ] as const) {
    if (await isCollectionsDonor(db, id))
      throw badRequest(
        `${what}: this is an organization's tin and bucket collections record; its gifts are no one person's and it cannot be merged`,
      );
  }

  const touched = await organizationsOf(db, sourceId);
  if (!isAdmin(viewer) && (touched.unowned || [...touched.ids].some((org) => !viewer.orgIds.includes(org)))) {
    throw forbidden(
      'This donor also gave to, started an appeal for or is linked with an organization you do not administer (or wrote to the platform); ask a platform admin to merge them',
    );
  }
  // A record its owner uses (signed in now, or gave in their own checkout) is their account: merged
  // into a record an organization admin chose, its sign-in would be gone and its giving in the hands
  // of whoever holds the other email (decision 077). The office's own duplicates stay theirs to merge.
  if (!isAdmin(viewer) && (await usedByItsOwner(db, sourceId))) {
    throw forbidden(
      'This donor signs in or gives online as themselves: their account is their own; ask a platform admin to merge them',
    );
  }
  const organizationId = isAdmin(viewer)
    ? touched.ids.size === 1
      ? [...touched.ids][0]
      : null
    : ([...touched.ids][0] ?? viewer.orgIds[0] ?? null);

  const both = and(userExists(sourceId), userExists(intoId))!;
  const counts = await Promise.all([
    db.select({ n: sql<number>`count(*)` }).from(donations).where(eq(donations.donorId, sourceId)),
    db.select({ n: sql<number>`count(*)` }).from(giftAidDeclarations).where(eq(giftAidDeclarations.donorId, sourceId)),
    db.select({ n: sql<number>`count(*)` }).from(monthlyGifts).where(eq(monthlyGifts.donorId, sourceId)),
    db.select({ n: sql<number>`count(*)` }).from(marketingConsents).where(eq(marketingConsents.userId, sourceId)),
    db.select({ n: sql<number>`count(*)` }).from(organizationDonors).where(eq(organizationDonors.userId, sourceId)),
  ]);
  const [giftCount, declarationCount, monthlyCount, consentCount, linkCount] = counts.map(([row]) =>
    Number(row?.n ?? 0),
  );
  const at = new Date();

  const results = await db.batch([
    db
      .update(donations)
      .set({ donorId: intoId, updatedAt: at })
      .where(and(eq(donations.donorId, sourceId), userExists(intoId)))
      .returning({ id: donations.id }),
    db
      .update(giftAidDeclarations)
      .set({ donorId: intoId })
      .where(and(eq(giftAidDeclarations.donorId, sourceId), userExists(intoId)))
      .returning({ id: giftAidDeclarations.id }),
    db
      .update(monthlyGifts)
      .set({ donorId: intoId, updatedAt: at })
      .where(and(eq(monthlyGifts.donorId, sourceId), userExists(intoId)))
      .returning({ id: monthlyGifts.id }),
    db
      .update(marketingConsents)
      .set({ userId: intoId })
      .where(and(eq(marketingConsents.userId, sourceId), userExists(intoId)))
      .returning({ id: marketingConsents.id }),
    // Organization links the surviving record lacks; the merged record's own go with it below.
    db.insert(organizationDonors).select(
      sql`select ${organizationDonors.organizationId}, ${intoId}, ${organizationDonors.addedBy}, ${organizationDonors.createdAt} from ${organizationDonors}
        where ${organizationDonors.userId} = ${sourceId} and ${userExists(intoId)}
        and not exists (select 1 from ${organizationDonors} as kept where kept.organization_id = ${organizationDonors.organizationId} and kept.user_id = ${intoId})`,
    ),
    db
      .update(directDebitMandates)
      .set({ donorId: intoId })
      .where(and(eq(directDebitMandates.donorId, sourceId), userExists(intoId))),
    db
      .update(campaigns)
      .set({ createdBy: intoId })
      .where(and(eq(campaigns.createdBy, sourceId), userExists(intoId))),
    db
      .update(erasureRequests)
      .set({ userId: intoId })
      .where(and(eq(erasureRequests.userId, sourceId), userExists(intoId))),
    db
      .update(supportRequests)
      .set({ userId: intoId })
      .where(and(eq(supportRequests.userId, sourceId), userExists(intoId))),
    db
      .update(supportMessages)
      .set({ hiddenBy: intoId })
      .where(and(eq(supportMessages.hiddenBy, sourceId), userExists(intoId))),
    // A monthly gift's Stripe subscription stays on the merged record's Stripe customer: keep it if the survivor has none.
    db
      .update(users)
      .set({
        stripeCustomerId: sql`coalesce(${users.stripeCustomerId}, (select s.stripe_customer_id from ${users} as s where s.id = ${sourceId}))`,
        updatedAt: at,
      })
      .where(and(eq(users.id, intoId), userExists(sourceId))),
    auditInsertIf(
      db,
      actorOf(viewer, requestId),
      both,
      {
        action: 'user.merge',
        targetType: 'user',
        targetId: intoId,
        organizationId,
        changes: { merged_from: [sourceId, null], email: [source.email, into.email] },
        note: `Merged ${source.email} (${sourceId}) into ${into.email} (${intoId}): ${giftCount} gifts, ${declarationCount} declarations, ${monthlyCount} monthly gifts, ${consentCount} consents, ${linkCount} organization links`,
      },
      at,
    ),
    db
      .delete(users)
      .where(and(eq(users.id, sourceId), userExists(intoId)))
      .returning({ id: users.id }),
  ]);
  const deleted = results[results.length - 1] as { id: string }[];
  // Another merge of the same record got there first: this one changed nothing.
  if (!deleted.length) throw notFound('id: no donor with this id (it may have been merged already)');
  const [audit] = await db
    .select({ id: auditLog.id })
    .from(auditLog)
    .where(
      and(
        eq(auditLog.action, 'user.merge'),
        eq(auditLog.targetId, intoId),
        sql`instr(${auditLog.note}, ${sourceId}) > 0`,
      ),
    )
    .limit(1);
  const moved = (i: number) => (results[i] as unknown[]).length;
  return {
    merged: sourceId,
    into: intoId,
    moved: {
      donations: moved(0),
      declarations: moved(1),
      monthly_gifts: moved(2),
      consents: moved(3),
      organizations: linkCount,
    },
    audit_id: audit?.id ?? '',
  };
}
