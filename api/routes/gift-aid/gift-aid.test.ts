/// <reference types="vite/client" />
import { eq, sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { toShortId } from '../../../domain/ids';
import {
  donations,
  giftAidAdjustments,
  giftAidClaimedGifts,
  giftAidClaims,
  giftAidDeclarations,
  users,
} from '../../../db/schema';
import { GIFT_AID_DECLARATION, giftAidDeclaration, type GiftAidDetails } from '../../../domain';
import {
  giftMetadata,
  fakeId,
  chargeRefunded,
  paymentIntentSucceeded,
  refundFailed,
  sendEvent,
  WEBHOOK_SECRET,
} from '../../../tests/fixtures/stripe/events';
import aggregatedFixture from '../../../tests/fixtures/gift-aid/schedule-aggregated.csv?raw';
import scheduleFixture from '../../../tests/fixtures/gift-aid/schedule.csv?raw';
import {
  type CampaignRow,
  createCampaign,
  createDonation,
  createOrganization,
  createUser,
  type OrganizationRow,
  signedIn,
  type UserRow,
  createSession,
} from '../../../tests/factories';
import { bodyOf, engineName, errorOf, setupTestApp, type TestApp } from '#test-app';
import type { ClaimUpdate } from '../../schemas/gift-aid';
import { createDeclaration } from '../../services/gift-aid';
import { adjustmentsToReport } from '../../services/gift-aid/create';

const at = (iso: string) => new Date(iso);
const details = (over: Partial<GiftAidDetails> = {}): GiftAidDetails => ({
  title: null,
  firstName: 'Test',
  lastName: 'Donor',
  house: '1',
  address: 'High Street, Leeds',
  postcode: 'LS1 4AP',
  ...over,
});

// The declarants of the schedule fixture, as HMRC's schedule prints them.
const ADA = { title: 'Prof', firstName: 'Ada', lastName: 'House-Martin', house: '12', postcode: 'S19 2BD' };
const BOB = { firstName: 'Bob', lastName: "O'Neil", house: 'Rose Cottage, Mill Lane', postcode: 'LS1 4AP' };
const CHLOE = { title: 'Mrs', firstName: 'Chloé', lastName: 'Smith', house: '7A', postcode: 'SW1A 1AA' };

describe(`Gift Aid API (${engineName})`, () => {
  let t: TestApp;
  let orgA: OrganizationRow;
  let orgB: OrganizationRow;
  let orgNoRef: OrganizationRow;
  let orgAgg: OrganizationRow;
  let campaignA: CampaignRow;
  let campaignB: CampaignRow;
  let campaignNoRef: CampaignRow;
  let campaignAgg: CampaignRow;
  let admin: string;
  let orgAdmin: string;
  let donorToken: string;
  let ada: UserRow;
  const giftIds: Record<string, string> = {};

  async function declare(
    donorId: string,
    d: GiftAidDetails,
    organizationId: string,
    over: { declaredAt?: Date; coversPast?: boolean; coversFuture?: boolean } = {},
  ) {
    return createDeclaration(t.db, {
      donorId,
      details: d,
      text: 'I want to Gift Aid…',
      organizationId,
      method: 'online',
      ...over,
    });
  }
  async function gift(
    donorId: string,
    campaignId: string,
    declarationId: string | null,
    date: string,
    amount: number,
    over: Partial<typeof donations.$inferInsert> = {},
  ) {
    const row = await createDonation(t.db, {
      donorId,
      campaignId,
      amount,
      date: at(date),
      source: 'card',
      giftAid: declarationId !== null,
      giftAidDeclarationId: declarationId,
      paymentIntentId: fakeId('pi'),
      ...over,
    });
    return row.id;
  }
  const giftAid = (token = admin) => t.client(token).api['gift-aid'];
  const eligible = async (orgId: string, token = admin, range: { from?: string; to?: string } = {}) =>
    bodyOf(await giftAid(token).eligible.$get({ query: { organization_id: orgId, ...range } }), 200);
  const claim = (orgId: string, body: { aggregate?: boolean } = {}, token = admin) =>
    giftAid(token).claims.$post({ json: { organization_id: orgId, ...body } });

  beforeAll(async () => {
    t = await setupTestApp({ STRIPE_WEBHOOK_SECRET: WEBHOOK_SECRET });
    orgA = await createOrganization(t.db, { name: 'Wells A', hmrcReference: 'AB12345' });
    orgB = await createOrganization(t.db, {
      name: 'Homes B',
      legalName: 'Homes B Trust',
      charityNumber: '1174409',
      hmrcReference: 'XR98765',
    });
    orgNoRef = await createOrganization(t.db, { name: 'No Reference' });
    orgAgg = await createOrganization(t.db, { name: 'Small Gifts', hmrcReference: 'AG55555' });
    campaignA = await createCampaign(t.db, { organizationId: orgA.id });
    campaignB = await createCampaign(t.db, { organizationId: orgB.id });
    campaignNoRef = await createCampaign(t.db, { organizationId: orgNoRef.id });
    campaignAgg = await createCampaign(t.db, { organizationId: orgAgg.id });
    admin = (await signedIn(t.db, 'admin')).token;
    orgAdmin = (await signedIn(t.db, 'org_admin', { organizationIds: [orgA.id] })).token;

    // The three gifts of the schedule fixture, plus gifts that must not be claimed.
    ({ user: ada, token: donorToken } = await signedIn(t.db, 'donor', {
      overrides: { firstName: ADA.firstName, lastName: ADA.lastName },
    }));
    const adaDecl = await declare(ada.id, details(ADA), orgA.id, { declaredAt: at('2025-05-01T09:00:00Z') });
    giftIds.ada = await gift(ada.id, campaignA.id, adaDecl, '2025-05-03T12:00:00Z', 20_000);
    const bob = await createUser(t.db);
    const bobDecl = await declare(bob.id, details(BOB), orgA.id, {
      declaredAt: at('2025-11-01T09:00:00Z'),
      coversPast: false,
    });
    giftIds.bob = await gift(bob.id, campaignA.id, bobDecl, '2025-11-30T12:00:00Z', 1250, { refundedAmount: 250 });
    // Before Bob's declaration, which does not cover past gifts: not eligible.
    giftIds.bobEarly = await gift(bob.id, campaignA.id, bobDecl, '2025-09-30T12:00:00Z', 3000);
    const chloe = await createUser(t.db);
    const chloeDecl = await declare(chloe.id, details(CHLOE), orgA.id, { declaredAt: at('2024-01-01T09:00:00Z') });
    giftIds.chloe = await gift(chloe.id, campaignA.id, chloeDecl, '2026-01-02T12:00:00Z', 2550);
    // Not eligible: fully refunded, pending, failed, no Gift Aid, and a gift to another charity.
    giftIds.refunded = await gift(chloe.id, campaignA.id, chloeDecl, '2025-06-01T12:00:00Z', 5000, {
      status: 'refunded',
      refundedAmount: 5000,
    });
    giftIds.pending = await gift(chloe.id, campaignA.id, chloeDecl, '2025-06-02T12:00:00Z', 5000, {
      status: 'pending',
    });
    giftIds.failed = await gift(chloe.id, campaignA.id, chloeDecl, '2025-06-03T12:00:00Z', 5000, { status: 'failed' });
    giftIds.noGiftAid = await gift(chloe.id, campaignA.id, null, '2025-06-04T12:00:00Z', 5000);
    const dave = await createUser(t.db);
    const daveDecl = await declare(dave.id, details({ firstName: 'Dave' }), orgB.id, {
      declaredAt: at('2025-01-01T00:00:00Z'),
    });
    giftIds.orgB = await gift(dave.id, campaignB.id, daveDecl, '2025-06-05T12:00:00Z', 4000);
    // A declaration is to one charity: Dave's gift to the other one is under his declaration to it.
    const daveToNoRef = await declare(dave.id, details({ firstName: 'Dave' }), orgNoRef.id, {
      declaredAt: at('2025-01-01T00:00:00Z'),
    });
    giftIds.noRef = await gift(dave.id, campaignNoRef.id, daveToNoRef, '2025-06-05T12:00:00Z', 4000);
  });

  // A table of [path, method, body] over every staff route, some bodies deliberately invalid: raw requests.
  it('anonymous callers get 401 and donors 403 on every staff route, before their input is read', async () => {
    expect((await t.client().api['gift-aid'].claims.$get({ query: {} })).status).toBe(401);
    for (const [path, method, json] of [
      ['/api/gift-aid/eligible', 'GET', undefined],
      ['/api/gift-aid/claims', 'GET', undefined],
      ['/api/gift-aid/claims', 'POST', { nonsense: true }],
      ['/api/gift-aid/summary', 'GET', undefined],
      ['/api/gift-aid/adjustments', 'GET', undefined],
      ['/api/gift-aid/declarations/review', 'GET', undefined],
      [`/api/gift-aid/donations/${giftIds.ada}/verify`, 'POST', undefined],
    ] as const) {
      const res = await t.request(path, { method, token: donorToken, json });
      expect(res.status, `${method} ${path}`).toBe(403);
      expect(await res.json()).toMatchObject({ statusCode: 403 });
    }
  });

  it('lists only gifts eligible at their date: succeeded, not refunded in full, covered by a declaration in force', async () => {
    const list = await eligible(orgA.id);
    expect(list.items.map((i) => i._id).sort()).toEqual([giftIds.ada, giftIds.bob, giftIds.chloe].sort());
    expect(list.count).toBe(3);
    // Bob's gift counts net of its partial refund.
    expect(list.items.find((i) => i._id === giftIds.bob)?.amount).toBe(1000);
    expect(list.total).toBe(20_000 + 1000 + 2550);
    expect(list.gift_aid).toBe(Math.floor(23_550 / 4));
    // A date range in London days.
    const june = await eligible(orgA.id, admin, { from: '2025-11-01', to: '2026-01-02' });
    expect(june.items.map((i) => i._id).sort()).toEqual([giftIds.bob, giftIds.chloe].sort());
    const bad = await giftAid().eligible.$get({ query: { organization_id: orgA.id, from: '2025-02-31' } });
    expect((await errorOf(bad, 400)).message).toContain('from');
  });

  it('org admins see and claim only their own organizations', async () => {
    const own = await eligible(orgA.id, orgAdmin);
    expect(own.count).toBe(3);
    const other = await giftAid(orgAdmin).eligible.$get({ query: { organization_id: orgB.id } });
    expect(other.status).toBe(403);
    const all = await bodyOf(await giftAid(orgAdmin).eligible.$get({ query: {} }), 200);
    expect(all.items.map((i) => i._id)).not.toContain(giftIds.orgB);
    const res = await claim(orgB.id, {}, orgAdmin);
    expect(res.status).toBe(403);
    expect(await t.db.select().from(giftAidClaims)).toHaveLength(0);
  });

  it('refuses a claim for an organization without an HMRC charity reference, which its settings can add', async () => {
    const res = await claim(orgNoRef.id);
    expect((await errorOf(res, 400)).message).toMatch(/^organization_id: .*HMRC charity reference/);
    const organization = t.client(admin).api.organizations[':id'];
    const bad = await organization.$put({ param: { id: orgNoRef.id }, json: { hmrc_reference: '12-AB' } });
    expect((await errorOf(bad, 400)).message).toMatch(/^hmrc_reference:/);
    const set = await organization.$put({ param: { id: orgNoRef.id }, json: { hmrc_reference: 'xr4242' } });
    expect(await bodyOf(set, 200)).toMatchObject({ hmrc_reference: 'XR4242' });
    const created = await bodyOf(await claim(orgNoRef.id), 201);
    expect(created).toMatchObject({ charity_reference: 'XR4242', gift_count: 1 });
  });

  it('creates a claim, marks its gifts claimed, and downloads the schedule byte for byte as HMRC lays it out', async () => {
    const created = await bodyOf(await claim(orgA.id, {}, orgAdmin), 201);
    expect(created).toMatchObject({
      status: 'draft',
      row_count: 3,
      gift_count: 3,
      total: 23_550,
      gift_aid: 5887,
      adjustment: 0,
      net_claim: 5887,
    });
    expect(created.earliest_date).toBe('2025-05-03T12:00:00.000Z');
    // Latest gift 2 January 2026: tax year 2025-26 ends 5 April 2026; kept six years after.
    expect(created.accounting_period_end).toBe('2026-04-05T23:00:00.000Z');
    expect(created.retain_until).toBe('2032-04-05T23:00:00.000Z');

    const csv = await giftAid(orgAdmin).claims[':id']['schedule.csv'].$get({ param: { id: created._id } });
    expect(csv.status).toBe(200);
    expect(csv.headers.get('content-type')).toContain('text/csv');
    expect(csv.headers.get('x-earliest-donation-date')).toBe('2025-05-03T12:00:00.000Z');
    expect(csv.headers.get('x-claim-total')).toBe('23550');
    const body = await csv.text();
    expect(body).toBe(scheduleFixture);

    expect((await eligible(orgA.id)).count).toBe(0);
    const again = await claim(orgA.id);
    expect(again.status).toBe(422);
    const claimed = await t.db.select().from(giftAidClaimedGifts).where(eq(giftAidClaimedGifts.claimId, created._id));
    expect(claimed.map((c) => c.donationId).sort()).toEqual([giftIds.ada, giftIds.bob, giftIds.chloe].sort());
    // The short id works too, and another organization's admin cannot see it.
    expect((await giftAid().claims[':id'].$get({ param: { id: toShortId(created._id) } })).status).toBe(200);
  });

  it('a donor erased later leaves the claim and its schedule untouched', async () => {
    const [c] = await t.db.select().from(giftAidClaims).where(eq(giftAidClaims.organizationId, orgA.id));
    await t.db
      .update(users)
      .set({ firstName: '', lastName: '', email: `erased-${ada.id}@invalid` })
      .where(eq(users.id, ada.id));
    const res = await giftAid().claims[':id']['schedule.csv'].$get({ param: { id: c.id } });
    expect(await res.text()).toBe(scheduleFixture);
    const kept = await t.db.select().from(giftAidDeclarations).where(eq(giftAidDeclarations.donorId, ada.id));
    expect(kept[0]).toMatchObject({ firstName: 'Ada', lastName: 'House-Martin', house: '12' });
  });

  it('moves a claim draft → submitted (with HMRC reference) → paid, never backwards', async () => {
    const [c] = await t.db.select().from(giftAidClaims).where(eq(giftAidClaims.organizationId, orgA.id));
    const put = (json: ClaimUpdate) => giftAid().claims[':id'].$put({ param: { id: c.id }, json });
    const skip = await put({ status: 'paid' });
    expect((await errorOf(skip, 400)).message).toMatch(/^status:/);
    const noRef = await put({ status: 'submitted' });
    expect((await errorOf(noRef, 400)).message).toMatch(/^hmrc_reference:/);
    expect((await put({ status: 'submitted', hmrc_reference: '=HYPERLINK()' })).status).toBe(400);
    expect(await bodyOf(await put({ status: 'submitted', hmrc_reference: 'CHR-2026/001' }), 200)).toMatchObject({
      status: 'submitted',
      hmrc_reference: 'CHR-2026/001',
    });
    expect(await bodyOf(await put({ status: 'paid' }), 200)).toMatchObject({ status: 'paid' });
    expect((await put({ status: 'draft' })).status).toBe(400);
    const list = await bodyOf(await giftAid(orgAdmin).claims.$get({ query: { organization_id: orgA.id } }), 200);
    expect(list.map((x) => x.status)).toEqual(['paid']);
  });

  it('a refund after the claim records the over-claimed Gift Aid once, and the next claim sets it off', async () => {
    const [adaGift] = await t.db.select().from(donations).where(eq(donations.id, giftIds.ada));
    const partial = chargeRefunded({ intentId: adaGift.paymentIntentId!, amount: 20_000, refunded: 5_000 });
    expect((await sendEvent(t, partial)).status).toBe(200);
    expect((await sendEvent(t, partial)).status).toBe(200); // a replay changes nothing
    let adjustments = await t.db
      .select()
      .from(giftAidAdjustments)
      .where(eq(giftAidAdjustments.donationId, giftIds.ada));
    expect(adjustments.map((a) => a.giftAidPence)).toEqual([1250]);
    // The rest refunded: only the difference is added.
    expect(
      (await sendEvent(t, chargeRefunded({ intentId: adaGift.paymentIntentId!, amount: 20_000, refunded: 20_000 })))
        .status,
    ).toBe(200);
    adjustments = await t.db.select().from(giftAidAdjustments).where(eq(giftAidAdjustments.donationId, giftIds.ada));
    expect(adjustments.map((a) => a.giftAidPence).sort()).toEqual([1250, 3750]);
    // A refund of a gift never claimed adds nothing.
    const [dave] = await t.db.select().from(donations).where(eq(donations.id, giftIds.orgB));
    await sendEvent(t, chargeRefunded({ intentId: dave.paymentIntentId!, amount: 4000, refunded: 4000 }));
    expect(
      await t.db.select().from(giftAidAdjustments).where(eq(giftAidAdjustments.donationId, giftIds.orgB)),
    ).toHaveLength(0);

    const listed = await bodyOf(await giftAid(orgAdmin).adjustments.$get({ query: {} }), 200);
    expect(listed.map((a) => a.gift_aid).sort()).toEqual([1250, 3750]);
    expect(listed.every((a) => a.settled_claim_id === null)).toBe(true);
    const summary = await bodyOf(await giftAid(orgAdmin).summary.$get(), 200);
    expect(summary).toMatchObject({ claimed: 5887, paid: 5887, adjustments_due: 5000, to_claim: 0 });

    // The next claim of the organization reports the adjustment.
    const gina = await createUser(t.db);
    const ginaDecl = await declare(gina.id, details({ firstName: 'Gina' }), orgA.id, {
      declaredAt: at('2026-02-01T00:00:00Z'),
    });
    await gift(gina.id, campaignA.id, ginaDecl, '2026-02-02T12:00:00Z', 8000);
    // HMRC takes no adjustment larger than the claim (it cannot make a credit): £50 over-claimed does
    // not fit in £20 of Gift Aid, so this claim reports none of it and the £50 waits.
    const small = await bodyOf(await claim(orgA.id), 201);
    expect(small).toMatchObject({ gift_count: 1, gift_aid: 2000, adjustment: 0, net_claim: 2000 });
    expect((await bodyOf(await giftAid(orgAdmin).summary.$get(), 200)).adjustments_due).toBe(5000);
    // A claim of £60 takes the gift's £50 whole (both its rows), leaving £10 to be paid.
    await gift(gina.id, campaignA.id, ginaDecl, '2026-02-03T12:00:00Z', 24_000);
    const next = await bodyOf(await claim(orgA.id), 201);
    expect(next).toMatchObject({ gift_count: 1, gift_aid: 6000, adjustment: 5000, net_claim: 1000 });
    const settled = await bodyOf(await giftAid().adjustments.$get({ query: {} }), 200);
    expect(settled.every((a) => a.settled_claim_id === next._id)).toBe(true);
  });

  it("a claim takes each gift's over-claim whole, oldest first, skipping one too large for it; a refund and its failed refund go together", async () => {
    // Rows of an organization no other test uses (organization_id is the adjustment's own column).
    const org = `fit-${engineName}`;
    const [claimRow] = await t.db.select({ id: giftAidClaims.id }).from(giftAidClaims).limit(1);
    // Gifts of their own, so no other test's gift gains these rows.
    const giver = await createUser(t.db);
    const [big, small, returned] = await Promise.all(
      [1, 2, 3].map(async () => (await createDonation(t.db, { donorId: giver.id, campaignId: campaignA.id })).id),
    );
    const row = (donationId: string, pence: number, second: number) => ({
      donationId,
      claimId: claimRow.id,
      organizationId: org,
      giftAidPence: pence,
      reason: pence > 0 ? 'refund' : 'refund_failed',
      createdAt: new Date(Date.UTC(2026, 0, 1, 0, 0, second)),
    });
    await t.db
      .insert(giftAidAdjustments)
      .values([row(big, 5_000, 1), row(small, 250, 2), row(returned, 300, 3), row(returned, -300, 4)]);
    expect(await adjustmentsToReport(t.db, org, 1_000)).toEqual([small, returned]);
    expect(await adjustmentsToReport(t.db, org, 200)).toEqual([returned]);
    expect(await adjustmentsToReport(t.db, org, 6_000)).toEqual([big, small, returned]);
  });

  it('a refund that fails takes back its adjustment while no claim has reported it, once', async () => {
    const [chloeGift] = await t.db.select().from(donations).where(eq(donations.id, giftIds.chloe));
    const intentId = chloeGift.paymentIntentId!;
    const rows = () => t.db.select().from(giftAidAdjustments).where(eq(giftAidAdjustments.donationId, giftIds.chloe));
    const due = async () => (await bodyOf(await giftAid(orgAdmin).summary.$get(), 200)).adjustments_due;
    const dueBefore = await due();
    // £10 of the £25.50 claimed gift refunded: £6.37 claimed, £3.87 on what is left.
    await sendEvent(t, chargeRefunded({ intentId, amount: 2550, refunded: 1000 }));
    expect((await rows()).map((a) => [a.giftAidPence, a.reason])).toEqual([[250, 'refund']]);
    expect(await due()).toBe(dueBefore + 250);
    // The list names the gift by its donor and day, as the office knows it.
    const [chloe] = await t.db.select().from(users).where(eq(users.id, chloeGift.donorId));
    const listed = await bodyOf(await giftAid(orgAdmin).adjustments.$get({ query: {} }), 200);
    expect(listed.find((a) => a.donation_id === giftIds.chloe)).toMatchObject({
      donor_name: `${chloe.firstName} ${chloe.lastName}`,
      donation_date: '2026-01-02T12:00:00.000Z',
    });

    // The bank returns the refund: the charity kept the money, so there is nothing to report.
    const failed = refundFailed({ intentId, amount: 1000 });
    expect((await sendEvent(t, failed)).status).toBe(200);
    expect((await sendEvent(t, failed)).status).toBe(200); // a replay takes nothing more back
    expect((await rows()).map((a) => [a.giftAidPence, a.reason]).sort()).toEqual([
      [-250, 'refund_failed'],
      [250, 'refund'],
    ]);
    expect(await due()).toBe(dueBefore);
    const [afterFailure] = await t.db.select().from(donations).where(eq(donations.id, giftIds.chloe));
    expect(afterFailure.refundedAmount).toBe(0);

    // Refunded again and reported in a claim before the refund fails: the claim's report stands.
    await sendEvent(
      t,
      chargeRefunded({ intentId, amount: 2550, refunded: 1000, created: Math.floor(Date.now() / 1000) + 60 }),
    );
    const hal = await createUser(t.db);
    const halDecl = await declare(hal.id, details({ firstName: 'Hal' }), orgA.id, {
      declaredAt: at('2026-03-01T00:00:00Z'),
    });
    await gift(hal.id, campaignA.id, halDecl, '2026-03-02T12:00:00Z', 4000);
    const reporting = await bodyOf(await claim(orgA.id), 201);
    expect(reporting).toMatchObject({ gift_count: 1, adjustment: 250 });
    await sendEvent(t, refundFailed({ intentId, amount: 1000, created: Math.floor(Date.now() / 1000) + 120 }));
    expect((await rows()).reduce((sum, a) => sum + a.giftAidPence, 0)).toBe(250);
    expect(await due()).toBe(dueBefore);
  });

  it('a cancelled declaration stays on record and gifts after it are not eligible', async () => {
    const { user: eve, token } = await signedIn(t.db, 'donor');
    const declId = await declare(eve.id, details({ firstName: 'Eve' }), orgB.id, {
      declaredAt: at('2026-01-01T00:00:00Z'),
    });
    const before = await gift(eve.id, campaignB.id, declId, '2026-01-10T12:00:00Z', 1000);
    const mine = await bodyOf(await giftAid(token).me.cancel.$post(), 200);
    expect(mine.active).toBe(false);
    expect(mine.declarations).toHaveLength(1);
    expect(mine.declarations[0].cancelled_at).not.toBeNull();
    // A payment recorded after the cancellation (a monthly renewal, a slow checkout) carries the old declaration id.
    const intentId = fakeId('pi');
    const donationId = crypto.randomUUID();
    const meta = giftMetadata({ donationId, campaignId: campaignB.id, donorId: eve.id, declarationId: declId });
    const paid = paymentIntentSucceeded({ intentId, amount: 3000, metadata: meta });
    paid.created = Math.floor(Date.now() / 1000) + 2; // Stripe's clock has whole seconds
    expect((await sendEvent(t, paid)).status).toBe(200);
    const [after] = await t.db.select().from(donations).where(eq(donations.id, donationId));
    expect(after).toMatchObject({ status: 'succeeded', giftAid: false });
    // Backdate the flag to prove the claims query checks the date itself, not only the flag.
    await t.db.update(donations).set({ giftAid: true }).where(eq(donations.id, donationId));
    const ids = (await eligible(orgB.id)).items.map((i) => i._id);
    expect(ids).toContain(before);
    expect(ids).not.toContain(donationId);
  });

  it('a new address makes a new declaration version; earlier gifts keep theirs, later ones use the new one', async () => {
    const { user: fay, token } = await signedIn(t.db, 'donor');
    const v1 = await declare(fay.id, details({ firstName: 'Fay', house: '1', postcode: 'LS1 4AP' }), orgB.id, {
      declaredAt: at('2026-01-01T00:00:00Z'),
    });
    const old = await gift(fay.id, campaignB.id, v1, '2026-01-05T12:00:00Z', 1000);
    const res = await giftAid(token).me.$put({
      json: { first_name: 'Fay', last_name: 'Donor', house: '99', address: 'New Road', postcode: 'm1 1ae' },
    });
    const mine = await bodyOf(res, 200);
    const current = mine.declarations.find((d) => !d.replaced_by)!;
    expect(current).toMatchObject({ version: 2, house: '99', postcode: 'M1 1AE' });
    expect(mine.declarations.find((d) => d._id === v1)?.replaced_by).toBe(current._id);
    // A renewal after the change still names version 1 in its payment metadata.
    const renewal = await gift(fay.id, campaignB.id, v1, new Date(Date.now() + 60_000).toISOString(), 1000);
    const list = await eligible(orgB.id);
    expect(list.items.find((i) => i._id === old)?.donor.house).toBe('1');
    expect(list.items.find((i) => i._id === renewal)?.donor.house).toBe('99');
    const [oldRow] = await t.db.select().from(donations).where(eq(donations.id, old));
    expect(oldRow.giftAidDeclarationId).toBe(v1);
  });

  it('bad details are a 400 naming the field, and nothing is stored', async () => {
    const { user: hal, token } = await signedIn(t.db, 'donor');
    await declare(hal.id, details({ firstName: 'Hal' }), orgB.id);
    const good = {
      title: 'Mr',
      first_name: 'Hal',
      last_name: 'Jordan',
      house: '4',
      address: 'Oak Lane',
      postcode: 'LS1 4AP',
    };
    for (const [change, field] of [
      [{ postcode: '90210' }, 'postcode'],
      [{ postcode: 'SW1A 1A' }, 'postcode'],
      [{ first_name: 'H'.repeat(36) }, 'first_name'],
      [{ last_name: 'J'.repeat(36) }, 'last_name'],
      [{ house: '' }, 'house'],
      [{ title: 'Major' }, 'title'],
    ] as const) {
      const res = await giftAid(token).me.$put({ json: { ...good, ...change } });
      const body = await errorOf(res, 400);
      expect(body.message, field).toMatch(new RegExp(`^${field}:`));
    }
    // A body without the required house is what this checks: sent raw, as the typed client would refuse it.
    const missing = await t.request('/api/gift-aid/me', {
      method: 'PUT',
      token,
      json: { first_name: 'Hal', last_name: 'Jordan', postcode: 'LS1 4AP' },
    });
    expect((await errorOf(missing, 400)).message).toContain('house');
    const rows = await t.db.select().from(giftAidDeclarations).where(eq(giftAidDeclarations.donorId, hal.id));
    expect(rows).toHaveLength(1);
    expect(rows[0].version).toBe(1);
  });

  it('an offline gift is claimable once an admin has recorded the declaration and verified the gift', async () => {
    const ivy = await createUser(t.db, { firstName: 'Ivy', lastName: 'Green' });
    const cash = await gift(ivy.id, campaignB.id, null, '2025-03-10T12:00:00Z', 2500, {
      source: 'manual',
      paymentIntentId: null,
    });
    const verify = () => giftAid().donations[':id'].verify.$post({ param: { id: cash } });
    const none = await verify();
    expect((await errorOf(none, 400)).message).toMatch(/^declaration:/);
    // Ivy's paper declaration to Org B, recorded by staff.
    const record = (token: string) =>
      giftAid(token).declarations.$post({
        json: {
          donor_id: ivy.id,
          organization_id: orgB.id,
          first_name: 'Ivy',
          last_name: 'Green',
          house: '8',
          postcode: 'EH1 1YZ',
          covers_past: true,
          covers_future: true,
          declared_on: '2025-04-01',
        },
      });
    const recorded = await record(admin);
    expect(await bodyOf(recorded, 201)).toMatchObject({
      method: 'paper',
      covers_past: true,
      house: '8',
      declaration: expect.stringContaining('to Homes B Trust.'),
    });
    // Org admins of another organization cannot record for this one.
    const foreign = await record(orgAdmin);
    expect(foreign.status).toBe(403);
    expect((await verify()).status).toBe(200);
    expect((await eligible(orgB.id)).items.map((i) => i._id)).toContain(cash);
    // Once claimed, the hand-recorded gift keeps what the claim says.
    const claimB = await bodyOf(await claim(orgB.id), 201);
    expect(claimB.gift_count).toBeGreaterThan(0);
    const edit = await t.client(admin).api.donations[':id'].$put({ param: { id: cash }, json: { amount: 100 } });
    expect((await errorOf(edit, 400)).message).toMatch(/Gift Aid claim/);
    const [kept] = await t.db.select().from(donations).where(eq(donations.id, cash));
    expect(kept.amount).toBe(2500);
    // Card gifts are never verified by hand.
    expect((await giftAid().donations[':id'].verify.$post({ param: { id: giftIds.orgB } })).status).toBe(400);
  });

  it('aggregates gifts of £20 or less per tax year when asked, byte for byte against the fixture', async () => {
    const dev = await createUser(t.db);
    const devDecl = await declare(
      dev.id,
      details({ title: 'Mr', firstName: 'Dev', lastName: 'Patel', house: '3', postcode: 'M1 1AE' }),
      orgAgg.id,
      {
        declaredAt: at('2025-01-01T00:00:00Z'),
      },
    );
    await gift(dev.id, campaignAgg.id, devDecl, '2025-07-01T12:00:00Z', 2001);
    await gift(dev.id, campaignAgg.id, devDecl, '2025-08-01T12:00:00Z', 500);
    await gift(dev.id, campaignAgg.id, devDecl, '2026-04-05T12:00:00Z', 2000);
    await gift(dev.id, campaignAgg.id, devDecl, '2026-04-06T12:00:00Z', 100);
    const c = await bodyOf(await claim(orgAgg.id, { aggregate: true }), 201);
    expect(c).toMatchObject({ row_count: 3, gift_count: 4, total: 4601 });
    const csv = await (await giftAid().claims[':id']['schedule.csv'].$get({ param: { id: c._id } })).text();
    expect(csv).toBe(aggregatedFixture);
  });

  it('caps a claim at 1,000 rows; the rest wait for the next claim', async () => {
    const org = await createOrganization(t.db, { hmrcReference: 'BG10000' });
    const camp = await createCampaign(t.db, { organizationId: org.id });
    const donor = await createUser(t.db);
    const decl = await declare(donor.id, details({ firstName: 'Many' }), org.id, {
      declaredAt: at('2024-01-01T00:00:00Z'),
    });
    const start = Date.UTC(2025, 0, 1);
    const rows = Array.from({ length: 1005 }, (_, i) => [crypto.randomUUID(), start + i * 60_000]);
    await t.db.run(sql`insert into donations (id, amount, donor_id, campaign_id, date, status, type, gift_aid, gift_aid_declaration_id, refunded_amount, source, created_at, updated_at)
      select json_extract(value, '$[0]'), 2500, ${donor.id}, ${camp.id}, json_extract(value, '$[1]'), 'succeeded', 'once', 1, ${decl}, 0, 'card', 0, 0
      from json_each(${JSON.stringify(rows)})`);
    const first = await bodyOf(await claim(org.id), 201);
    expect(first).toMatchObject({ row_count: 1000, gift_count: 1000, total: 2_500_000 });
    const left = await eligible(org.id);
    expect(left.count).toBe(5);
    expect(left.items.map((i) => i._id).sort()).toEqual(
      rows
        .slice(1000)
        .map((r) => r[0] as string)
        .sort(),
    );
    const second = await bodyOf(await claim(org.id), 201);
    expect(second.row_count).toBe(5);
    const csv = await (await giftAid().claims[':id']['schedule.csv'].$get({ param: { id: first._id } })).text();
    expect(csv.trimEnd().split('\r\n')).toHaveLength(1001);
  });

  it('concurrent "Create claim" requests never put a gift in two claims', async () => {
    const org = await createOrganization(t.db, { hmrcReference: 'CC20000' });
    const camp = await createCampaign(t.db, { organizationId: org.id });
    const donor = await createUser(t.db);
    const decl = await declare(donor.id, details({ firstName: 'Race' }), org.id, {
      declaredAt: at('2024-01-01T00:00:00Z'),
    });
    for (let i = 0; i < 6; i++) await gift(donor.id, camp.id, decl, `2025-03-0${i + 1}T12:00:00Z`, 1000 + i);
    const results = await Promise.all([claim(org.id), claim(org.id), claim(org.id, {}, admin)]);
    const statuses = results.map((r) => r.status).sort();
    expect(statuses.filter((s) => s === 201)).toHaveLength(1);
    expect(statuses.every((s) => s === 201 || s === 409 || s === 422)).toBe(true);
    for (const r of results) if (r.status !== 201) await errorOf(r, r.status);
    const claims = await t.db.select().from(giftAidClaims).where(eq(giftAidClaims.organizationId, org.id));
    expect(claims).toHaveLength(1);
    const claimed = await t.db.select().from(giftAidClaimedGifts).where(eq(giftAidClaimedGifts.claimId, claims[0].id));
    expect(claimed).toHaveLength(6);
    expect(claims[0].giftCount).toBe(6);
  });

  it("the donation box's declaration names the campaign's charity, and is stored with the HMRC fields", async () => {
    const base = { email: 'giver@example.com', amount: 1000, campaign_id: campaignB.id, giftAid: true };
    const fields = {
      title: 'Dr',
      first_name: 'Kim',
      last_name: 'Lowe',
      house: '22',
      address: 'Quay Street',
      postcode: 'bs1 4dj',
    };
    const clientSecret = t.client().api.stripe.client_secret;
    const wrong = await clientSecret.$post({
      json: { ...base, gift_aid: { ...fields, declaration: GIFT_AID_DECLARATION } },
    });
    expect((await errorOf(wrong, 400)).message).toMatch(/^gift_aid\.declaration:/);
    const text = giftAidDeclaration('Homes B Trust');
    const ok = await clientSecret.$post({ json: { ...base, gift_aid: { ...fields, declaration: text } } });
    expect(ok.status).toBe(200);
    const stored = (
      await t.db.select().from(giftAidDeclarations).where(eq(giftAidDeclarations.declarationText, text))
    ).find((d) => d.method === 'online');
    expect(stored).toMatchObject({
      organizationId: orgB.id,
      title: 'Dr',
      firstName: 'Kim',
      house: '22',
      postcode: 'BS1 4DJ',
      method: 'online',
    });
  });

  it('the owner’s paid gift makes its declaration their one in force to that charity; a stranger’s typed email does not', async () => {
    const email = `again-${Date.now()}@example.com`;
    // `token`: the donor signed in; none: a guest typing the email (the first such gift makes the account).
    const give = async (campaignId: string, house: string, token?: string) => {
      const started = await t.client(token).api.stripe.client_secret.$post({
        json: {
          ...(token ? {} : { email }),
          amount: 1000,
          campaign_id: campaignId,
          giftAid: true,
          gift_aid: { first_name: 'Rae', last_name: 'Moss', house, address: 'Mill Lane', postcode: 'LS1 4AP' },
        },
      });
      const { clientSecret } = await bodyOf(started, 200);
      expect((await t.client().api.stripe.demo.confirm.$post({ json: { clientSecret } })).status).toBe(200);
    };
    const inForce = async () => {
      const [donor] = await t.db.select().from(users).where(eq(users.email, email));
      const rows = await t.db.select().from(giftAidDeclarations).where(eq(giftAidDeclarations.donorId, donor.id));
      return { donor, rows, current: rows.filter((d) => !d.replacedBy && !d.cancelledAt) };
    };
    await give(campaignB.id, '1');
    const { donor } = await inForce();
    const token = await createSession(t.db, donor.id);
    await give(campaignA.id, '1', token);
    await give(campaignB.id, '7', token);
    let now = await inForce();
    expect(now.rows).toHaveLength(3);
    // One in force per charity: Homes B's with the house typed last, Wells A's untouched.
    expect(now.current.map((d) => [d.organizationId, d.house]).sort()).toEqual(
      [
        [orgA.id, '1'],
        [orgB.id, '7'],
      ].sort(),
    );
    const first = now.rows.find((d) => d.organizationId === orgB.id && d.house === '1')!;
    expect(first.replacedBy).toBe(now.current.find((d) => d.organizationId === orgB.id)!.id);

    // Someone else typing the donor's email pays a gift: its declaration is kept, but replaces nothing of theirs.
    await give(campaignB.id, '99');
    now = await inForce();
    expect(now.rows).toHaveLength(4);
    expect(now.current.map((d) => d.house).sort()).toEqual(['1', '7', '99']);
  });
});
