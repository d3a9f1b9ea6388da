import { and, desc, eq, isNull, sql } from 'drizzle-orm';
import type { Db } from '../../../db/client';
import { parseId } from '../../../domain/ids';
import { donations, giftAidDeclarations } from '../../../db/schema';
import {
  checkGiftAidDetails,
  giftAidDeclaration,
  type GiftAidDeclarationMethod,
  type GiftAidDetails,
  type GiftAidDetailsInput,
} from '../../../domain';
import { badRequest, HttpError, notFound } from '../../lib/errors';
import { auditInsert, changedFields, staffActor } from '../audit/append';
import { claimScope } from './scope';
import type { DeclarationDto } from '../../schemas/gift-aid';
import type { AuditedWriteContext } from '../../lib/service-context';
import { DAY_MS, isoOrNull } from '../../../domain/dates';

export type DeclarationRow = typeof giftAidDeclarations.$inferSelect;

/**
 * The API's check of Gift Aid details: the domain rule, each failure a 400 naming the field.
 * `prefix` places the field in the request body ("gift_aid." inside a checkout body).
 */
export function parseGiftAidDetails(
  input: GiftAidDetailsInput,
  prefix = '',
  options: { overseas?: boolean } = {},
): GiftAidDetails {
  const result = checkGiftAidDetails(input, options);
  if (!result.ok) throw badRequest(result.problems.map((p) => `${prefix}${p.message}`).join('; '));
  return result.details;
}

/** The wording a donor accepts for a charity; the donation box shows the same text. */
export function declarationTextFor(charityLegalName: string): string {
  return giftAidDeclaration(charityLegalName);
}

export type NewDeclaration = {
  donorId: string;
  details: GiftAidDetails;
  text: string;
  organizationId: string | null;
  method: GiftAidDeclarationMethod;
  coversPast?: boolean;
  coversFuture?: boolean;
  declaredAt?: Date;
  recordedBy?: string | null;
  /** A donation box's declaration waits for its gift's payment (the recording path clears it). */
  pendingDonationId?: string | null;
  overseas?: boolean;
  confirmationSentAt?: Date | null;
};

/** The stored row of a declaration: its HMRC fields and the whole name and address built from them. */
export function rowValues(
  input: NewDeclaration,
  id: string,
  version = 1,
  now = new Date(),
): typeof giftAidDeclarations.$inferInsert {
  const { details } = input;
  return {
    id,
    donorId: input.donorId,
    fullName: [details.title, details.firstName, details.lastName].filter(Boolean).join(' '),
    homeAddress: [details.house, details.address].filter(Boolean).join(', '),
    postcode: details.postcode,
    declarationText: input.text,
    createdAt: now,
    title: details.title,
    firstName: details.firstName,
    lastName: details.lastName,
    house: details.house,
    address: details.address,
    method: input.method,
    organizationId: input.organizationId,
    coversPast: input.coversPast ?? true,
    coversFuture: input.coversFuture ?? true,
    declaredAt: input.declaredAt ?? now,
    version,
    recordedBy: input.recordedBy ?? null,
    pendingDonationId: input.pendingDonationId ?? null,
    overseas: input.overseas ?? false,
    confirmationSentAt: input.confirmationSentAt ?? null,
  };
}

export async function createDeclaration(db: Db, input: NewDeclaration): Promise<string> {
  const id = crypto.randomUUID();
  await db.insert(giftAidDeclarations).values(rowValues(input, id));
  return id;
}

export function toDeclarationDto(row: DeclarationRow): DeclarationDto {
  return {
    _id: row.id,
    version: row.version,
    title: row.title,
    first_name: row.firstName,
    last_name: row.lastName,
    house: row.house,
    address: row.address,
    postcode: row.postcode,
    declaration: row.declarationText,
    method: row.method,
    covers_past: row.coversPast,
    covers_future: row.coversFuture,
    declared_at: row.declaredAt.toISOString(),
    cancelled_at: isoOrNull(row.cancelledAt),
    replaced_by: row.replacedBy,
    needs_review: row.needsReview,
    organization_id: row.organizationId,
    overseas: row.overseas,
    confirmation_sent_at: isoOrNull(row.confirmationSentAt),
    effective: !row.cancelledAt && !row.replacedBy && (row.method !== 'oral' || row.confirmationSentAt !== null),
  };
}

/**
 * Every declaration a donor has made, every version, newest first (My Info shows the history).
 * One made with a gift not yet paid is not theirs yet: anyone can type an email into the donation box.
 */
