import { eq, like } from 'drizzle-orm';
import type Stripe from 'stripe';
import { beforeAll, describe, expect, it } from 'vitest';
import {
  auditLog,
  campaignTotals,
  donationDisputes,
  donationReversals,
  donations,
  giftAidAdjustments,
  giftAidClaimedGifts,
  outbox,
  users,
} from '../../../db/schema';
import {
  createCampaign,
  createDonation,
  createGiftAidClaim,
  createOrganization,
  createUser,
  signedIn,
  type SignedIn,
} from '../../../tests/factories';
import { bodyOf, engineName, errorOf, type JsonOf, setupTestApp, type TestApp, type TestClient } from '#test-app';
import { readConfig } from '../../lib/config';
import { applyStripeEvent } from '../../webhooks/stripe/apply';
import { chargeDispute, type DisputeEventType } from '../../../tests/fixtures/stripe/events';
import { refundObject, stripeEvent } from '../../services/payments/stripe-objects';

type RefundBody = JsonOf<TestClient['api']['donations'][':id']['refund']['$post']>;

describe(`POST /api/donations/{id}/refund (${engineName})`, () => {
  let t: TestApp;
  let admin: SignedIn;
  let orgAdmin: SignedIn;
  let otherOrgAdmin: SignedIn;
  let finance: SignedIn;
  let donorId: string;
  let orgX: string;
  let campaignX: string;

  beforeAll(async () => {
    t = await setupTestApp();
    orgX = (await createOrganization(t.db, { name: 'Refund X' })).id;
    const orgY = (await createOrganization(t.db, { name: 'Refund Y' })).id;
    campaignX = (await createCampaign(t.db, { organizationId: orgX })).id;
    admin = await signedIn(t.db, 'admin');
    orgAdmin = await signedIn(t.db, 'org_admin', { organizationIds: [orgX] });
    otherOrgAdmin = await signedIn(t.db, 'org_admin', { organizationIds: [orgY] });
    finance = await signedIn(t.db, 'finance', { organizationIds: [orgX] });
    donorId = (await createUser(t.db)).id;
  });

  const gift = (overrides: Partial<typeof donations.$inferInsert> = {}) =>
    createDonation(t.db, { donorId, campaignId: campaignX, amount: 5000, ...overrides });
  const refund = (id: string, json: RefundBody, token = orgAdmin.token, header: { 'idempotency-key'?: string } = {}) =>
    t.client(token).api.donations[':id'].refund.$post({ param: { id }, json, header });
  /** Raw: for bodies the schema refuses (an amount as text), which is what that test checks. */
  const refundRaw = (id: string, json: unknown) =>
    t.request(`/api/donations/${id}/refund`, { method: 'POST', token: orgAdmin.token, json });
  const read = async (id: string) => (await t.db.select().from(donations).where(eq(donations.id, id)))[0];
  const campaignTotal = async () =>
    (await t.db.select().from(campaignTotals).where(eq(campaignTotals.campaignId, campaignX)))[0];
  const rows = (id: string) => t.db.select().from(donationReversals).where(eq(donationReversals.donationId, id));

  it('reverses an offline gift partly, then fully; totals and the audit log follow; the original row keeps its amount', async () => {
    const g = await gift({ source: 'manual' });
    const before = (await campaignTotal()).raisedPence;
    const partial = await refund(g.id, { amount: 2000, reason: 'bounced_cheque', note: 'Returned by the bank' });
    expect(await bodyOf(partial, 201)).toMatchObject({
      reversal: { kind: 'reversal', status: 'succeeded', amount: 2000 },
      donation: { status: 'succeeded', refunded_amount: 2000, remaining: 3000 },
    });
    expect((await campaignTotal()).raisedPence).toBe(before - 2000);
    const full = await refund(g.id, { reason: 'entered_in_error' }, finance.token);
    expect((await bodyOf(full, 201)).donation).toMatchObject({
      status: 'refunded',
      refunded_amount: 5000,
      remaining: 0,
    });
    expect(await read(g.id)).toMatchObject({ amount: 5000, refundedAmount: 5000, status: 'refunded' });
    expect((await campaignTotal()).raisedPence).toBe(before - 5000);
    expect((await rows(g.id)).map((r) => r.amount).sort()).toEqual([2000, 3000]);
    const audit = await t.db.select().from(auditLog).where(eq(auditLog.targetId, g.id));
    expect(audit.map((a) => a.action)).toEqual(['donation.reverse', 'donation.reverse']);
    expect(audit.map((a) => a.actorId).sort()).toEqual([orgAdmin.user.id, finance.user.id].sort());
    // Nothing is left: a further refund is refused, and the list shows the refund.
    expect((await refund(g.id, { amount: 1, reason: 'entered_in_error' })).status).toBe(409);
    const listed = await bodyOf(await t.client(finance.token).api.donations[':id'].$get({ param: { id: g.id } }), 200);
    expect(listed.refunded_amount).toBe(5000);
  });

  it('refuses more than what remains, bad amounts and reasons, naming the field, and changes nothing', async () => {
    const g = await gift({ source: 'manual', amount: 1000 });
    for (const [body, field, status] of [
      [{ amount: 1001, reason: 'bounced_cheque' }, 'amount', 400],
      [{ amount: 0, reason: 'bounced_cheque' }, 'amount', 400],
      [{ amount: -5, reason: 'bounced_cheque' }, 'amount', 400],
      [{ amount: 10.5, reason: 'bounced_cheque' }, 'amount', 400],
      [{ amount: '500', reason: 'bounced_cheque' }, 'amount', 400],
      [{ amount: 500, reason: 'because' }, 'reason', 400],
      [{ amount: 500 }, 'reason', 400],
      // A card reason for a cheque is refused too.
      [{ amount: 500, reason: 'requested_by_customer' }, 'reason', 400],
    ] as const) {
      const res = await refundRaw(g.id, body);
      expect(res.status, JSON.stringify(body)).toBe(status);
      expect((await errorOf(res, status)).message).toContain(field);
    }
    const over = await refund(g.id, { amount: 1001, reason: 'bounced_cheque' });
    expect((await errorOf(over, 400)).message).toMatch(/at most 1000 pence/);
    expect(await rows(g.id)).toEqual([]);
    expect(await read(g.id)).toMatchObject({ refundedAmount: 0, status: 'succeeded' });
  });

  it('refuses a gift still pending (409), another organization’s gift (404) and donors (403)', async () => {
    const pending = await gift({
      source: 'card',
      status: 'pending',
      paymentIntentId: `pi_pending_${crypto.randomUUID().slice(0, 8)}`,
    });
    expect((await refund(pending.id, { reason: 'requested_by_customer' })).status).toBe(409);
    const g = await gift({ source: 'manual' });
    expect((await refund(g.id, { reason: 'bounced_cheque' }, otherOrgAdmin.token)).status).toBe(404);
    const donor = await signedIn(t.db, 'donor');
    expect((await refund(g.id, { reason: 'bounced_cheque' }, donor.token)).status).toBe(403);
    const anonymous = t.client().api.donations[':id'].refund;
    expect(
      (await anonymous.$post({ param: { id: g.id }, json: { reason: 'bounced_cheque' }, header: {} })).status,
    ).toBe(401);
    expect(await rows(g.id)).toEqual([]);
  });

  it('never lets two concurrent refunds of one gift exceed it', async () => {
    const g = await gift({ source: 'manual', amount: 3000 });
    const answers = await Promise.all([
      refund(g.id, { amount: 2000, reason: 'bounced_cheque' }),
      refund(g.id, { amount: 2000, reason: 'entered_in_error' }, admin.token),
    ]);
    expect(answers.map((r) => r.status).sort()).toEqual([201, 400]);
    expect((await rows(g.id)).reduce((sum, r) => sum + r.amount, 0)).toBe(2000);
    expect((await read(g.id)).refundedAmount).toBe(2000);
    expect((await t.db.select().from(auditLog).where(eq(auditLog.targetId, g.id))).length).toBe(1);
  });

  it('makes one refund of a retried request (Idempotency-Key)', async () => {
    const g = await gift({ source: 'manual', amount: 3000 });
    const key = `refund-${crypto.randomUUID()}`;
    const first = await refund(g.id, { amount: 1000, reason: 'returned_to_donor' }, orgAdmin.token, {
      'idempotency-key': key,
    });
    const again = await refund(g.id, { amount: 1000, reason: 'returned_to_donor' }, orgAdmin.token, {
      'idempotency-key': key,
    });
    expect([first.status, again.status]).toEqual([201, 200]);
    expect((await bodyOf(again, 200)).reversal._id).toBe((await bodyOf(first, 201)).reversal._id);
    expect((await read(g.id)).refundedAmount).toBe(1000);
  });

  it('makes the Gift Aid adjustment when a claimed gift is refunded', async () => {
    const g = await gift({ source: 'manual', amount: 4000, giftAid: true });
    // A submitted claim of this one £40 gift.
    const claimId = (await createGiftAidClaim(t.db, { organizationId: orgX, totalPence: 4000, giftAidPence: 1000 })).id;
    await t.db.insert(giftAidClaimedGifts).values({ donationId: g.id, claimId, line: 1, amountPence: 4000 });
    expect((await refund(g.id, { amount: 2000, reason: 'returned_to_donor' })).status).toBe(201);
    const adjustments = await t.db.select().from(giftAidAdjustments).where(eq(giftAidAdjustments.donationId, g.id));
    expect(adjustments).toMatchObject([{ giftAidPence: 500, reason: 'refund', organizationId: orgX }]);
    const listed = await bodyOf(await t.client(finance.token).api['gift-aid'].adjustments.$get({ query: {} }), 200);
    expect(listed.find((a) => a.donation_id === g.id)).toMatchObject({ gift_aid: 500 });
  });

  it('refunds a demo card gift through the webhook recorder, once, and tells the donor', async () => {
    const intentId = `pi_demo_${crypto.randomUUID().replace(/-/g, '')}`;
    const g = await gift({ source: 'demo', paymentIntentId: intentId, amount: 2500 });
    const res = await refund(g.id, { amount: 1000, reason: 'requested_by_customer' });
    const body = await bodyOf(res, 201);
    expect(body.reversal).toMatchObject({
      kind: 'refund',
      status: 'succeeded',
      amount: 1000,
      provider_id: expect.stringMatching(/^re_demo_/),
    });
    expect(body.donation).toMatchObject({ refunded_amount: 1000, remaining: 1500 });
    const donor = await t.db.query.users.findFirst({ where: (u, { eq: e }) => e(u.id, donorId) });
    const outbox = await bodyOf(await t.client().api.dev.outbox.$get({ query: { to: donor!.email } }), 200);
    expect(outbox.some((m) => /Partial refund/.test(m.subject))).toBe(true);
  });

  it('records Stripe refund events exactly once, in any order, and follows a refund that fails', async () => {
    const intentId = `pi_evt_${crypto.randomUUID().replace(/-/g, '')}`;
    const g = await gift({ source: 'card', paymentIntentId: intentId, amount: 6000 });
    const refundId = `re_${intentId.slice(7, 20)}`;
    const refund = (status: string) => ({
      ...refundObject({ id: refundId, amount: 2500, payment_intent: intentId, status, balance_transaction: 'txn_1' }),
      reason: 'requested_by_customer',
      created: 1,
    });
    const event = (id: string, type: string, status: string) =>
      stripeEvent(type, refund(status), { id, created: 1 }) as unknown as Stripe.Event;
    const apply = (e: Stripe.Event) => applyStripeEvent({ db: t.db, stripe: null }, e);
    // The succeeded update arrives before the pending create, twice.
    expect(await apply(event(`evt_u_${intentId}`, 'refund.updated', 'succeeded'))).toBe('recorded');
    expect(await apply(event(`evt_u_${intentId}`, 'refund.updated', 'succeeded'))).toBe('duplicate');
    expect(await apply(event(`evt_c_${intentId}`, 'refund.created', 'pending'))).toBe('recorded');
    expect(await rows(g.id)).toMatchObject([{ status: 'succeeded', amount: 2500, kind: 'refund' }]);
    expect(await read(g.id)).toMatchObject({ refundedAmount: 2500, status: 'succeeded' });
    // The bank returns it: the money goes back to the gift, and a late success cannot undo that.
    expect(await apply(event(`evt_f_${intentId}`, 'refund.failed', 'failed'))).toBe('recorded');
    expect(await apply(event(`evt_u2_${intentId}`, 'refund.updated', 'succeeded'))).toBe('recorded');
    expect(await rows(g.id)).toMatchObject([{ status: 'failed' }]);
    expect(await read(g.id)).toMatchObject({ refundedAmount: 0, status: 'succeeded' });
  });
});

