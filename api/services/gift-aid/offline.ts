import { and, eq, inArray, isNull, sql } from 'drizzle-orm';
import type { Db } from '../../../db/client';
import { parseId } from '../../../domain/ids';
import { donations, giftAidClaimedGifts, giftAidClaims, giftAidDeclarations, users } from '../../../db/schema';
import { type GiftAidDetails, isIsoDay, londonIsoDate, londonMidnight } from '../../../domain';
import { badRequest, HttpError, notFound } from '../../lib/errors';
import type { AuthUser } from '../../lib/types';
import { auditInsert, staffActor } from '../audit/append';
import { charityForOrganization } from '../organizations/charity';
import { createMailer } from '../mail/mailer';
import { declarationConfirmationEmail } from '../mail/declaration-confirmation';
import { canManageOrganization } from '../organizations/manage';
import { getUser } from '../users/manage';
import { findGiftWithOrganization } from '../donations/list';
import {
  coversGift,
  declarationTextFor,
  listDonorDeclarations,
  type DeclarationRow,
  type NewDeclaration,
  rowValues,
} from './declarations';
import { claimScope } from './scope';
import type { AuditedWriteContext, SignedInContext, ViewerContext } from '../../lib/service-context';
import { DAY_MS } from '../../../domain/dates';

export type OfflineDeclarationInput = {
  donor_id: string;
  organization_id: string;
  details: GiftAidDetails;
  covers_past: boolean;
  covers_future: boolean;
  /** The day the donor signed or said it (London), YYYY-MM-DD. */
  declared_on: string;
  method?: 'paper' | 'oral';
  overseas?: boolean;
};

/** HMRC: a donor may cancel an oral declaration within 30 days of its written record; it is then void from the start. */
const ORAL_COOLING_OFF_MS = 30 * DAY_MS;

async function visibleDonorId(db: Db, viewer: AuthUser, ref: string): Promise<string> {
  try {
    return (await getUser({ db, viewer }, ref))._id;
  } catch (error) {
    if (error instanceof HttpError && error.status === 404)
      throw badRequest('donor_id: no donor with this id among the donors you can see');
    throw error;
  }
}

/**
 * A declaration made on paper (a signed form) or orally (by phone or in person; it counts only once
 * a written confirmation was sent), recorded by staff for one of their organizations. Audited.
 */
export async function recordOfflineDeclaration(
  ctx: AuditedWriteContext & Pick<SignedInContext, 'now'> & Pick<SignedInContext, 'config'>,
  input: OfflineDeclarationInput,
): Promise<DeclarationRow> {
  const { db, config, now } = ctx;
  const actor = staffActor(ctx);
  const viewer = actor.user;
  const organizationId = parseId(input.organization_id);
  if (!organizationId) throw badRequest('organization_id: must be an organization id');
  if (!canManageOrganization(viewer, organizationId))
    throw new HttpError(403, 'You can only record declarations for your own organizations');
  if (!isIsoDay(input.declared_on)) throw badRequest('declared_on: enter a date like 2026-04-06');
  if (input.declared_on > londonIsoDate(now)) throw badRequest('declared_on: cannot be in the future');
  const donorId = await visibleDonorId(db, viewer, input.donor_id);
  const charity = await charityForOrganization(db, config, organizationId);
  const id = crypto.randomUUID();
  const method = input.method ?? 'paper';
  const { details } = input;
  const values: NewDeclaration = {
    donorId,
    details,
    text: declarationTextFor(charity.legalName),
    organizationId,
    method,
    coversPast: input.covers_past,
    coversFuture: input.covers_future,
    declaredAt: londonMidnight(input.declared_on),
    recordedBy: viewer.id,
    overseas: input.overseas === true,
  };
  await db.batch([
    db.insert(giftAidDeclarations).values(rowValues(values, id, 1, now)),
    auditInsert(
      db,
      actor,
      {
        action: 'declaration.create',
        targetType: 'declaration',
        targetId: id,
        organizationId,
        changes: { method: [null, method], declared_on: [null, input.declared_on], donor_id: [null, donorId] },
      },
      now,
    ),
  ]);
  const rows = await listDonorDeclarations(db, donorId);
  return rows.find((row) => row.id === id)!;
}

/** A donor's declarations as staff see them: admins every one, organization admins those to their organizations. */
export async function listDeclarationsForDonor(ctx: ViewerContext, donorRef: string): Promise<DeclarationRow[]> {
  const { db, viewer } = ctx;
  const scope = claimScope(viewer);
  const donorId = await visibleDonorId(db, viewer, donorRef);
  const rows = await listDonorDeclarations(db, donorId);
  return scope === null
    ? rows
    : rows.filter((row) => row.organizationId !== null && scope.includes(row.organizationId));
}

