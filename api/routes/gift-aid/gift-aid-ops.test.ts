import { and, eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import {
  auditLog,
  campaigns,
  donations,
  gasdsClaims,
  giftAidAdjustments,
  giftAidClaimedGifts,
  giftAidClaimRows,
  giftAidClaims,
  giftAidDeclarations,
  outbox,
  users,
} from '../../../db/schema';
import { type GiftAidDetails, londonIsoDate } from '../../../domain';
import { fakeId, paymentIntentSucceeded, sendEvent, WEBHOOK_SECRET } from '../../../tests/fixtures/stripe/events';
import {
  createAppeal,
  createCampaign,
  createDonation,
  createOrganization,
  createUser,
  donationRow,
  signedIn,
} from '../../../tests/factories';
import { bodyOf, engineName, errorOf, setupTestApp, type TestApp } from '#test-app';
import type { ClaimUpdate } from '../../schemas/gift-aid';
import { createDeclaration } from '../../services/gift-aid';
import { readOdsRows, readZip } from '../../../tests/support/ods-reader';

const details = (over: Partial<GiftAidDetails> = {}): GiftAidDetails => ({
  title: null,
  firstName: 'Gift',
  lastName: 'Giver',
  house: '3',
  address: 'Mill Lane, York',
  postcode: 'YO1 7HH',
  ...over,
});

describe(`Gift Aid operations (${engineName})`, () => {
  let t: TestApp;
  let admin: string;

  beforeAll(async () => {
    t = await setupTestApp({ STRIPE_WEBHOOK_SECRET: WEBHOOK_SECRET });
    admin = (await signedIn(t.db, 'admin')).token;
  });

  /** An organization with a campaign, one donor declared online long ago, and `amounts` gifts on `dates`. */
  async function charity(name: string, over: { yearEnd?: string } = {}) {
    const org = await createOrganization(t.db, {
      name,
      hmrcReference: 'AB12345',
      ...(over.yearEnd ? { accountingYearEnd: over.yearEnd } : {}),
    });
    const campaign = await createCampaign(t.db, { organizationId: org.id });
    const orgAdmin = (await signedIn(t.db, 'org_admin', { organizationIds: [org.id] })).token;
    return { org, campaign, orgAdmin };
  }
  async function declaredDonor(
    organizationId: string,
    d: Partial<GiftAidDetails> = {},
    over: { overseas?: boolean } = {},
  ) {
    const donor = await createUser(t.db);
    const declarationId = await createDeclaration(t.db, {
      donorId: donor.id,
      details: details(d),
      text: 'I want to Gift Aid…',
      organizationId,
      method: 'online',
      declaredAt: new Date('2024-01-01T00:00:00Z'),
      ...over,
    });
    return { donor, declarationId };
  }
  async function gift(
    donorId: string,
    campaignId: string,
    declarationId: string,
    date: string,
    amount: number,
    over: Partial<typeof donations.$inferInsert> = {},
  ) {
    return (
      await createDonation(t.db, {
        donorId,
        campaignId,
        amount,
        date: new Date(date),
        source: 'card',
        giftAid: true,
        giftAidDeclarationId: declarationId,
        paymentIntentId: fakeId('pi'),
        ...over,
      })
    ).id;
  }
  const giftAid = (token: string) => t.client(token).api['gift-aid'];
  const claimOf = (token: string) => giftAid(token).claims[':id'];
  const declarationOf = (token: string) => giftAid(token).declarations[':id'];
  const verify = (token: string, id: string) => giftAid(token).donations[':id'].verify.$post({ param: { id } });
  const eligibleCount = async (organizationId: string, token: string) =>
    (await bodyOf(await giftAid(token).eligible.$get({ query: { organization_id: organizationId } }), 200)).count;
  const csvOf = async (claimId: string) =>
    (await claimOf(admin)['schedule.csv'].$get({ param: { id: claimId } })).text();
  const newClaim = async (organizationId: string, body: { aggregate?: boolean } = {}) =>
    bodyOf(await giftAid(admin).claims.$post({ json: { organization_id: organizationId, ...body } }), 201);

  it('stores an online donor’s name and address from their Gift Aid details when the gift succeeds, filling blanks only', async () => {
    const { org, campaign } = await charity('Names');
    const blank = await createUser(t.db, { firstName: '', lastName: '' });
    const named = await createUser(t.db, { firstName: 'Kept', lastName: 'Name', address: '1 Old Road' });
    for (const donor of [blank, named]) {
      const declarationId = await createDeclaration(t.db, {
        donorId: donor.id,
        details: details({ firstName: 'Ada', lastName: 'Lovelace', house: '12' }),
        text: 'x',
        organizationId: org.id,
        method: 'online',
      });
      const metadata = {
        kind: 'one_off',
        donation_id: crypto.randomUUID(),
        campaign_id: campaign.id,
        appeal_id: '',
        donor_id: donor.id,
        gift_aid_declaration_id: declarationId,
        source: 'card',
      };
      expect(
        (await sendEvent(t, paymentIntentSucceeded({ intentId: fakeId('pi'), amount: 1000, metadata }))).status,
      ).toBe(200);
    }
    const [filled] = await t.db.select().from(users).where(eq(users.id, blank.id));
    expect(filled).toMatchObject({
      firstName: 'Ada',
      lastName: 'Lovelace',
      address: '12, Mill Lane, York',
      postalCode: 'YO1 7HH',
    });
    const [kept] = await t.db.select().from(users).where(eq(users.id, named.id));
    expect(kept).toMatchObject({ firstName: 'Kept', lastName: 'Name', address: '1 Old Road', postalCode: 'YO1 7HH' });
    // The statement shows the name instead of "Name not on file".
    const { token } = { token: (await signedIn(t.db, 'admin')).token };
    const shown = await bodyOf(await t.client(token).api.users[':id'].$get({ param: { id: blank.id } }), 200);
    expect(shown.name).toEqual({ first_name: 'Ada', last_name: 'Lovelace' });
  });

  it('an oral declaration makes gifts eligible only once its written confirmation is sent, by email with the right to cancel', async () => {
    const { org, campaign, orgAdmin } = await charity('Oral');
    const donor = await createUser(t.db, { email: `oral-${crypto.randomUUID()}@example.com` });
    /** A cheque from this donor, entered by hand, without Gift Aid until the office checks it. */
    const cheque = async (amount: number, date: string) =>
      (
        await createDonation(t.db, {
          donorId: donor.id,
          campaignId: campaign.id,
          amount,
          date: new Date(date),
          source: 'manual',
          method: 'cheque',
        })
      ).id;
    const giftId = await cheque(5000, '2026-01-10T12:00:00Z');
    const body = {
      donor_id: donor.id,
      organization_id: org.id,
      first_name: 'Olu',
      last_name: 'Ade',
      house: '9',
      postcode: 'LS1 4AP',
      covers_past: true,
      covers_future: true,
      declared_on: '2026-01-05',
      method: 'oral' as const,
    };
    const declaration = await bodyOf(await giftAid(orgAdmin).declarations.$post({ json: body }), 201);
    expect(declaration).toMatchObject({ method: 'oral', effective: false, confirmation_sent_at: null });

    const early = await verify(orgAdmin, giftId);
    expect((await errorOf(early, 400)).message).toMatch(/^declaration: .*written confirmation/);

    const confirm = () => declarationOf(orgAdmin).confirmation.$post({ param: { id: declaration._id }, json: {} });
    const confirmed = await confirm();
    expect(await bodyOf(confirmed, 200)).toMatchObject({ effective: true, confirmation_sent_at: expect.any(String) });
    const [mail] = await t.db
      .select()
      .from(outbox)
      .where(eq(outbox.key, `gift-aid-confirmation:${declaration._id}`));
    expect(mail.to).toBe(donor.email);
    expect(mail.text).toContain('within 30 days');
    expect(mail.text).toContain('I want to Gift Aid');
    expect((await confirm()).status).toBe(409);

    expect((await verify(orgAdmin, giftId)).status).toBe(200);
    const eligible = await bodyOf(await giftAid(orgAdmin).eligible.$get({ query: { organization_id: org.id } }), 200);
    expect(eligible.items.map((i) => i._id)).toEqual([giftId]);
    const audit = await t.db.select().from(auditLog).where(eq(auditLog.targetId, declaration._id));
    expect(audit.map((a) => a.action).sort()).toEqual(['declaration.confirm', 'declaration.create']);

    // A cheque from before the declaration, which it covers (covers_past), is eligible too.
    const earlierId = await cheque(3000, '2025-12-01T12:00:00Z');
    expect((await verify(orgAdmin, earlierId)).status).toBe(200);
    expect(await eligibleCount(org.id, orgAdmin)).toBe(2);

    // Cancelling or confirming a declaration is the organization's admins' (decision 032): finance sees, and is told.
    const finance = (await signedIn(t.db, 'finance', { organizationIds: [org.id] })).token;
    const refused = await declarationOf(finance).cancel.$post({ param: { id: declaration._id } });
    expect((await errorOf(refused, 403)).message).toMatch(/organization's admins/);
    expect(
      (
        await errorOf(
          await declarationOf(finance).confirmation.$post({ param: { id: declaration._id }, json: {} }),
          403,
        )
      ).message,
    ).toMatch(/organization's admins/);

    // Cancelled within 30 days of the confirmation: void from the day it was made, so neither gift is
    // eligible: not the later one, and not the earlier one it covered either (HMRC: it never counted).
    // While a draft claim holds its gifts, that claim is voided first: they must not reach HMRC.
    const draft = await newClaim(org.id);
    expect(draft.gift_count).toBe(2);
    const held = await declarationOf(orgAdmin).cancel.$post({ param: { id: declaration._id } });
    expect((await errorOf(held, 409)).message).toMatch(/void that claim first/);
    expect((await claimOf(admin).void.$post({ param: { id: draft._id }, json: {} })).status).toBe(200);
    const cancelled = await declarationOf(orgAdmin).cancel.$post({ param: { id: declaration._id } });
    expect((await bodyOf(cancelled, 200)).cancelled_at).toBe('2026-01-05T00:00:00.000Z');
    expect(await eligibleCount(org.id, orgAdmin)).toBe(0);
    const flags = await t.db
      .select({ id: donations.id, giftAid: donations.giftAid })
      .from(donations)
      .where(eq(donations.giftAidDeclarationId, declaration._id));
    expect(flags.map((f) => f.giftAid)).toEqual([false, false]);
    const why = await bodyOf(
      await giftAid(orgAdmin).declarations.covering.$get({
        query: { donor_id: donor.id, organization_id: org.id, date: '2025-12-01' },
      }),
      200,
    );
    expect(why).toMatchObject({ eligible: false, reason: expect.stringMatching(/within 30 days .* never counted/) });
  });

  it('refuses declarations for someone else’s donor, in the future, or for another organization, and stores nothing', async () => {
    const { org, orgAdmin } = await charity('Bad declarations');
    const other = await charity('Other declarations');
    const stranger = await createUser(t.db);
    const body = {
      donor_id: stranger.id,
      organization_id: org.id,
      first_name: 'Sam',
      last_name: 'Stone',
      house: '1',
      postcode: 'LS1 4AP',
      covers_past: false,
      covers_future: true,
      declared_on: '2026-01-05',
    };
    const foreignDonor = await giftAid(orgAdmin).declarations.$post({ json: body });
    expect((await errorOf(foreignDonor, 400)).message).toMatch(/^donor_id: /);
    const future = await giftAid(admin).declarations.$post({ json: { ...body, declared_on: '2999-01-01' } });
    expect((await errorOf(future, 400)).message).toMatch(/^declared_on: cannot be in the future/);
    const foreignOrg = await giftAid(orgAdmin).declarations.$post({ json: { ...body, organization_id: other.org.id } });
    expect(foreignOrg.status).toBe(403);
    expect(
      await t.db.select().from(giftAidDeclarations).where(eq(giftAidDeclarations.donorId, stranger.id)),
    ).toHaveLength(0);
    // Listing and cancelling another organization's declaration: 404, nothing changed.
    const { declarationId } = await declaredDonor(other.org.id);
    expect((await declarationOf(orgAdmin).cancel.$post({ param: { id: declarationId } })).status).toBe(404);
    const [still] = await t.db.select().from(giftAidDeclarations).where(eq(giftAidDeclarations.id, declarationId));
    expect(still.cancelledAt).toBeNull();
  });

  it('drills down from a claim to its gifts; voiding a draft releases them and keeps the claim and its schedule, audited', async () => {
    const { org, campaign, orgAdmin } = await charity('Void');
    const other = await charity('Void other');
    const { donor, declarationId } = await declaredDonor(org.id);
    const ids = [
      await gift(donor.id, campaign.id, declarationId, '2025-06-01T12:00:00Z', 3000),
      await gift(donor.id, campaign.id, declarationId, '2025-07-01T12:00:00Z', 4000),
    ];
    const claim = await newClaim(org.id);
    const drill = await bodyOf(await claimOf(orgAdmin).gifts.$get({ param: { id: claim._id } }), 200);
    expect(drill.gifts.map((g) => [g.donation_id, g.line, g.amount])).toEqual([
      [ids[0], 1, 3000],
      [ids[1], 2, 4000],
    ]);
    const schedule = await csvOf(claim._id);

    // Another organization's admin cannot void it (404) and nothing changes.
    expect((await claimOf(other.orgAdmin).void.$post({ param: { id: claim._id }, json: {} })).status).toBe(404);
    expect(
      await t.db.select().from(giftAidClaimedGifts).where(eq(giftAidClaimedGifts.claimId, claim._id)),
    ).toHaveLength(2);

    const voided = await claimOf(orgAdmin).void.$post({ param: { id: claim._id }, json: { reason: 'Wrong dates' } });
    expect(await bodyOf(voided, 200)).toMatchObject({
      status: 'void',
      void_reason: 'Wrong dates',
      voided_at: expect.any(String),
    });
    expect(
      await t.db.select().from(giftAidClaimedGifts).where(eq(giftAidClaimedGifts.claimId, claim._id)),
    ).toHaveLength(0);
    expect(await t.db.select().from(giftAidClaimRows).where(eq(giftAidClaimRows.claimId, claim._id))).toHaveLength(2);
    expect(await csvOf(claim._id)).toBe(schedule);
    expect(await eligibleCount(org.id, orgAdmin)).toBe(2);
    const audit = await t.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.targetId, claim._id), eq(auditLog.action, 'claim.void')));
    expect(audit).toHaveLength(1);
    expect(audit[0].note).toBe('Wrong dates');
    // Void is final, and the gifts can be claimed again.
    const again = await claimOf(orgAdmin).void.$post({ param: { id: claim._id }, json: {} });
    expect((await errorOf(again, 400)).message).toMatch(/^status: only a draft/);
    expect((await newClaim(org.id)).gift_count).toBe(2);
  });

  it('claims a gift only under its own donor’s declaration to its own charity', async () => {
    const { org, campaign, orgAdmin } = await charity('Whose declaration');
    const other = await charity('Another charity');
    const { donor, declarationId } = await declaredDonor(org.id);
    const stranger = await createUser(t.db);
    await gift(donor.id, campaign.id, declarationId, '2025-06-01T12:00:00Z', 1000);
    // Stored by hand as a bad edit once could: another donor's gift, and a gift to another charity.
    await gift(stranger.id, campaign.id, declarationId, '2025-06-02T12:00:00Z', 2000);
    await gift(donor.id, other.campaign.id, declarationId, '2025-06-03T12:00:00Z', 3000);
    expect(await eligibleCount(org.id, orgAdmin)).toBe(1);
    expect(await eligibleCount(other.org.id, other.orgAdmin)).toBe(0);
  });

  it('voiding a draft whose gift was part refunded drops that refund’s adjustment: the next claim takes the gift net, once', async () => {
    const { org, campaign } = await charity('Void after refund');
    const { donor, declarationId } = await declaredDonor(org.id);
    const giftId = await gift(donor.id, campaign.id, declarationId, '2025-06-01T12:00:00Z', 10_000, {
      source: 'manual',
      method: 'cheque',
      paymentIntentId: null,
    });
    const first = await newClaim(org.id);
    expect(first).toMatchObject({ total: 10_000, gift_aid: 2500 });
    // £40 goes back after the draft claimed the gift: an over-claim of £10, to report.
    const reversed = await t.client(admin).api.donations[':id'].refund.$post({
      param: { id: giftId },
      json: { amount: 4000, reason: 'returned_to_donor' },
      header: {},
    });
    expect(reversed.status, await reversed.clone().text()).toBe(201);
    const adjustments = () => t.db.select().from(giftAidAdjustments).where(eq(giftAidAdjustments.donationId, giftId));
    expect((await adjustments()).map((a) => a.giftAidPence)).toEqual([1000]);

    // The draft never reached HMRC: void it, and its gift is claimed again at £60, with nothing to adjust.
    expect((await claimOf(admin).void.$post({ param: { id: first._id }, json: {} })).status).toBe(200);
    expect(await adjustments()).toEqual([]);
    const second = await newClaim(org.id);
    expect(second).toMatchObject({ total: 6000, gift_aid: 1500, adjustment: 0, net_claim: 1500 });
  });

  it('records HMRC’s payment, flagging a difference from the net claim with its note; rejects and resubmits; one clear message for an empty reference', async () => {
    const { org, campaign, orgAdmin } = await charity('Payment');
    const { donor, declarationId } = await declaredDonor(org.id);
    await gift(donor.id, campaign.id, declarationId, '2025-06-01T12:00:00Z', 10_000);
    const claim = await newClaim(org.id);
    const param = { id: claim._id };
    const put = (json: ClaimUpdate) => claimOf(orgAdmin).$put({ param, json });
    const payment = (json: { amount: number; paid_on: string; note?: string }) =>
      claimOf(orgAdmin).payment.$post({ param, json });

    const empty = await put({ status: 'submitted', hmrc_reference: '' });
    const emptyMessage = (await errorOf(empty, 400)).message;
    expect(emptyMessage).toMatch(/^hmrc_reference: enter HMRC's reference/);
    expect(emptyMessage.match(/hmrc_reference/g)).toHaveLength(1);
    expect((await put({ status: 'submitted', hmrc_reference: 'CHR/1' })).status).toBe(200);

    const reject = await claimOf(orgAdmin).reject.$post({ param, json: { reason: 'Postcode missing on line 1' } });
    expect(await bodyOf(reject, 200)).toMatchObject({
      status: 'rejected',
      rejection_reason: 'Postcode missing on line 1',
    });
    expect((await payment({ amount: 2500, paid_on: '2026-01-01' })).status).toBe(400);
    const resubmitted = await claimOf(orgAdmin).resubmit.$post({ param, json: { hmrc_reference: 'CHR/2' } });
    expect(await bodyOf(resubmitted, 200)).toMatchObject({ status: 'submitted', hmrc_reference: 'CHR/2' });

    const today = londonIsoDate(new Date());
    const noNote = await payment({ amount: 2400, paid_on: today });
    // The difference in pounds, as the screen shows money.
    expect((await errorOf(noNote, 400)).message).toMatch(
      /^note: HMRC paid less than the claim's net figure \(by £1\.00\)/,
    );
    const early = await payment({ amount: 2500, paid_on: '2020-01-01' });
    expect((await errorOf(early, 400)).message).toMatch(/^paid_on: must be on or after/);
    const [unchanged] = await t.db.select().from(giftAidClaims).where(eq(giftAidClaims.id, claim._id));
    expect(unchanged).toMatchObject({ status: 'submitted', paidAmountPence: null });

    const paid = await payment({ amount: 2400, paid_on: today, note: 'HMRC letter: £1 withheld' });
    expect(await bodyOf(paid, 200)).toMatchObject({
      status: 'paid',
      net_claim: 2500,
      paid_amount: 2400,
      payment_difference: -100,
      payment_note: 'HMRC letter: £1 withheld',
    });
    const actions = (await t.db.select().from(auditLog).where(eq(auditLog.targetId, claim._id)))
      .map((a) => a.action)
      .sort();
    expect(actions).toEqual(['claim.create', 'claim.paid', 'claim.reject', 'claim.resubmit', 'claim.submit']);
  });

  it('aggregates small gifts within one accounting period of the organization, across its year end', async () => {
    const { org, campaign } = await charity('Calendar year', { yearEnd: '12-31' });
    const small = [];
    for (const [i, date] of ['2025-12-20T12:00:00Z', '2025-12-30T12:00:00Z', '2026-01-02T12:00:00Z'].entries()) {
      const { donor, declarationId } = await declaredDonor(org.id, { firstName: `Small${'abc'[i]}` });
      small.push(await gift(donor.id, campaign.id, declarationId, date, 1000));
    }
    const claim = await newClaim(org.id, { aggregate: true });
    expect(claim.row_count).toBe(2);
    const lines = (await csvOf(claim._id)).trim().split('\r\n').slice(1);
    expect(lines).toEqual([
      ',,,,,Gifts of 20 pounds or less 2025,,30/12/25,20.00',
      ',,,,,Gifts of 20 pounds or less 2026,,02/01/26,10.00',
    ]);
    // Under the default year end (the tax year) the same dates share one line.
    const tax = await charity('Tax year');
    for (const date of ['2025-12-20T12:00:00Z', '2026-01-02T12:00:00Z']) {
      const { donor, declarationId } = await declaredDonor(tax.org.id);
      await gift(donor.id, tax.campaign.id, declarationId, date, 1000);
    }
    expect((await newClaim(tax.org.id, { aggregate: true })).row_count).toBe(1);
  });

  it('sponsored-event gifts say Yes and are never aggregated; a donor abroad has postcode X and the address in the house field', async () => {
    const { org, campaign } = await charity('Sponsored');
    const appeal = await createAppeal(t.db, campaign.id, { organizationId: org.id, sponsoredEvent: true });
    const sponsor = await declaredDonor(org.id, {
      firstName: 'Spon',
      lastName: 'Sor',
      house: '4',
      postcode: 'LS1 4AP',
    });
    await gift(sponsor.donor.id, campaign.id, sponsor.declarationId, '2025-06-01T12:00:00Z', 500, {
      appealId: appeal.id,
    });
    const abroad = await declaredDonor(
      org.id,
      { firstName: 'Anna', lastName: 'Berg', house: '7', address: 'Storgatan, Stockholm, Sweden', postcode: '' },
      { overseas: true },
    );
    await gift(abroad.donor.id, campaign.id, abroad.declarationId, '2025-06-02T12:00:00Z', 5000);
    const plain = await declaredDonor(org.id);
    await gift(plain.donor.id, campaign.id, plain.declarationId, '2025-06-03T12:00:00Z', 500);
    const claim = await newClaim(org.id, { aggregate: true });
    const lines = (await csvOf(claim._id)).trim().split('\r\n').slice(1);
    expect(lines).toEqual([
      ',Spon,Sor,4,LS1 4AP,,Yes,01/06/25,5.00',
      ',Anna,Berg,"7, Storgatan, Stockholm, Sweden",X,,,02/06/25,50.00',
      ',,,,,Gifts of 20 pounds or less 2025-26,,03/06/25,5.00',
    ]);
  });

  it('an organization admin marks an appeal a sponsored event (audited); its small gifts each get their own Yes line, never aggregated; a fundraiser cannot mark one', async () => {
    const { org, campaign, orgAdmin } = await charity('Sponsored walk');
    const fundraiser = await signedIn(t.db, 'donor');
    const appeal = await createAppeal(t.db, campaign.id, { organizationId: org.id, createdBy: fundraiser.user.id });
    const put = (token: string, json: { title?: string; sponsored_event: boolean }) =>
      t.client(token).api.campaigns[':id'].$put({ param: { id: appeal.id }, json });

    const refused = await put(fundraiser.token, { sponsored_event: true });
    expect((await errorOf(refused, 403)).message).toMatch(/^sponsored_event: only admins/);
    // A string where the schema wants a boolean: sent raw, as the typed client would refuse it.
    const yes = { sponsored_event: 'yes' };
    expect((await t.request(`/api/campaigns/${appeal.id}`, { method: 'PUT', token: orgAdmin, json: yes })).status).toBe(
      400,
    );
    expect((await t.db.select().from(campaigns).where(eq(campaigns.id, appeal.id)))[0].sponsoredEvent).toBe(false);

    const marked = await put(orgAdmin, { sponsored_event: true });
    expect(await bodyOf(marked, 200)).toMatchObject({ sponsored_event: true });
    const audit = await t.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.targetId, appeal.id), eq(auditLog.action, 'campaign.sponsored_event')));
    expect(audit.map((a) => a.changes)).toEqual([{ sponsored_event: [false, true] }]);
    // The fundraiser may still edit the rest of their appeal, and the mark stays.
    expect((await put(fundraiser.token, { title: 'Walk for the river', sponsored_event: true })).status).toBe(200);

    for (const [i, date] of ['2025-06-01T12:00:00Z', '2025-06-02T12:00:00Z'].entries()) {
      const sponsor = await declaredDonor(org.id, {
        firstName: `Walker${'ab'[i]}`,
        lastName: 'Sponsor',
        house: `${i + 1}`,
        postcode: 'LS1 4AP',
      });
      await gift(sponsor.donor.id, campaign.id, sponsor.declarationId, date, 1000, { appealId: appeal.id });
    }
    for (const date of ['2025-06-03T12:00:00Z', '2025-06-04T12:00:00Z']) {
      const plain = await declaredDonor(org.id);
      await gift(plain.donor.id, campaign.id, plain.declarationId, date, 1000);
    }
    const claim = await newClaim(org.id, { aggregate: true });
    expect((await csvOf(claim._id)).trim().split('\r\n').slice(1)).toEqual([
      ',Walkera,Sponsor,1,LS1 4AP,,Yes,01/06/25,10.00',
      ',Walkerb,Sponsor,2,LS1 4AP,,Yes,02/06/25,10.00',
      ',,,,,Gifts of 20 pounds or less 2025-26,,04/06/25,20.00',
    ]);
  });

  it('answers batch entry whether a declaration covers a gift on a day, and why not; a postal confirmation makes an oral one count from its date', async () => {
    const { org, campaign, orgAdmin } = await charity('Covering');
    const other = await charity('Covering other');
    const donor = await createUser(t.db);
    // An organization admin sees the donors who gave to their organization.
    await createDonation(t.db, {
      donorId: donor.id,
      campaignId: campaign.id,
      amount: 2000,
      date: new Date('2026-01-10T12:00:00Z'),
      source: 'manual',
      method: 'cheque',
    });
    const covering = async (date: string, token = orgAdmin, organizationId = org.id) =>
      giftAid(token).declarations.covering.$get({
        query: { donor_id: donor.id, organization_id: organizationId, date },
      });

    expect(await bodyOf(await covering('2026-01-10'), 200)).toEqual({
      eligible: false,
      declaration: null,
      reason: expect.stringMatching(/^This donor has no Gift Aid declaration to this charity/),
    });
    const body = {
      donor_id: donor.id,
      organization_id: org.id,
      first_name: 'Ora',
      last_name: 'Lee',
      house: '2',
      postcode: 'LS1 4AP',
      covers_past: false,
      covers_future: true,
      declared_on: '2026-01-05',
      method: 'oral' as const,
    };
    const oral = await bodyOf(await giftAid(orgAdmin).declarations.$post({ json: body }), 201);
    const waiting = await bodyOf(await covering('2026-01-10'), 200);
    expect(waiting).toMatchObject({ eligible: false, declaration: { _id: oral._id, method: 'oral' } });
    expect(waiting.reason).toMatch(/written confirmation/);

    // A postal confirmation before the declaration was made, or in the future, is refused and changes nothing.
    const confirm = (sent_on: string) =>
      declarationOf(orgAdmin).confirmation.$post({ param: { id: oral._id }, json: { sent_on } });
    const early = await confirm('2026-01-01');
    expect((await errorOf(early, 400)).message).toMatch(/^sent_on: must be on or after/);
    expect((await confirm('2999-01-01')).status).toBe(400);
    expect(
      (await t.db.select().from(giftAidDeclarations).where(eq(giftAidDeclarations.id, oral._id)))[0].confirmationSentAt,
    ).toBeNull();

    const posted = await confirm('2026-01-07');
    expect(await bodyOf(posted, 200)).toMatchObject({
      effective: true,
      confirmation_sent_at: '2026-01-07T00:00:00.000Z',
    });
    expect(
      await t.db
        .select()
        .from(outbox)
        .where(eq(outbox.key, `gift-aid-confirmation:${oral._id}`)),
    ).toHaveLength(0);
    expect(await bodyOf(await covering('2026-01-10'), 200)).toMatchObject({
      eligible: true,
      reason: null,
      declaration: { _id: oral._id },
    });
    // It covers future gifts only.
    const before = await bodyOf(await covering('2025-12-01'), 200);
    expect(before).toMatchObject({ eligible: false });
    expect(before.reason).toMatch(/does not cover earlier gifts/);

    expect((await covering('2026-02-30')).status).toBe(400);
    expect((await covering('2026-01-10', other.orgAdmin)).status).toBe(403);
    expect((await covering('2026-01-10', orgAdmin, other.org.id)).status).toBe(403);
  });

  it('refuses dates out of order for the eligible list and a claim, and a claim in another organization, creating nothing', async () => {
    const { org, campaign, orgAdmin } = await charity('Order');
    const other = await charity('Order other');
    const { donor, declarationId } = await declaredDonor(org.id);
    await gift(donor.id, campaign.id, declarationId, '2025-06-01T12:00:00Z', 3000);
    const range = { from: '2025-07-01', to: '2025-06-01' };
    const list = await giftAid(orgAdmin).eligible.$get({ query: { organization_id: org.id, ...range } });
    expect((await errorOf(list, 400)).message).toBe('to: must be on or after from');
    const backwards = await giftAid(orgAdmin).claims.$post({ json: { organization_id: org.id, ...range } });
    expect((await errorOf(backwards, 400)).message).toBe('to: must be on or after from');
    const foreign = await giftAid(other.orgAdmin).claims.$post({ json: { organization_id: org.id } });
    expect(foreign.status).toBe(403);
    expect(await t.db.select().from(giftAidClaims).where(eq(giftAidClaims.organizationId, org.id))).toHaveLength(0);
    expect(await eligibleCount(org.id, orgAdmin)).toBe(1);
  });

  it('a gift whose donor received a benefit above HMRC’s limits is never eligible; the flag is set on manual gifts', async () => {
    const { org, campaign, orgAdmin } = await charity('Benefit');
    const { donor, declarationId } = await declaredDonor(org.id);
    const appeal = await createAppeal(t.db, campaign.id, { organizationId: org.id });
    const manual = { donor: donor.id, amount: 5000, date: '2025-06-01', campaign: campaign.id, appeal: appeal.id };
    const created = await t.client(admin).api.donations.$post({
      json: { ...manual, method: 'cheque', benefit_exceeds_limit: true },
    });
    const id = (await bodyOf(created, 201))._id;
    const [row] = await t.db.select().from(donations).where(eq(donations.id, id));
    expect(row).toMatchObject({ benefitExceedsLimit: true, method: 'cheque' });
    const refused = await verify(orgAdmin, id);
    expect((await errorOf(refused, 400)).message).toMatch(/^benefit_exceeds_limit:/);
    // A card gift flagged later leaves the eligible list.
    const card = await gift(donor.id, campaign.id, declarationId, '2025-06-02T12:00:00Z', 2000);
    await t.db.update(donations).set({ benefitExceedsLimit: true }).where(eq(donations.id, card));
    expect(await eligibleCount(org.id, orgAdmin)).toBe(0);
    // A string where the schema wants a boolean: sent raw, as the typed client would refuse it.
    const bad = await t.request('/api/donations', {
      method: 'POST',
      token: admin,
      json: { ...manual, benefit_exceeds_limit: 'yes' },
    });
    expect(bad.status).toBe(400);
  });

  it('an organization’s accounting year end is edited as MM-DD and validated', async () => {
    const { org } = await charity('Year end');
    const organization = t.client(admin).api.organizations[':id'];
    const bad = await organization.$put({ param: { id: org.id }, json: { accounting_year_end: '02-30' } });
    expect((await errorOf(bad, 400)).message).toMatch(/accounting_year_end/);
    const ok = await organization.$put({ param: { id: org.id }, json: { accounting_year_end: '03-31' } });
    expect(await bodyOf(ok, 200)).toMatchObject({ accounting_year_end: '03-31' });
  });
  it('downloads the schedule as an OpenDocument spreadsheet: mimetype first and stored, dates as date cells, amounts as floats, the same bytes every time', async () => {
    const { org, campaign, orgAdmin } = await charity('Spreadsheet');
    const other = await charity('Spreadsheet other');
    const ada = await declaredDonor(org.id, {
      title: 'Prof',
      firstName: 'Ada',
      lastName: 'House-Martin',
      house: '12',
      postcode: 'S19 2BD',
    });
    await gift(ada.donor.id, campaign.id, ada.declarationId, '2025-12-03T12:00:00Z', 20_000);
    const bob = await declaredDonor(org.id, {
      firstName: 'Bob',
      lastName: "O'Neil & Co",
      house: 'Rose Cottage',
      postcode: 'LS1 4AP',
    });
    await gift(bob.donor.id, campaign.id, bob.declarationId, '2026-03-05T12:00:00Z', 1250);
    const claim = await newClaim(org.id);
    const download = () => claimOf(orgAdmin)['schedule.ods'].$get({ param: { id: claim._id } });
    const res = await download();
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/vnd.oasis.opendocument.spreadsheet');
    expect(res.headers.get('content-disposition')).toMatch(/\.ods"$/);
    const bytes = new Uint8Array(await res.arrayBuffer());
    expect(Buffer.from(new Uint8Array(await (await download()).arrayBuffer())).equals(Buffer.from(bytes))).toBe(true);

    const entries = readZip(bytes);
    expect(entries.map((e) => e.name)).toEqual([
      'mimetype',
      'META-INF/manifest.xml',
      'content.xml',
      'styles.xml',
      'meta.xml',
    ]);
    expect(entries[0]).toMatchObject({ method: 0, offset: 0, extraLength: 0 });
    expect(new TextDecoder().decode(entries[0].data)).toBe('application/vnd.oasis.opendocument.spreadsheet');
    expect(new TextDecoder().decode(bytes.subarray(30, 38))).toBe('mimetype');

    // The headings span the first five columns: in the narrow Item column alone they showed cut short.
    const content = new TextDecoder().decode(entries.find((e) => e.name === 'content.xml')!.data);
    for (const heading of ['Earliest donation date in the period of claim (DD/MM/YY)', 'Total donations'])
      expect(content).toContain(
        `table:number-columns-spanned="5" office:value-type="string"><text:p>${heading}</text:p></table:table-cell>${'<table:covered-table-cell/>'.repeat(4)}`,
      );
    const rows = readOdsRows(bytes);
    const s = (text: string) => ({ type: 'string', value: null, dateValue: null, text });
    const blank = { type: null, value: null, dateValue: null, text: '' };
    const date = (iso: string, text: string) => ({ type: 'date', value: null, dateValue: iso, text });
    const num = (value: string) => ({ type: 'float', value, dateValue: null, text: value });
    // HMRC's column titles in their order, as one line: a wrong, missing or moved title fails.
    const hmrcHeader =
      'Item,Title,First name or initial,Last name,House name or number,Postcode,Aggregated donations,Sponsored event,Donation date,Amount';
    expect(rows).toEqual([
      [s('Earliest donation date in the period of claim (DD/MM/YY)'), date('2025-12-03', '03/12/25')],
      [s('Total donations'), num('212.50')],
      [blank],
      hmrcHeader.split(',').map(s),
      [
        num('1'),
        s('Prof'),
        s('Ada'),
        s('House Martin'),
        s('12'),
        s('S19 2BD'),
        blank,
        blank,
        date('2025-12-03', '03/12/25'),
        num('200.00'),
      ],
      [
        num('2'),
        blank,
        s('Bob'),
        s("O'Neil & Co"),
        s('Rose Cottage'),
        s('LS1 4AP'),
        blank,
        blank,
        date('2026-03-05', '05/03/26'),
        num('12.50'),
      ],
    ]);
    // Another organization's admin gets a 404 and no file.
    expect((await claimOf(other.orgAdmin)['schedule.ods'].$get({ param: { id: claim._id } })).status).toBe(404);
  });
  it('GASDS: small cash and contactless gifts without a declaration, capped at 10 times the Gift Aid donations claimed and at £8,000 a tax year', async () => {
    const smallGifts = async (
      donorId: string,
      campaignId: string,
      count: number,
      amount: number,
      over: Partial<typeof donations.$inferInsert> = {},
    ) => {
      const statements = Array.from({ length: count }, (_, i) =>
        t.db.insert(donations).values(
          donationRow({
            donorId,
            campaignId,
            amount,
            method: 'cash',
            date: new Date(Date.UTC(2025, 5, 1 + (i % 28), 12)),
            ...over,
          }),
        ),
      );
      await t.db.batch(statements as [(typeof statements)[number], ...typeof statements]);
    };
    const position = async (orgId: string, token: string) =>
      bodyOf(await giftAid(token).gasds.$get({ query: { organization_id: orgId, tax_year: '2025' } }), 200);
    const claimGasds = (token: string, json: { organization_id: string; tax_year: number; amount?: number }) =>
      giftAid(token).gasds.$post({ json });

    // Matching rule: £100 of Gift Aid donations claimed allows £1,000 of small donations.
    const { org, campaign, orgAdmin } = await charity('GASDS matching');
    const { donor, declarationId } = await declaredDonor(org.id);
    await gift(donor.id, campaign.id, declarationId, '2025-06-01T12:00:00Z', 10_000);
    await newClaim(org.id);
    const cashDonor = await createUser(t.db);
    await smallGifts(cashDonor.id, campaign.id, 48, 2500);
    await smallGifts(cashDonor.id, campaign.id, 1, 2500, { method: 'contactless' });
    // Not small donations: over £30, paid by card, given with a declaration, or in another tax year.
    await smallGifts(cashDonor.id, campaign.id, 1, 3100);
    await smallGifts(cashDonor.id, campaign.id, 1, 1000, { method: 'card', source: 'card' });
    await smallGifts(donor.id, campaign.id, 1, 1000, { giftAidDeclarationId: declarationId });
    await smallGifts(cashDonor.id, campaign.id, 1, 1000, { date: new Date('2025-04-05T12:00:00Z') });
    const before = await position(org.id, orgAdmin);
    expect(before).toMatchObject({
      small_gifts: 49,
      small_donations: 122_500,
      gift_aid_donations: 10_000,
      claimable: 100_000,
      top_up: 25_000,
      limited_by: 'matching_rule',
    });

    const over = await claimGasds(orgAdmin, { organization_id: org.id, tax_year: 2025, amount: 100_100 });
    expect((await errorOf(over, 400)).message).toMatch(/^amount: at most £1,000\.00 .*10 times the Gift Aid donations/);
    // Whole gifts only: £1 fits no £25 gift, so nothing is claimed (not a claim of £0).
    const tiny = await claimGasds(orgAdmin, { organization_id: org.id, tax_year: 2025, amount: 100 });
    expect((await errorOf(tiny, 422)).message).toMatch(
      /^amount: no whole gift fits in £1\.00; the smallest .* is £25\.00/,
    );
    expect(await t.db.select().from(gasdsClaims).where(eq(gasdsClaims.organizationId, org.id))).toHaveLength(0);
    expect((await position(org.id, orgAdmin)).small_gifts).toBe(49);
    const other = await charity('GASDS other');
    expect((await claimGasds(other.orgAdmin, { organization_id: org.id, tax_year: 2025 })).status).toBe(403);
    expect(
      (await giftAid(orgAdmin).gasds.$get({ query: { organization_id: org.id, tax_year: 'twenty' } })).status,
    ).toBe(400);

    // Sent twice at once: one claim is recorded; the other stores nothing (409 if it read before the
    // first was written, 422 after), so no gift is counted twice and the caps hold.
    const both = await Promise.all([
      claimGasds(orgAdmin, { organization_id: org.id, tax_year: 2025 }),
      claimGasds(orgAdmin, { organization_id: org.id, tax_year: 2025 }),
    ]);
    expect(both.map((r) => r.status).filter((s) => s === 201)).toHaveLength(1);
    expect(both.map((r) => r.status).filter((s) => s !== 201)).toEqual([expect.toBeOneOf([409, 422])]);
    const claimed = both.find((r) => r.status === 201)!;
    expect(await t.db.select().from(gasdsClaims).where(eq(gasdsClaims.organizationId, org.id))).toHaveLength(1);
    expect(await bodyOf(claimed, 201)).toMatchObject({
      already_claimed: 100_000,
      claimable: 0,
      small_gifts: 9,
      claims: [expect.objectContaining({ donations: 100_000, top_up: 25_000, gift_count: 40 })],
    });
    const marked = await t.db.select().from(donations).where(eq(donations.campaignId, campaign.id));
    expect(marked.filter((d) => d.gasdsClaimId !== null)).toHaveLength(40);
    expect(
      (await t.db.select().from(auditLog).where(eq(auditLog.action, 'gasds_claim.create'))).some(
        (a) => a.organizationId === org.id,
      ),
    ).toBe(true);

    // The annual limit: £8,000 of small donations even when the matching rule allows more.
    const big = await charity('GASDS annual');
    const bigDonor = await declaredDonor(big.org.id);
    await gift(bigDonor.donor.id, big.campaign.id, bigDonor.declarationId, '2025-07-01T12:00:00Z', 100_000);
    await newClaim(big.org.id);
    // £7,000 claimed earlier in the year: £1,000 of the £8,000 is left though £1,500 of small gifts wait.
    await t.db.insert(gasdsClaims).values({
      organizationId: big.org.id,
      taxYear: 2025,
      donationsPence: 700_000,
      topUpPence: 175_000,
      giftCount: 250,
      createdBy: null,
    });
    const collector = await createUser(t.db);
    await smallGifts(collector.id, big.campaign.id, 50, 3000);
    expect(await position(big.org.id, big.orgAdmin)).toMatchObject({
      small_donations: 150_000,
      already_claimed: 700_000,
      claimable: 100_000,
      limited_by: 'annual_limit',
    });
    const second = await claimGasds(big.orgAdmin, { organization_id: big.org.id, tax_year: 2025, amount: 103_000 });
    expect((await errorOf(second, 400)).message).toMatch(
      /^amount: at most £1,000\.00 .*£8,000 of small donations a tax year/,
    );
    expect(
      (await claimGasds(big.orgAdmin, { organization_id: big.org.id, tax_year: 2025, amount: 60_000 })).status,
    ).toBe(201);
    expect(await position(big.org.id, big.orgAdmin)).toMatchObject({
      already_claimed: 760_000,
      annual_cap_left: 40_000,
      claimable: 40_000,
    });
  });
});
