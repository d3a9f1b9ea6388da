import { and, asc, eq, inArray, isNull, ne, sql } from 'drizzle-orm';
import type { Db } from '../../../db/client';
import { parseId } from '../../../domain/ids';
import { campaigns, donationBatches, donations, organizations, users } from '../../../db/schema';
import { DAY_MS, isIsoDay, londonIsoDate, londonMidnight } from '../../../domain/dates';
import { collectionsAddress, noEmailAddress } from '../../../domain/email';
import { GASDS_METHODS } from '../../../domain/gift-aid';
import { formatPence } from '../../../domain/money';
import type { BatchBody, BatchDto, BatchGift } from '../../schemas/batches';
import { badRequest, forbidden, HttpError } from '../../lib/errors';
import { inOrgScope } from '../../lib/policy';
import { actorOf, auditInsert } from '../audit/append';
import { coversGift, listDonorDeclarations, type DeclarationRow } from '../gift-aid/declarations';
import { sendReceipt } from '../mail/notify';
import { getUser } from '../users/manage';
import { getBatch } from './list';
import type { Statement } from '../donations/record';
import type { SignedInContext } from '../../lib/service-context';

export type BatchContext = Pick<SignedInContext, 'db' | 'viewer' | 'requestId' | 'mail'>;

type ResolvedLine = {
  id: string;
  donorId: string;
  newDonor: typeof users.$inferInsert | null;
  campaignId: string;
  appealId: string | null;
  giftAid: boolean;
  declarationId: string | null;
  benefitExceedsLimit: boolean;
  receipt: boolean;
  collection: boolean;
};

/**
 * Posts a batch of offline income: every line becomes a succeeded gift (source 'batch'), new donors
 * are created, and the batch row, its gifts and one audit row are written in one db.batch, so a
 * failure stores none of them. The Idempotency-Key makes a batch post once: the same key again
 * answers the first batch (200), a different batch under the same key is refused (409).
 */
/**
 * One paying-in slip is one deposit: the same reference entered again for the organization (another
 * person at the office, a second tab) would count the money twice in the totals, the journal and a
 * Gift Aid claim. A retry of the same request is a replay (its key), not this.
 */
async function refuseSecondSlip(db: Db, organizationId: string, reference: string | undefined) {
  const slip = reference?.trim();
  if (!slip) return;
  const [earlier] = await db
    .select({ bankedOn: donationBatches.bankedOn, total: donationBatches.expectedTotal })
    .from(donationBatches)
    .where(
      and(
        eq(donationBatches.organizationId, organizationId),
        sql`lower(trim(${donationBatches.reference})) = lower(${slip})`,
      ),
    )
    .limit(1);
  if (earlier)
    throw new HttpError(
      409,
      `reference: paying-in slip ${slip} is already entered (banked on ${earlier.bankedOn}, ${formatPence(earlier.total)}); a second batch would count that money twice. If this is another deposit, give its own slip reference`,
    );
}