export async function listDonorDeclarations(db: Db, donorId: string): Promise<DeclarationRow[]> {
  return db
    .select()
    .from(giftAidDeclarations)
    .where(and(eq(giftAidDeclarations.donorId, donorId), isNull(giftAidDeclarations.pendingDonationId)))
    .orderBy(desc(giftAidDeclarations.createdAt), desc(giftAidDeclarations.version));
}

/** The declarations still in force: not cancelled and not replaced by a newer version. */
export function activeDeclarations(rows: DeclarationRow[]): DeclarationRow[] {
  return rows.filter((row) => !row.cancelledAt && !row.replacedBy);
}

/**
 * A new address: every active declaration of the donor gets a new version with the new details
 * (same wording, coverage and date made), and the old version points at it. Gifts already given
 * keep the version they were given under. One batch, so a failure changes nothing.
 */
export async function updateDonorDetails(db: Db, donorId: string, details: GiftAidDetails): Promise<DeclarationRow[]> {
  const active = activeDeclarations(await listDonorDeclarations(db, donorId));
  if (!active.length)
    throw badRequest('You have no Gift Aid declaration in force to update; tick Gift Aid with your next donation');
  const statements = active.flatMap((old) => {
    const id = crypto.randomUUID();
    const values = rowValues(
      {
        donorId,
        details,
        text: old.declarationText,
        organizationId: old.organizationId,
        method: old.method,
        coversPast: old.coversPast,
        coversFuture: old.coversFuture,
        declaredAt: old.declaredAt,
        recordedBy: old.recordedBy,
        overseas: old.overseas,
        confirmationSentAt: old.confirmationSentAt,
      },
      id,
      old.version + 1,
    );
    return [
      db.insert(giftAidDeclarations).values(values),
      db
        .update(giftAidDeclarations)
        .set({ replacedBy: id })
        .where(and(eq(giftAidDeclarations.id, old.id), isNull(giftAidDeclarations.replacedBy))),
    ];
  });
  await db.batch(statements as [(typeof statements)[number], ...typeof statements]);
  return activeDeclarations(await listDonorDeclarations(db, donorId));
}

/**
 * Cancels every declaration of the donor (all versions, and those held with a paid guest gift)
 * from now: they stay on record with the date they ended, gifts after it are not eligible, and gifts still waiting for payment lose the
 * Gift Aid flag. Claimed and already-given gifts keep theirs.
 */
export async function cancelDonorDeclarations(db: Db, donorId: string, now = new Date()): Promise<number> {
  // Those held with a paid gift given as a guest too (decision 077): the account's owner saying no to
  // Gift Aid stops a monthly gift's renewals being claimed under one, whoever typed it. A checkout
  // still in progress keeps its own (it may be someone else's, at the box right now).
  const theirs = and(
    eq(giftAidDeclarations.donorId, donorId),
    isNull(giftAidDeclarations.cancelledAt),
    sql`(${giftAidDeclarations.pendingDonationId} is null or exists (select 1 from donations g
      where g.id = ${giftAidDeclarations.pendingDonationId} and g.status in ('succeeded', 'refunded')))`,
  );
  const open = await db.select({ id: giftAidDeclarations.id }).from(giftAidDeclarations).where(theirs);
  if (!open.length) return 0;
  await db.batch([
    db.update(giftAidDeclarations).set({ cancelledAt: now }).where(theirs),
    db
      .update(donations)
      .set({ giftAid: false })
      .where(and(eq(donations.donorId, donorId), eq(donations.giftAid, true), eq(donations.status, 'pending'))),
  ]);
  return open.length;
}

/**
 * Whether a declaration covers a gift on `date`: not cancelled before it (nor void from the start:
 * cancelled as of the moment it was made), and either the gift it
 * was made with (within a day), a later gift when it covers future gifts, or an earlier one (up
 * to four years) when it covers past gifts. The claims query applies the same rule in SQL.
 */
export function coversGift(
  row: Pick<DeclarationRow, 'cancelledAt' | 'declaredAt' | 'coversPast' | 'coversFuture'> &
    Partial<Pick<DeclarationRow, 'method' | 'confirmationSentAt'>>,
  date: Date,
): boolean {
  const t = date.getTime();
  // HMRC: an oral declaration is not valid until the charity has sent the donor a written record of it.
  if (row.method === 'oral' && !row.confirmationSentAt) return false;
  const made = row.declaredAt.getTime();
  // Cancelled on or before the day it was made (an oral one within its 30 days): void from the start.
  if (row.cancelledAt && (row.cancelledAt.getTime() <= t || row.cancelledAt.getTime() <= made)) return false;
  if (Math.abs(t - made) <= DAY_MS) return true;
  if (t > made) return row.coversFuture;
  return row.coversPast && t >= made - PAST_MS;
}