describe(`GET /api/donations/{id}/story (${engineName})`, () => {
  it('tells the whole story: reversals, Gift Aid, history and the honest actions', async () => {
    const t = await setupTestApp();
    const org = (await createOrganization(t.db)).id;
    const campaignId = (await createCampaign(t.db, { organizationId: org })).id;
    const staff = await signedIn(t.db, 'org_admin', { organizationIds: [org] });
    const g = await createDonation(t.db, {
      donorId: (await createUser(t.db)).id,
      campaignId,
      amount: 3000,
      source: 'manual',
    });
    const gift = t.client(staff.token).api.donations[':id'];
    const story = async () => bodyOf(await gift.story.$get({ param: { id: g.id } }), 200);
    expect((await story()).actions).toEqual(['edit', 'refund']);
    await gift.refund.$post({ param: { id: g.id }, json: { amount: 1000, reason: 'bounced_cheque' }, header: {} });
    const after = await story();
    // Once money has gone back, the gift is read-only: only what remains can be refunded.
    expect(after).toMatchObject({
      actions: ['refund'],
      remaining_pence: 2000,
      reversals: [{ amount: 1000 }],
      gift_aid: { claim: null },
    });
    expect(after.history.map((h) => h.action)).toEqual(['donation.reverse']);
  });
});