export async function createBatch(
  ctx: BatchContext,
  body: BatchBody,
  key: string,
): Promise<{ status: 200 | 201; batch: BatchDto }> {
  const { db, viewer } = ctx;
  const organizationId = parseId(body.organization_id);
  const [organization] = organizationId
    ? await db.select({ id: organizations.id }).from(organizations).where(eq(organizations.id, organizationId)).limit(1)
    : [];
  if (!organizationId || !organization) throw badRequest('organization_id: no organization with this id');
  if (!inOrgScope(viewer, organizationId)) throw forbidden('You can only enter batches for your own organizations');

  const replay = await findByKey(ctx, key, body, organizationId);
  if (replay) return { status: 200, batch: replay };

  const bankedOn = body.banked_on;
  if (!isIsoDay(bankedOn))
    throw badRequest(`banked_on: ${bankedOn} is not a real calendar day; enter a day like 2026-03-31`);
  if (bankedOn < '2000-01-01' || bankedOn > londonIsoDate(new Date()))
    throw badRequest('banked_on: enter a day between 2000-01-01 and today');
  const date = londonMidnight(bankedOn);

  const sum = body.gifts.reduce((total, gift) => total + gift.amount, 0);
  if (sum !== body.expected_total) {
    throw badRequest(
      `expected_total: ${body.gifts.length === 1 ? 'the 1 gift comes' : `the ${body.gifts.length} gifts add`} up to ${formatPence(sum)} (${sum} pence), not ${formatPence(body.expected_total)}; correct a line or the expected total`,
    );
  }

  await refuseSecondSlip(db, organizationId, body.reference);

  const generalFund = body.gifts.some((g) => !g.campaign_id && !g.appeal_id)
    ? await generalFundOf(db, organizationId)
    : null;
  const scope: LineScope = {
    organizationId,
    date,
    generalFund,
    newDonorsByEmail: new Map(),
    slipMethod: body.method,
    collectionsDonor: null,
  };
  const lines: ResolvedLine[] = [];
  for (const [index, gift] of body.gifts.entries()) {
    lines.push(await resolveLine(ctx, gift, `gifts[${index + 1}]`, scope));
  }

  const batchId = crypto.randomUUID();
  const now = Date.now();
  const statements: Statement[] = [];
  for (const line of lines) if (line.newDonor) statements.push(db.insert(users).values(line.newDonor));
  statements.push(
    db.insert(donationBatches).values({
      id: batchId,
      organizationId,
      method: body.method,
      bankedOn,
      reference: body.reference || null,
      expectedTotal: body.expected_total,
      giftCount: lines.length,
      idempotencyKey: key,
      createdBy: viewer.id,
      createdAt: new Date(now),
    }),
  );
  for (const [index, line] of lines.entries()) {
    statements.push(
      db.insert(donations).values({
        id: line.id,
        amount: body.gifts[index].amount,
        donorId: line.donorId,
        campaignId: line.campaignId,
        appealId: line.appealId,
        date,
        status: 'succeeded',
        type: 'once',
        giftAid: line.giftAid,
        giftAidDeclarationId: line.declarationId,
        source: 'batch',
        method: body.gifts[index].method ?? body.method,
        batchId,
        reference: body.gifts[index].reference || null,
        benefitExceedsLimit: line.benefitExceedsLimit,
        // One millisecond apart: the batch's lines read back in the order they were entered.
        createdAt: new Date(now + index),
      }),
    );
  }
  statements.push(
    auditInsert(db, actorOf(viewer, ctx.requestId), {
      action: 'batch.create',
      targetType: 'batch',
      targetId: batchId,
      organizationId,
      changes: {
        method: [null, body.method],
        ...(body.gifts.some((g) => g.method && g.method !== body.method)
          ? { methods: [null, [...new Set(body.gifts.map((g) => g.method ?? body.method))]] }
          : {}),
        banked_on: [null, bankedOn],
        expected_total: [null, body.expected_total],
        gift_count: [null, lines.length],
        donation_ids: [null, lines.map((l) => l.id)],
        new_donor_ids: [null, lines.filter((l) => l.newDonor).map((l) => l.donorId)],
      },
    }),
  );
  try {
    await db.batch(statements as [Statement, ...Statement[]]);
  } catch (error) {
    // Two requests with one key racing: the unique key decides, the loser answers like a retry.
    if (isUniqueViolation(error)) {
      const winner = await findByKey(ctx, key, body, organizationId);
      if (winner) return { status: 200, batch: winner };
    }
    throw error;
  }

  // Receipts go out once the gifts are stored; a mail failure leaves the batch posted (the outbox retries).
  for (const line of lines) {
    if (line.receipt) await sendReceipt(ctx.mail, line.id).catch(() => 'skipped');
  }
  return { status: 201, batch: (await getBatch({ db, viewer }, batchId))! };
}

function isUniqueViolation(error: unknown): boolean {
  for (let e: unknown = error; e; e = (e as { cause?: unknown }).cause) {
    if (/UNIQUE constraint failed/i.test(String((e as Error).message ?? e))) return true;
  }
  return false;
}

/** The batch already posted under this key, if the request is the same batch; 409 if it is not. */
async function findByKey(
  ctx: BatchContext,
  key: string,
  body: BatchBody,
  organizationId: string,
): Promise<BatchDto | null> {
  const [row] = await ctx.db
    .select({ id: donationBatches.id })
    .from(donationBatches)
    .where(eq(donationBatches.idempotencyKey, key))
    .limit(1);
  if (!row) return null;
  const first = await getBatch(ctx, row.id);
  const same =
    first !== null &&
    first.organization_id === organizationId &&
    first.method === body.method &&
    first.banked_on === body.banked_on &&
    (first.reference ?? '') === (body.reference ?? '') &&
    first.expected_total === body.expected_total &&
    first.gifts.length === body.gifts.length &&
    first.gifts.every(
      (line, i) =>
        line.amount === body.gifts[i].amount &&
        line.method === (body.gifts[i].method ?? body.method) &&
        line.collection === Boolean(body.gifts[i].collection) &&
        (!body.gifts[i].donor_id || parseId(body.gifts[i].donor_id!) === line.donor_id),
    );
  if (!same)
    throw new HttpError(
      409,
      'Idempotency-Key: this key was already used for a different batch; use a new key for a new batch',
    );
  return first;
}