/** One declaration staff may see (their organization's, finance users' too); anything else is a 404. */
async function staffDeclaration(db: Db, viewer: AuthUser, idRef: string): Promise<DeclarationRow> {
  const scope = claimScope(viewer);
  const id = parseId(idRef);
  const [row] = id ? await db.select().from(giftAidDeclarations).where(eq(giftAidDeclarations.id, id)).limit(1) : [];
  if (!row || (scope !== null && (row.organizationId === null || !scope.includes(row.organizationId))))
    throw notFound('Declaration not found');
  return row;
}

/**
 * One declaration staff may change: cancelling or confirming one is its organization's admins' (as
 * recording one is, decision 032). A finance user sees it and is told so (403).
 */
async function declarationToManage(db: Db, viewer: AuthUser, idRef: string): Promise<DeclarationRow> {
  const row = await staffDeclaration(db, viewer, idRef);
  if (!canManageOrganization(viewer, row.organizationId))
    throw new HttpError(403, "Only the organization's admins can cancel or confirm its declarations");
  return row;
}

/** Every version of the same declaration: the chain of replaced_by links through this one. */
async function versionChain(db: Db, row: DeclarationRow): Promise<DeclarationRow[]> {
  const all = await listDonorDeclarations(db, row.donorId);
  const byId = new Map(all.map((r) => [r.id, r]));
  const chain = new Set<string>([row.id]);
  let grew = true;
  while (grew) {
    grew = false;
    for (const r of all) {
      if (chain.has(r.id)) continue;
      if ((r.replacedBy && chain.has(r.replacedBy)) || [...chain].some((id) => byId.get(id)?.replacedBy === r.id)) {
        chain.add(r.id);
        grew = true;
      }
    }
  }
  return all.filter((r) => chain.has(r.id));
}

/**
 * Cancels one declaration (every version of it) from now, as the donor asked staff to. An oral
 * declaration cancelled within 30 days of its written confirmation is cancelled from the day it was
 * made (HMRC), and so covers none of the gifts it was made for, past ones included. Gifts still
 * pending under it (every unclaimed one, when void) lose the Gift Aid flag; claimed gifts keep theirs.
 */
export async function cancelDeclaration(
  ctx: AuditedWriteContext & Pick<SignedInContext, 'now'>,
  idRef: string,
): Promise<DeclarationRow> {
  const { db, now } = ctx;
  const actor = staffActor(ctx);
  const row = await declarationToManage(db, actor.user, idRef);
  const chain = await versionChain(db, row);
  if (chain.every((r) => r.cancelledAt)) throw new HttpError(409, 'This declaration is already cancelled');
  const withinCoolingOff =
    row.method === 'oral' &&
    (!row.confirmationSentAt || now.getTime() - row.confirmationSentAt.getTime() <= ORAL_COOLING_OFF_MS);
  const cancelledAt = withinCoolingOff ? row.declaredAt : now;
  const ids = chain.map((r) => r.id);
  if (withinCoolingOff) {
    // Void from the start, its gifts must not reach HMRC: a draft claim holding one is voided first.
    const [inDraft] = await db
      .select({ claimId: giftAidClaimedGifts.claimId })
      .from(giftAidClaimedGifts)
      .innerJoin(donations, eq(donations.id, giftAidClaimedGifts.donationId))
      .innerJoin(giftAidClaims, eq(giftAidClaims.id, giftAidClaimedGifts.claimId))
      .where(and(inArray(donations.giftAidDeclarationId, ids), eq(giftAidClaims.status, 'draft')))
      .limit(1);
    if (inDraft)
      throw new HttpError(
        409,
        'A draft Gift Aid claim holds a gift under this declaration, which this cancellation makes void from the start; void that claim first, then cancel, then claim again',
      );
  }
  await db.batch([
    db
      .update(giftAidDeclarations)
      .set({ cancelledAt })
      .where(and(inArray(giftAidDeclarations.id, ids), isNull(giftAidDeclarations.cancelledAt))),
    db
      .update(donations)
      .set({ giftAid: false })
      .where(
        and(
          inArray(donations.giftAidDeclarationId, ids),
          eq(donations.giftAid, true),
          // Void from the start: every gift under it not yet claimed; else only the gifts still to come.
          withinCoolingOff
            ? sql`not exists (select 1 from ${giftAidClaimedGifts} where ${giftAidClaimedGifts.donationId} = ${donations.id})`
            : eq(donations.status, 'pending'),
        ),
      ),
    auditInsert(
      db,
      actor,
      {
        action: 'declaration.cancel',
        targetType: 'declaration',
        targetId: row.id,
        organizationId: row.organizationId,
        changes: { cancelled_at: [null, cancelledAt.toISOString()] },
        note: withinCoolingOff
          ? 'Oral declaration cancelled within 30 days of its written confirmation: void from the day it was made'
          : null,
      },
      now,
    ),
  ]);
  return (await staffDeclaration(db, actor.user, row.id)) as DeclarationRow;
}