describe(`charge.dispute.* webhooks (${engineName})`, () => {
  // Stripe-shaped disputes (tests/fixtures/stripe/events.ts): 20.00 disputed, a 20.00 dispute fee in the expanded balance transaction.
  const dispute = (intentId: string, id: string, status: string, created: number, type: DisputeEventType) =>
    chargeDispute({
      type,
      disputeId: id,
      intentId,
      amount: 2000,
      status,
      reason: 'fraudulent',
      fee: 2000,
      evidenceDueBy: 1_900_000_000,
      created,
      eventId: `evt_${id}_${status}_${created}`,
    });

  it('records a dispute once and out of order; lost takes the gift out of totals like a refund, won does not', async () => {
    const t = await setupTestApp();
    const org = (await createOrganization(t.db)).id;
    const campaignId = (await createCampaign(t.db, { organizationId: org })).id;
    const donorId = (await createUser(t.db)).id;
    const apply = (e: Stripe.Event) => applyStripeEvent({ db: t.db, stripe: null }, e);
    const read = async (id: string) => (await t.db.select().from(donations).where(eq(donations.id, id)))[0];

    const lostIntent = `pi_dl_${crypto.randomUUID().slice(0, 8)}`;
    const lost = await createDonation(t.db, {
      donorId,
      campaignId,
      amount: 2000,
      source: 'card',
      paymentIntentId: lostIntent,
    });
    const du = `du_${crypto.randomUUID().slice(0, 8)}`;
    // Closed (lost) arrives first, then the older created event, then a duplicate of the close.
    expect(await apply(dispute(lostIntent, du, 'lost', 300, 'charge.dispute.closed'))).toBe('recorded');
    expect(await apply(dispute(lostIntent, du, 'needs_response', 100, 'charge.dispute.created'))).toBe('recorded');
    expect(await apply(dispute(lostIntent, du, 'lost', 300, 'charge.dispute.closed'))).toBe('duplicate');
    const [row] = await t.db.select().from(donationDisputes).where(eq(donationDisputes.providerId, du));
    expect(row).toMatchObject({ status: 'lost', outcome: 'lost', feePence: 2000, lastEventAt: 300 });
    expect(await t.db.select().from(donationReversals).where(eq(donationReversals.donationId, lost.id))).toMatchObject([
      { kind: 'dispute', reason: 'dispute_lost', amount: 2000, status: 'succeeded' },
    ]);
    expect(await read(lost.id)).toMatchObject({ refundedAmount: 2000, status: 'refunded' });

    const wonIntent = `pi_dw_${crypto.randomUUID().slice(0, 8)}`;
    const won = await createDonation(t.db, {
      donorId,
      campaignId,
      amount: 2000,
      source: 'card',
      paymentIntentId: wonIntent,
    });
    const dw = `du_${crypto.randomUUID().slice(0, 8)}`;
    await apply(dispute(wonIntent, dw, 'needs_response', 100, 'charge.dispute.created'));
    await apply(dispute(wonIntent, dw, 'won', 200, 'charge.dispute.closed'));
    await apply(dispute(wonIntent, dw, 'under_review', 150, 'charge.dispute.updated'));
    expect((await t.db.select().from(donationDisputes).where(eq(donationDisputes.providerId, dw)))[0]).toMatchObject({
      status: 'won',
      outcome: 'won',
    });
    expect(await t.db.select().from(donationReversals).where(eq(donationReversals.donationId, won.id))).toEqual([]);
    expect(await read(won.id)).toMatchObject({ refundedAmount: 0, status: 'succeeded' });
  });
  it('emails the organization’s admins and the site admins once when a dispute opens, however often the event arrives', async () => {
    const t = await setupTestApp();
    const org = (await createOrganization(t.db, { name: 'Disputed Org' })).id;
    const otherOrg = (await createOrganization(t.db)).id;
    const campaignId = (await createCampaign(t.db, { organizationId: org, title: 'Winter Shelter' })).id;
    const donorId = (await createUser(t.db)).id;
    const ownAdmin = await signedIn(t.db, 'org_admin', { organizationIds: [org] });
    const strangerAdmin = await signedIn(t.db, 'org_admin', { organizationIds: [otherOrg] });
    const siteAdmin = await signedIn(t.db, 'admin');
    const mail = { db: t.db, config: readConfig(t.env), origin: 'http://localhost' };
    const apply = (e: Stripe.Event) => applyStripeEvent({ db: t.db, stripe: null, mail }, e);
    const intent = `pi_dm_${crypto.randomUUID().slice(0, 8)}`;
    const gift = await createDonation(t.db, {
      donorId,
      campaignId,
      amount: 5000,
      source: 'card',
      paymentIntentId: intent,
    });
    const du = `du_${crypto.randomUUID().slice(0, 8)}`;
    const opened = dispute(intent, du, 'needs_response', 100, 'charge.dispute.created');
    const disputeMail = () =>
      t.db
        .select()
        .from(outbox)
        .where(like(outbox.key, `dispute-opened:${du}:%`));

    // The first delivery and two concurrent copies of it: one email per admin.
    expect(await apply(opened)).toBe('recorded');
    await Promise.all([apply(opened), apply(opened)]);
    // An update and the close tell nobody.
    await apply(dispute(intent, du, 'under_review', 200, 'charge.dispute.updated'));
    await apply(dispute(intent, du, 'won', 300, 'charge.dispute.closed'));
    const sent = await disputeMail();
    const to = sent.map((m) => m.to).sort();
    expect(to).toContain(ownAdmin.user.email);
    expect(to).toContain(siteAdmin.user.email);
    expect(to).not.toContain(strangerAdmin.user.email);
    expect(new Set(to).size).toBe(to.length);
    const admins = await t.db.select({ id: users.id }).from(users).where(eq(users.type, 'admin'));
    expect(sent).toHaveLength(admins.length + 1);
    const mine = sent.find((m) => m.to === ownAdmin.user.email)!;
    expect(mine.subject).toBe('A gift of £50.00 is disputed: respond by 17 March 2030');
    expect(mine.text).toContain('Winter Shelter');
    expect(mine.text).toMatch(/Dispute fee:\s+£20\.00/);
    expect(mine.text).toContain(`/dashboard/donations/edit/${gift.id}`);
  });
});
