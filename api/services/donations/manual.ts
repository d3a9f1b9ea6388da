import { and, eq, inArray, isNull, ne, sql } from 'drizzle-orm';
import type { Db } from '../../../db/client';
import { parseId } from '../../../domain/ids';
import { campaigns, donationReversals, donations, giftAidClaimedGifts } from '../../../db/schema';
import { MAX_DONATION_PENCE, MIN_DONATION_PENCE } from '../../../domain';
import { badRequest, forbidden, HttpError } from '../../lib/errors';
import { isDonor } from '../../lib/policy';
import type { AuthUser } from '../../lib/types';
import type { DonationDto } from '../../schemas';
import type { OfflineGiftInput } from '../../schemas/gift-aid';
import { actorOf, auditInsert, auditInsertIf, changedFields } from '../audit/append';
import { isGiftAidClaimed } from '../gift-aid/claims';
import { canManageOrganization } from '../organizations/manage';
import { getUser } from '../users/manage';
import { findVisibleDonation, getDonation, toDonationDto } from './list';
import type { AuditedWriteContext } from '../../lib/service-context';
import { DAY_MS } from '../../../domain/dates';

/** Manual gifts follow the same bounds as card gifts. */
const MANUAL_MIN_PENCE = MIN_DONATION_PENCE;
const MANUAL_MAX_PENCE = MAX_DONATION_PENCE;

export type DonationInput = {
  donor?: string;
  amount?: number;
  /** `YYYY-MM-DD` or a full ISO timestamp. */
  date?: string;
  campaign?: string;
  appeal?: string | null;
} & OfflineGiftInput;

/** A parent campaign (not an appeal, not deleted) inside the viewer's scope. */
async function resolveCampaign(
  db: Db,
  ref: string,
  viewer: AuthUser,
): Promise<{ id: string; organizationId: string | null }> {
  const id = parseId(ref);
  const [row] = id
    ? await db
        .select({ id: campaigns.id, organizationId: campaigns.organizationId })
        .from(campaigns)
        .where(and(eq(campaigns.id, id), isNull(campaigns.campaignId), ne(campaigns.status, 'deleted')))
        .limit(1)
    : [];
  if (!row || !canManageOrganization(viewer, row.organizationId)) {
    throw badRequest('campaign: No campaign with this id that you can record donations for');
  }
  return row;
}

async function resolveAppeal(db: Db, ref: string, campaignId: string): Promise<string> {
  const id = parseId(ref);
  const [row] = id
    ? await db
        .select({ id: campaigns.id })
        .from(campaigns)
        .where(and(eq(campaigns.id, id), eq(campaigns.campaignId, campaignId), ne(campaigns.status, 'deleted')))
        .limit(1)
    : [];
  if (!row) throw badRequest('appeal: Choose an appeal of the selected campaign');
  return row.id;
}

async function resolveDonor(db: Db, ref: string, viewer: AuthUser): Promise<string> {
  try {
    return (await getUser({ db, viewer }, ref))._id;
  } catch (error) {
    if (error instanceof HttpError && error.status === 404) throw badRequest('donor: No donor with this id');
    throw error;
  }
}

const DATE_ONLY = /^\d{4}-\d{2}-\d{2}$/;
const EARLIEST = Date.UTC(2000, 0, 1);
const londonDay = new Intl.DateTimeFormat('en-CA', {
  timeZone: 'Europe/London',
  year: 'numeric',
  month: '2-digit',
  day: '2-digit',
});

/** A gift's date: a day (stored at 00:00 UTC) or an instant, not before 2000 nor in the future. */
export function parseDonationDate(value: string, now = new Date()): Date {
  const date = new Date(DATE_ONLY.test(value) ? `${value}T00:00:00.000Z` : value);
  if (Number.isNaN(date.getTime())) throw badRequest('date: Enter a date like 2025-03-31');
  // Date.parse rolls 2025-02-31 over to March 3rd; a day must name itself.
  if (DATE_ONLY.test(value) && date.toISOString().slice(0, 10) !== value) {
    throw badRequest(`date: ${value} is not a real calendar date; enter a date like 2025-03-31`);
  }
  // A day's grace so a gift dated "today" anywhere in the world is accepted.
  if (date.getTime() < EARLIEST || date.getTime() > now.getTime() + DAY_MS) {
    throw badRequest('date: Enter a date between 2000-01-01 and today');
  }
  return date;
}