/**
 * Records that the written confirmation of an oral declaration was sent: by this product's email
 * now (the wording and the right to cancel within 30 days), or on a given day by post.
 */
export async function confirmOralDeclaration(
  ctx: AuditedWriteContext & Pick<SignedInContext, 'now'> & Pick<SignedInContext, 'config'>,
  idRef: string,
  input: { send_email?: boolean; sent_on?: string },
): Promise<DeclarationRow> {
  const { db, config, now } = ctx;
  const actor = staffActor(ctx);
  const row = await declarationToManage(db, actor.user, idRef);
  if (row.method !== 'oral') throw badRequest('method: only an oral declaration needs a written confirmation');
  if (row.cancelledAt) throw new HttpError(409, 'This declaration is cancelled');
  if (row.confirmationSentAt)
    throw new HttpError(409, `The confirmation was already sent on ${londonIsoDate(row.confirmationSentAt)}`);
  let sentAt = now;
  if (input.sent_on) {
    if (!isIsoDay(input.sent_on)) throw badRequest('sent_on: enter a date like 2026-04-06');
    if (input.sent_on > londonIsoDate(now)) throw badRequest('sent_on: cannot be in the future');
    if (input.sent_on < londonIsoDate(row.declaredAt))
      throw badRequest(
        `sent_on: must be on or after the day the declaration was made (${londonIsoDate(row.declaredAt)})`,
      );
    sentAt = londonMidnight(input.sent_on);
  }
  const byEmail = input.send_email !== false && !input.sent_on;
  if (byEmail) {
    const [donor] = await db.select({ email: users.email }).from(users).where(eq(users.id, row.donorId)).limit(1);
    if (!donor?.email || donor.email.endsWith('.invalid'))
      throw badRequest('send_email: this donor has no email address; send the confirmation by post and give sent_on');
    const charity = await charityForOrganization(db, config, row.organizationId);
    await createMailer(db, config).send(
      declarationConfirmationEmail({
        declarationId: row.id,
        to: donor.email,
        firstName: row.firstName,
        fullName: row.fullName,
        address: [row.homeAddress, row.postcode].filter(Boolean).join(', '),
        declaredAt: row.declaredAt,
        coversPast: row.coversPast,
        coversFuture: row.coversFuture,
        wording: row.declarationText,
        charity,
      }),
    );
  }
  const chainIds = (await versionChain(db, row)).map((r) => r.id);
  await db.batch([
    db.update(giftAidDeclarations).set({ confirmationSentAt: sentAt }).where(inArray(giftAidDeclarations.id, chainIds)),
    auditInsert(
      db,
      actor,
      {
        action: 'declaration.confirm',
        targetType: 'declaration',
        targetId: row.id,
        organizationId: row.organizationId,
        changes: { confirmation_sent_at: [null, sentAt.toISOString()] },
        note: byEmail ? 'Written confirmation sent by email' : 'Written confirmation sent by post',
      },
      now,
    ),
  ]);
  return staffDeclaration(db, actor.user, row.id);
}

/**
 * Marks a gift recorded by hand (cash, cheque, a batch line) as Gift Aid once staff have checked the
 * donor's declaration: the donor must have one to this gift's charity that covers the gift's date
 * (an oral one confirmed in writing). Card gifts take their flag from the donation box only. Audited.
 */