/** Four years back (HMRC's limit for a declaration that covers past gifts), with the leap day. */
const PAST_MS = (4 * 365 + 1) * DAY_MS;

/** The same rule as coversGift, as SQL over `donations` joined with `gift_aid_declarations`. */
export const coversGiftSql = sql`(
  (${giftAidDeclarations.method} <> 'oral' or ${giftAidDeclarations.confirmationSentAt} is not null)
  and (${giftAidDeclarations.cancelledAt} is null or (${giftAidDeclarations.cancelledAt} > ${donations.date}
    and ${giftAidDeclarations.cancelledAt} > ${giftAidDeclarations.declaredAt}))
  and (
    abs(${donations.date} - ${giftAidDeclarations.declaredAt}) <= ${DAY_MS}
    or (${donations.date} > ${giftAidDeclarations.declaredAt} and ${giftAidDeclarations.coversFuture} = 1)
    or (${donations.date} < ${giftAidDeclarations.declaredAt} and ${giftAidDeclarations.coversPast} = 1
        and ${donations.date} >= ${giftAidDeclarations.declaredAt} - ${PAST_MS})
  ))`;

/** Declarations flagged by the migration for a person to check (one-line names and addresses). */
export async function listDeclarationsForReview(db: Db, organizationIds: string[] | null): Promise<DeclarationRow[]> {
  const rows = await db
    .select()
    .from(giftAidDeclarations)
    .where(and(eq(giftAidDeclarations.needsReview, true), isNull(giftAidDeclarations.replacedBy)))
    .orderBy(giftAidDeclarations.createdAt)
    .limit(200);
  if (!organizationIds) return rows;
  return rows.filter((row) => row.organizationId !== null && organizationIds.includes(row.organizationId));
}

/** The columns a correction of a flagged declaration sets (the one-line name and address follow). */
const correctedColumns = (details: GiftAidDetails) => ({
  title: details.title,
  firstName: details.firstName,
  lastName: details.lastName,
  house: details.house,
  address: details.address,
  postcode: details.postcode,
  fullName: [details.title, details.firstName, details.lastName].filter(Boolean).join(' '),
  homeAddress: [details.house, details.address].filter(Boolean).join(', '),
  needsReview: false,
});

/**
 * The correction of a declaration the migration flagged for review (one-line names and addresses),
 * in place, with its audit row in the same batch; a 404 when there is no such declaration. Only a
 * flagged one: any other declaration is what the donor declared, and their new details make a new
 * version of it (updateDonorDetails), never a rewrite of the one HMRC may already hold.
 */
export async function correctFlaggedDeclaration(
  ctx: AuditedWriteContext,
  idRef: string,
  details: GiftAidDetails,
): Promise<DeclarationRow> {
  const { db, viewer } = ctx;
  const id = parseId(idRef);
  const [existing] = id
    ? await db.select().from(giftAidDeclarations).where(eq(giftAidDeclarations.id, id)).limit(1)
    : [];
  // Organization admins and finance correct their own organization's declarations; migrated ones naming none are admins'.
  const scope = claimScope(viewer);
  if (!existing || (scope !== null && (!existing.organizationId || !scope.includes(existing.organizationId))))
    throw notFound('Declaration not found');
  if (!existing.needsReview)
    throw new HttpError(
      409,
      'Only a declaration flagged for review is corrected in place; new details from the donor make a new version of it',
    );
  const columns = correctedColumns(details);
  await db.batch([
    db
      .update(giftAidDeclarations)
      .set(columns)
      .where(and(eq(giftAidDeclarations.id, existing.id), eq(giftAidDeclarations.needsReview, true))),
    auditInsert(db, staffActor(ctx), {
      action: 'declaration.correct',
      targetType: 'declaration',
      targetId: existing.id,
      organizationId: existing.organizationId,
      changes: changedFields(existing as Record<string, unknown>, columns),
    }),
  ]);
  const [row] = await db.select().from(giftAidDeclarations).where(eq(giftAidDeclarations.id, existing.id)).limit(1);
  return row;
}