/** The organization's general fund (kind 'general_fund'), created on first use: gifts to no campaign are counted there. */
export async function generalFundOf(db: Db, organizationId: string): Promise<string> {
  const find = () =>
    db
      .select({ id: campaigns.id })
      .from(campaigns)
      .where(and(eq(campaigns.organizationId, organizationId), eq(campaigns.kind, 'general_fund')))
      .orderBy(asc(campaigns.createdAt), asc(campaigns.id))
      .limit(1);
  const [existing] = await find();
  if (existing) return existing.id;
  const [organization] = await db
    .select({ name: organizations.name })
    .from(organizations)
    .where(eq(organizations.id, organizationId))
    .limit(1);
  await db.insert(campaigns).values({
    organizationId,
    title: `${organization?.name ?? 'Organization'}: general fund`,
    goal: 0,
    status: 'approved',
    kind: 'general_fund',
    fundRestricted: false,
  });
  // Two first batches racing may each create one; everyone then uses the oldest.
  const [created] = await find();
  return created.id;
}

/** What every line of one batch shares: its organization, the banked day, its general fund, the new donors so far. */
type LineScope = {
  organizationId: string;
  date: Date;
  generalFund: string | null;
  newDonorsByEmail: Map<string, string>;
  slipMethod: BatchBody['method'];
  /** The organization's collections donor, once a line of this batch needed it. */
  collectionsDonor: string | null;
};

/**
 * The donor a tin or bucket collection is recorded under (decision 081): one per organization,
 * made on first use and kept on the organization (`collections_donor_id`), with an unguessable
 * stand-in address that no checkout or sign-in takes. Two first batches racing: the first to set
 * the organization's column wins and the other's unused donor is removed.
 */
export async function collectionsDonorOf(db: Db, organizationId: string): Promise<string> {
  const known = async () =>
    (
      await db
        .select({ id: organizations.collectionsDonorId })
        .from(organizations)
        .where(eq(organizations.id, organizationId))
        .limit(1)
    )[0]?.id ?? null;
  const existing = await known();
  if (existing) return existing;
  const id = crypto.randomUUID();
  await db.batch([
    db
      .insert(users)
      .values({ id, email: collectionsAddress(id), firstName: 'Tin and bucket', lastName: 'collections' }),
    db
      .update(organizations)
      .set({ collectionsDonorId: id })
      .where(and(eq(organizations.id, organizationId), isNull(organizations.collectionsDonorId))),
  ]);
  const chosen = (await known()) ?? id;
  if (chosen !== id) await db.delete(users).where(eq(users.id, id));
  return chosen;
}

/** A collection line: cash or contactless, no donor, no Gift Aid, no receipt; 400 naming the field otherwise. */
function checkCollection(gift: BatchGift, at: string, slipMethod: BatchBody['method']) {
  if (gift.donor_id || gift.donor)
    throw badRequest(`${at}.collection: a collection has no donor of its own; leave the donor out`);
  if (gift.gift_aid)
    throw badRequest(`${at}.gift_aid: a collection carries no Gift Aid; the Small Donations Scheme counts it instead`);
  if (gift.send_receipt) throw badRequest(`${at}.send_receipt: a collection has no donor to send a receipt to`);
  if (gift.benefit_exceeds_limit)
    throw badRequest(`${at}.benefit_exceeds_limit: a collection gives no benefit; untick it`);
  const method = gift.method ?? slipMethod;
  if (!(GASDS_METHODS as readonly string[]).includes(method))
    throw badRequest(
      `${at}.collection: a collection is cash or contactless, and this line is paid by ${method.replace(/_/g, ' ')}`,
    );
}