/** Whether a submitted date names the stored one (same instant, or the same day in UTC or London). */
function sameDate(value: string, stored: Date): boolean {
  if (DATE_ONLY.test(value)) return value === stored.toISOString().slice(0, 10) || value === londonDay.format(stored);
  const parsed = new Date(value);
  return !Number.isNaN(parsed.getTime()) && parsed.getTime() === stored.getTime();
}

function checkAmount(amount: number) {
  if (!Number.isInteger(amount) || amount < MANUAL_MIN_PENCE || amount > MANUAL_MAX_PENCE) {
    throw badRequest(`amount: Enter a whole number of pence from ${MANUAL_MIN_PENCE} to ${MANUAL_MAX_PENCE}`);
  }
}

export type NewManualDonation = {
  donor: string;
  amount: number;
  date: string;
  campaign: string;
  appeal: string;
} & OfflineGiftInput;

/** A gift recorded by hand (cheque, cash): source 'manual', already succeeded. */
export async function createManualDonation(ctx: AuditedWriteContext, input: NewManualDonation): Promise<DonationDto> {
  const { db, viewer, requestId } = ctx;
  checkAmount(input.amount);
  const date = parseDonationDate(input.date);
  const { id: campaignId, organizationId } = await resolveCampaign(db, input.campaign, viewer);
  const appealId = await resolveAppeal(db, input.appeal, campaignId);
  const donorId = await resolveDonor(db, input.donor, viewer);
  const id = crypto.randomUUID();
  const values = {
    id,
    amount: input.amount,
    date,
    donorId,
    campaignId,
    appealId,
    status: 'succeeded',
    type: 'once',
    source: 'manual',
    method: input.method ?? null,
    benefitExceedsLimit: input.benefit_exceeds_limit === true,
  } as const;
  await db.batch([
    db.insert(donations).values(values),
    auditInsert(db, actorOf(viewer, requestId), {
      action: 'donation.create',
      targetType: 'donation',
      targetId: id,
      organizationId,
      changes: changedFields(
        {},
        {
          amount: values.amount,
          date: date.toISOString(),
          donorId,
          campaignId,
          appealId,
          source: 'manual',
          method: values.method,
        },
      ),
    }),
  ]);
  return getDonation({ db, viewer }, id);
}