export async function verifyOfflineGift(
  ctx: AuditedWriteContext & Pick<SignedInContext, 'now'>,
  idRef: string,
): Promise<{ _id: string; gift_aid: true; declaration_id: string }> {
  const { db } = ctx;
  const actor = staffActor(ctx);
  const viewer = actor.user;
  const row = await findGiftWithOrganization(db, idRef);
  if (!row || !canManageOrganization(viewer, row.organizationId)) throw notFound('Donation Not Found');
  const gift = row.gift;
  if (gift.source !== 'manual' && gift.source !== 'batch') {
    throw badRequest(
      'Only gifts recorded by hand can be verified for Gift Aid; card gifts carry the donor’s own declaration',
    );
  }
  if (gift.status !== 'succeeded') throw badRequest(`This gift is ${gift.status}; only a received gift can be claimed`);
  if (gift.benefitExceedsLimit)
    throw badRequest(
      "benefit_exceeds_limit: the donor received a benefit above HMRC's limits for this gift, so it cannot carry Gift Aid",
    );
  if (gift.gasdsClaimId)
    throw badRequest('This gift was claimed under the Small Donations Scheme; it cannot also carry Gift Aid');
  const declaration = (await listDonorDeclarations(db, gift.donorId)).find(
    (d) => !d.replacedBy && d.organizationId === row.organizationId && coversGift(d, gift.date),
  );
  if (!declaration) {
    throw badRequest(
      "declaration: this donor has no Gift Aid declaration to this charity covering the gift's date (an oral one needs its written confirmation sent); record one first",
    );
  }
  if (gift.giftAid && gift.giftAidDeclarationId === declaration.id)
    return { _id: gift.id, gift_aid: true, declaration_id: declaration.id };
  await db.batch([
    db
      .update(donations)
      .set({ giftAid: true, giftAidDeclarationId: declaration.id })
      .where(
        and(
          eq(donations.id, gift.id),
          sql`not exists (select 1 from ${giftAidClaimedGifts} where ${giftAidClaimedGifts.donationId} = ${gift.id})`,
        ),
      ),
    auditInsert(db, actor, {
      action: 'donation.gift_aid_verify',
      targetType: 'donation',
      targetId: gift.id,
      organizationId: row.organizationId,
      changes: { gift_aid: [gift.giftAid, true], gift_aid_declaration_id: [gift.giftAidDeclarationId, declaration.id] },
    }),
  ]);
  return { _id: gift.id, gift_aid: true, declaration_id: declaration.id };
}

export type CoveringAnswer = { eligible: boolean; declaration: DeclarationRow | null; reason: string | null };

/**
 * Whether a donor's declaration to an organization covers a gift on `day` (London), as batch entry
 * asks before a line is posted: the declaration that covers it, or the nearest one and why it does not.
 * Posting the batch checks again (the same `coversGift`).
 */
export async function declarationCovering(
  ctx: ViewerContext,
  input: { donor_id: string; organization_id: string; date: string },
): Promise<CoveringAnswer> {
  const { db, viewer } = ctx;
  const scope = claimScope(viewer);
  const organizationId = parseId(input.organization_id);
  if (!organizationId) throw badRequest('organization_id: must be an organization id');
  if (scope !== null && !scope.includes(organizationId))
    throw new HttpError(403, 'You can only check declarations for your own organizations');
  const donorId = await visibleDonorId(db, viewer, input.donor_id);
  const date = londonMidnight(input.date);
  const current = (await listDonorDeclarations(db, donorId)).filter(
    (d) => !d.replacedBy && d.organizationId === organizationId,
  );
  const covering = current.find((d) => coversGift(d, date));
  if (covering) return { eligible: true, declaration: covering, reason: null };
  const nearest = current[0] ?? null;
  return {
    eligible: false,
    declaration: nearest,
    reason: nearest
      ? whyNotCovered(nearest, date)
      : 'This donor has no Gift Aid declaration to this charity; add one on their page first.',
  };
}

function whyNotCovered(d: DeclarationRow, date: Date): string {
  const made = londonIsoDate(d.declaredAt);
  if (d.method === 'oral' && !d.confirmationSentAt)
    return `The oral declaration of ${made} counts only once its written confirmation is sent; send it from the donor's page.`;
  if (d.cancelledAt && d.cancelledAt.getTime() <= d.declaredAt.getTime())
    return `The declaration made on ${made} was cancelled within 30 days of its written confirmation, so it never counted.`;
  if (d.cancelledAt && d.cancelledAt.getTime() <= date.getTime())
    return `The declaration was cancelled on ${londonIsoDate(d.cancelledAt)}.`;
  if (date.getTime() > d.declaredAt.getTime()) return `The declaration made on ${made} does not cover later gifts.`;
  if (!d.coversPast) return `The declaration made on ${made} does not cover earlier gifts.`;
  return `The gift is more than 4 years before the declaration made on ${made}.`;
}