async function resolveLine(ctx: BatchContext, gift: BatchGift, at: string, scope: LineScope): Promise<ResolvedLine> {
  const { db, viewer } = ctx;
  if (gift.collection) {
    checkCollection(gift, at, scope.slipMethod);
    scope.collectionsDonor ??= await collectionsDonorOf(db, scope.organizationId);
    const { campaignId, appealId } = await resolveFund(db, gift, at, scope);
    return {
      id: crypto.randomUUID(),
      donorId: scope.collectionsDonor,
      newDonor: null,
      campaignId,
      appealId,
      giftAid: false,
      declarationId: null,
      benefitExceedsLimit: false,
      receipt: false,
      collection: true,
    };
  }
  if (gift.donor_id && gift.donor) throw badRequest(`${at}: give donor_id or a new donor, not both`);
  if (!gift.donor_id && !gift.donor) throw badRequest(`${at}.donor: pick a donor or enter a new donor's name`);

  let donorId: string;
  let newDonor: typeof users.$inferInsert | null = null;
  let email: string | null = null;
  if (gift.donor_id) {
    try {
      const donor = await getUser({ db, viewer }, gift.donor_id);
      donorId = donor._id;
      email = donor.email;
    } catch (error) {
      if (error instanceof HttpError && error.status === 404) throw badRequest(`${at}.donor_id: no donor with this id`);
      throw error;
    }
  } else {
    const input = gift.donor!;
    email = input.email ? input.email.toLowerCase() : null;
    const [existing] = email
      ? await db.select({ id: users.id }).from(users).where(eq(users.email, email)).limit(1)
      : [];
    const earlier = email ? scope.newDonorsByEmail.get(email) : undefined;
    if (existing) donorId = existing.id;
    else if (earlier) donorId = earlier;
    else {
      donorId = crypto.randomUUID();
      newDonor = {
        id: donorId,
        email: email ?? noEmailAddress(donorId),
        firstName: input.first_name,
        lastName: input.last_name,
        address: input.address || null,
        postalCode: input.postcode || null,
        country: input.postcode ? 'GB' : null,
      };
      if (email) scope.newDonorsByEmail.set(email, donorId);
    }
  }
  if (gift.send_receipt && (!email || email.endsWith('.invalid')))
    throw badRequest(`${at}.send_receipt: this donor has no email address to send a receipt to`);

  const { campaignId, appealId } = await resolveFund(db, gift, at, scope);

  let declarationId: string | null = null;
  if (gift.gift_aid) {
    if (gift.benefit_exceeds_limit)
      throw badRequest(
        `${at}.gift_aid: a gift whose donor received a benefit above HMRC's limits cannot carry Gift Aid`,
      );
    const declaration = newDonor
      ? undefined
      : (await listDonorDeclarations(db, donorId)).find((d) => validFor(d, scope.organizationId, scope.date));
    if (!declaration) {
      throw badRequest(
        `${at}.gift_aid: this donor has no Gift Aid declaration to this charity covering ${londonIsoDate(scope.date)}; record the declaration first, or untick Gift Aid`,
      );
    }
    declarationId = declaration.id;
  }

  return {
    id: crypto.randomUUID(),
    donorId,
    newDonor,
    campaignId,
    appealId,
    giftAid: Boolean(gift.gift_aid),
    declarationId,
    benefitExceedsLimit: Boolean(gift.benefit_exceeds_limit),
    receipt: Boolean(gift.send_receipt),
    collection: false,
  };
}

/** The declaration rule of verified offline gifts, plus: an oral declaration counts from its written confirmation. */
function validFor(d: DeclarationRow, organizationId: string, date: Date): boolean {
  if (d.replacedBy || d.organizationId !== organizationId || !coversGift(d, date)) return false;
  if (d.method === 'oral')
    return d.confirmationSentAt !== null && d.confirmationSentAt.getTime() <= date.getTime() + DAY_MS;
  return true;
}

/** A line's campaign and appeal: the organization's own, or its general fund when neither is given. */
async function resolveFund(
  db: Db,
  gift: BatchGift,
  at: string,
  scope: LineScope,
): Promise<{ campaignId: string; appealId: string | null }> {
  if (!gift.campaign_id && !gift.appeal_id) return { campaignId: scope.generalFund!, appealId: null };
  const campaignId = gift.campaign_id ? parseId(gift.campaign_id) : null;
  if (gift.campaign_id && !campaignId) throw badRequest(`${at}.campaign_id: not a campaign of this organization`);
  if (gift.appeal_id) {
    const appealId = parseId(gift.appeal_id);
    const [appeal] = appealId
      ? await db
          .select({ id: campaigns.id, campaignId: campaigns.campaignId, organizationId: campaigns.organizationId })
          .from(campaigns)
          .where(and(eq(campaigns.id, appealId), ne(campaigns.status, 'deleted')))
          .limit(1)
      : [];
    if (!appeal?.campaignId) throw badRequest(`${at}.appeal_id: not an appeal of this organization`);
    const [parent] = await db
      .select({ organizationId: campaigns.organizationId })
      .from(campaigns)
      .where(eq(campaigns.id, appeal.campaignId))
      .limit(1);
    if (parent?.organizationId !== scope.organizationId)
      throw badRequest(`${at}.appeal_id: not an appeal of this organization`);
    if (campaignId && campaignId !== appeal.campaignId)
      throw badRequest(`${at}.appeal_id: this appeal belongs to another campaign than campaign_id`);
    return { campaignId: appeal.campaignId, appealId: appeal.id };
  }
  const [campaign] = await db
    .select({ id: campaigns.id })
    .from(campaigns)
    .where(
      and(
        eq(campaigns.id, campaignId!),
        isNull(campaigns.campaignId),
        eq(campaigns.organizationId, scope.organizationId),
        ne(campaigns.status, 'deleted'),
        inArray(campaigns.kind, ['campaign', 'general_fund']),
      ),
    )
    .limit(1);
  if (!campaign) throw badRequest(`${at}.campaign_id: not a campaign of this organization`);
  return { campaignId: campaign.id, appealId: null };
}