export async function updateDonation(
  ctx: AuditedWriteContext,
  idParam: string,
  input: DonationInput,
): Promise<DonationDto> {
  const { db, viewer, requestId } = ctx;
  const current = await findVisibleDonation(db, idParam, viewer);
  if (isDonor(viewer)) throw forbidden('Only admins and organization admins can edit donations');
  const row = current.row;

  const changed =
    (input.amount !== undefined && input.amount !== row.amount) ||
    (input.date !== undefined && !sameDate(input.date, row.date)) ||
    (input.donor !== undefined &&
      parseId(input.donor) !== row.donorId &&
      !(input.donor === 'me' && viewer.id === row.donorId)) ||
    (input.campaign !== undefined && parseId(input.campaign) !== row.campaignId) ||
    (input.appeal !== undefined && (input.appeal === null ? null : parseId(input.appeal)) !== row.appealId) ||
    (input.method !== undefined && input.method !== row.method) ||
    (input.benefit_exceeds_limit !== undefined && input.benefit_exceeds_limit !== row.benefitExceedsLimit);
  if (row.source !== 'manual') {
    // Card and demo gifts mirror the payment provider, and a posted batch adds up to its paying-in
    // slip (decision 034): the form may send them back unchanged only; corrections are new rows.
    if (changed)
      throw badRequest(
        row.source === 'batch'
          ? 'A gift in a posted batch is corrected by reversing it and entering the right one in a new batch'
          : 'Card donations cannot be edited',
      );
    return toDonationDto(current);
  }
  // A gift HMRC has been asked to pay Gift Aid on (or a Small Donations claim counted) must keep
  // what the claim says (docs/decisions/017).
  if (changed && (row.gasdsClaimId || (await isGiftAidClaimed(db, row.id)))) {
    throw badRequest(
      'This gift is in a Gift Aid claim and cannot be changed; record the correction as a new gift or a refund',
    );
  }
  // Money already went back off it: its reversals were measured against what it was.
  if (changed && (await hasReversals(db, row.id))) {
    throw badRequest(
      'Part of this gift was already reversed, so it cannot be changed; reverse what remains and record the right gift',
    );
  }

  const changes: Partial<typeof donations.$inferInsert> = {};
  if (input.amount !== undefined) {
    checkAmount(input.amount);
    changes.amount = input.amount;
  }
  if (input.date !== undefined && !sameDate(input.date, row.date)) changes.date = parseDonationDate(input.date);
  const campaignId =
    input.campaign !== undefined ? (await resolveCampaign(db, input.campaign, viewer)).id : row.campaignId;
  if (campaignId !== row.campaignId) changes.campaignId = campaignId;
  const appealRef = input.appeal !== undefined ? input.appeal : row.appealId;
  const appealId = appealRef === null ? null : await resolveAppeal(db, appealRef, campaignId);
  if (appealId !== row.appealId) changes.appealId = appealId;
  if (input.method !== undefined && input.method !== row.method) changes.method = input.method;
  if (input.benefit_exceeds_limit !== undefined && input.benefit_exceeds_limit !== row.benefitExceedsLimit) {
    changes.benefitExceedsLimit = input.benefit_exceeds_limit;
  }
  if (input.donor !== undefined) {
    const donorId = await resolveDonor(db, input.donor, viewer);
    if (donorId !== row.donorId) changes.donorId = donorId;
  }
  // A declaration is one donor's to one charity: moved to another donor or organization, the gift
  // has none until staff check again (Gift Aid, on its page), rather than claim under someone else's.
  if (row.giftAidDeclarationId && (changes.donorId || (await organizationChanged(db, row.campaignId, campaignId)))) {
    changes.giftAid = false;
    changes.giftAidDeclarationId = null;
  }
  const diff = changedFields(row as Record<string, unknown>, changes);
  if (Object.keys(diff).length) {
    // Guarded as read: a claim or a reversal that lands meanwhile wins, and nothing is logged.
    const untouched = and(
      eq(donations.id, row.id),
      isNull(donations.gasdsClaimId),
      sql`not exists (select 1 from ${giftAidClaimedGifts} where ${giftAidClaimedGifts.donationId} = ${row.id})`,
      sql`not exists (select 1 from ${donationReversals} where ${donationReversals.donationId} = ${row.id})`,
    );
    await db.batch([
      db.update(donations).set(changes).where(untouched),
      auditInsertIf(db, actorOf(viewer, requestId), sql`changes() = 1`, {
        action: 'donation.update',
        targetType: 'donation',
        targetId: row.id,
        organizationId: current.campaignOrganizationId,
        changes: diff,
      }),
    ]);
    const [after] = await db.select().from(donations).where(eq(donations.id, row.id)).limit(1);
    if (Object.keys(changedFields(after as Record<string, unknown>, changes)).length)
      throw new HttpError(409, 'This gift was claimed or reversed a moment ago; reload it to see what it is now');
  }
  return getDonation({ db, viewer }, row.id);
}

/** Whether any money went back off a gift (a refund, reversal or dispute row, in any state). */
async function hasReversals(db: Db, donationId: string): Promise<boolean> {
  const [row] = await db
    .select({ id: donationReversals.id })
    .from(donationReversals)
    .where(eq(donationReversals.donationId, donationId))
    .limit(1);
  return Boolean(row);
}

/** Whether moving a gift from one campaign to another moves it to another organization. */
async function organizationChanged(db: Db, fromCampaign: string, toCampaign: string): Promise<boolean> {
  if (fromCampaign === toCampaign) return false;
  const rows = await db
    .select({ id: campaigns.id, organizationId: campaigns.organizationId })
    .from(campaigns)
    .where(inArray(campaigns.id, [fromCampaign, toCampaign]));
  const orgOf = (id: string) => rows.find((r) => r.id === id)?.organizationId ?? null;
  return orgOf(fromCampaign) !== orgOf(toCampaign);
}
