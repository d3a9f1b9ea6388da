import { eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { directDebitMandates, donations, monthlyGifts, prices } from '../../../db/schema';
import { createCampaign, createOrganization, signedIn } from '../../../tests/factories';
import {
  fakeId,
  invoicePaid,
  mandateUpdated,
  paymentIntentFailed,
  paymentIntentProcessing,
  paymentIntentSucceeded,
  sendEvent,
  WEBHOOK_SECRET,
} from '../../../tests/fixtures/stripe/events';
import { bodyOf, engineName, errorOf, type JsonOf, setupTestApp, type TestApp, type TestClient } from '#test-app';
import { readConfig } from '../../lib/config';
import { runHousekeeping } from '../../services/housekeeping/run';
import { createPaymentProvider } from '../../services/payments';

let t: TestApp;
let admin: string;
const PRICE = `price_dd_${Date.now()}`;
const PRICE_BIG = `${PRICE}_big`;
type CheckoutBody = JsonOf<TestClient['api']['stripe']['client_secret']['$post']>;
type BacsDebit = NonNullable<JsonOf<TestClient['api']['stripe']['demo']['confirm']['$post']>['bacs_debit']>;

const ANN = { first_name: 'Ann', last_name: 'Lee', house: '1', address: 'High Street, Leeds', postcode: 'LS1 4AP' };
const HOLDER = {
  name: 'Ann Lee',
  address: { line1: '1 High Street', line2: null, city: 'Leeds', postal_code: 'ls14ap' },
};
const BANK: BacsDebit = { sort_code: '10-88-00', account_number: '00012345', billing_details: HOLDER };
const FAILING_BANK: BacsDebit = { sort_code: '108800', account_number: '90012345', billing_details: HOLDER };

beforeAll(async () => {
  t = await setupTestApp({ STRIPE_WEBHOOK_SECRET: WEBHOOK_SECRET });
  await t.db.insert(prices).values([
    { id: PRICE, unitAmount: 1500 },
    { id: PRICE_BIG, unitAmount: 3000 },
  ]);
  admin = (await signedIn(t.db, 'admin')).token;
});

const demo = () =>
  createPaymentProvider({
    stripeSecretKey: null,
    stripeApiBase: null,
    stripePublishableKey: null,
    authSecret: readConfig(t.env).authSecret,
    production: false,
  });
const housekeeping = () =>
  runHousekeeping({
    db: t.db,
    payments: demo(),
    mail: { db: t.db, config: readConfig(t.env), origin: 'http://localhost' },
    now: new Date(),
  });

async function world() {
  const org = await createOrganization(t.db, {
    name: `Bacs Org ${crypto.randomUUID().slice(0, 4)}`,
    hmrcReference: 'AB12345',
  });
  const campaign = await createCampaign(t.db, { organizationId: org.id });
  const { user: donor, token } = await signedIn(t.db, 'donor');
  const api = t.client().api;
  const total = async () =>
    (
      await bodyOf(
        await api.campaigns[':id'].$get({ param: { id: campaign.id } }, { headers: { 'cache-control': 'no-cache' } }),
        200,
      )
    ).summary.total_donations;
  const outbox = async () => bodyOf(await api.dev.outbox.$get({ query: { to: donor.email } }), 200);
  const start = async (json: Omit<CheckoutBody, 'campaign_id'>) =>
    bodyOf(
      await t
        .client(token)
        .api.stripe.client_secret.$post({ json: { campaign_id: campaign.id, method: 'bacs_debit', ...json } }),
      200,
    );
  const confirm = (clientSecret: string, bank: BacsDebit = BANK) =>
    api.stripe.demo.confirm.$post({ json: { clientSecret, bacs_debit: bank } });
  const rows = () => t.db.select().from(donations).where(eq(donations.donorId, donor.id));
  const eligible = async () =>
    (await bodyOf(await t.client(admin).api['gift-aid'].eligible.$get({ query: { organization_id: org.id } }), 200))
      .count;
  return { org, campaign, donor, token, total, outbox, start, confirm, rows, eligible };
}

describe(`Direct Debit in demo mode (${engineName})`, () => {
  it('a monthly Direct Debit is processing, outside totals, receipts and Gift Aid, until housekeeping settles it', async () => {
    const w = await world();
    const session = await w.start({ price: PRICE, giftAid: true, gift_aid: ANN });
    expect(session).toMatchObject({ method: 'bacs_debit', type: 'monthly' });
    const before = await w.total();
    const res = await w.confirm(session.clientSecret);
    expect(await res.json()).toEqual({ status: 'processing' });
    const [processing] = await w.rows();
    expect(processing).toMatchObject({ status: 'processing', paymentMethod: 'bacs_debit', bankLast4: '2345' });
    expect(processing.mandateId).toMatch(/^mandate_demook/);
    expect(await w.total()).toBe(before);
    expect(await w.eligible()).toBe(0);
    expect((await w.outbox()).filter((m) => /receipt/i.test(m.subject))).toHaveLength(0);
    // Confirming again changes nothing.
    expect(await (await w.confirm(session.clientSecret)).json()).toEqual({ status: 'processing' });

    const counts = await housekeeping();
    expect(counts.direct_debits_settled).toBeGreaterThanOrEqual(1);
    const [settled] = await w.rows();
    expect(settled.status).toBe('succeeded');
    expect(await w.total()).toBe(before + 1500);
    expect(await w.eligible()).toBe(1);
    const [mandate] = await t.db
      .select()
      .from(directDebitMandates)
      .where(eq(directDebitMandates.id, settled.mandateId!));
    const receipts = (await w.outbox()).filter((m) => /receipt/i.test(m.subject));
    expect(receipts).toHaveLength(1);
    expect(receipts[0].text).toContain(mandate.reference!);
    expect(receipts[0].text).toContain('This Guarantee is offered by all banks and building societies');
    expect(receipts[0].text).toContain('account ending 2345');
    const [gift] = await t.db.select().from(monthlyGifts).where(eq(monthlyGifts.id, settled.subscriptionId!));
    expect(gift).toMatchObject({
      status: 'active',
      paymentMethod: 'bacs_debit',
      bankLast4: '2345',
      mandateId: settled.mandateId,
    });
    // A second run finds nothing more to settle for this gift.
    await housekeeping();
    expect((await w.outbox()).filter((m) => /receipt/i.test(m.subject))).toHaveLength(1);
  });

  it('the local settle tool runs housekeeping’s Direct Debit step alone: it settles, once, and abandons nothing', async () => {
    const w = await world();
    const session = await w.start({ amount: 1200 });
    await w.confirm(session.clientSecret);
    // A checkout left pending, which full housekeeping would abandon after a day.
    await w.start({ amount: 700 });
    const stale = new Date(Date.now() - 3 * 86_400_000);
    const pendingRow = (await w.rows()).find((r) => r.status === 'pending')!;
    await t.db.update(donations).set({ createdAt: stale }).where(eq(donations.id, pendingRow.id));
    const settle = async () => bodyOf(await t.client().api.dev['direct-debits'].settle.$post(), 200);
    expect((await settle()).settled).toBeGreaterThanOrEqual(1);
    expect((await settle()).settled).toBe(0);
    const rows = await w.rows();
    expect(rows.find((r) => r.amount === 1200)?.status).toBe('succeeded');
    expect(rows.find((r) => r.id === pendingRow.id)?.status).toBe('pending');
  });

  it('a one-off Direct Debit that the bank returns fails, stays out of totals and emails the donor once', async () => {
    const w = await world();
    const session = await w.start({ amount: 2500 });
    const before = await w.total();
    expect(await (await w.confirm(session.clientSecret, FAILING_BANK)).json()).toEqual({ status: 'processing' });
    await housekeeping();
    await housekeeping();
    const [row] = await w.rows();
    expect(row).toMatchObject({ status: 'failed', paymentMethod: 'bacs_debit' });
    expect(await w.total()).toBe(before);
    const failed = (await w.outbox()).filter((m) => /Direct Debit .* did not go through/.test(m.subject));
    expect(failed).toHaveLength(1);
    expect(failed[0].text).toContain('No money was taken');
  });

  it('setting up a Direct Debit emails its confirmation and advance notice once, as Stripe does in live mode', async () => {
    const w = await world();
    const session = await w.start({ price: PRICE });
    await w.confirm(session.clientSecret);
    // A second press of the button (or a retried request) sends nothing more.
    await w.confirm(session.clientSecret);
    const set = (await w.outbox()).filter((m) => m.subject.startsWith('Important: confirmation of your Direct Debit'));
    expect(set).toHaveLength(1);
    const [mail] = set;
    expect(mail.subject).toMatch(/^Important: confirmation of your Direct Debit to \S/);
    expect(mail.text).toContain('Please check the details below');
    expect(mail.text).toMatch(/Account number:\s+\*\*\*\*2345\b/);
    expect(mail.text).not.toContain('00012345');
    expect(mail.text).toMatch(/Sort code:\s+10-88-00/);
    // The mandate names the account holder and the billing address, as Stripe's billing_details carry them.
    expect(mail.text).toMatch(/Account holder:\s+Ann Lee/);
    expect(mail.text).toMatch(/Address:\s+1 High Street, Leeds, LS1 4AP/);
    const [row] = await w.rows();
    const [mandate] = await t.db.select().from(directDebitMandates).where(eq(directDebitMandates.id, row.mandateId!));
    expect(mail.text).toContain(`Mandate reference: ${mandate.reference}`);
    expect(mail.text).toMatch(/First payment:\s+on or about \d{1,2} \w+ \d{4}/);
    expect(mail.text).toContain('£15.00 a month');
    expect(mail.text).toContain('then the same amount each month until you cancel');
    expect(mail.text).toContain('You can cancel this Direct Debit at any time by contacting your bank');
    expect(mail.text).toContain('This Guarantee is offered by all banks and building societies');
    // Still processing: no receipt yet.
    expect((await w.outbox()).filter((m) => m.subject.startsWith('Your receipt'))).toHaveLength(0);
  });

  it('a monthly Direct Debit whose first payment the bank returns tells the donor the monthly gift has not started', async () => {
    const w = await world();
    const session = await w.start({ price: PRICE });
    await w.confirm(session.clientSecret, FAILING_BANK);
    await housekeeping();
    const failed = (await w.outbox()).filter((m) => /did not go through/.test(m.subject));
    expect(failed).toHaveLength(1);
    expect(failed[0].text).toContain('did not pay the first Direct Debit of £15.00');
    expect(failed[0].text).toContain('so your monthly gift has not started');
    // The gift never started, as Stripe's Subscription stays incomplete: not in the donor's list or
    // the office's, but in the office's failed-payments queue with the reason and the email sent.
    const [gift] = await t.db.select().from(monthlyGifts).where(eq(monthlyGifts.donorId, w.donor.id));
    expect(gift).toMatchObject({ status: 'incomplete', paymentMethod: 'bacs_debit', startedAt: null });
    const mine = await t.client(w.token).api.me['monthly-gifts'].$get();
    expect(await mine.json()).toEqual([]);
    const office = t.client(admin).api;
    const list = async (failing?: 'true') =>
      bodyOf(await office['monthly-gifts'].$get({ query: { organization_id: w.org.id, failing } }), 200);
    expect(await list()).toEqual([]);
    const queue = await list('true');
    expect(queue).toEqual([
      expect.objectContaining({
        _id: gift.id,
        status: 'incomplete',
        payment_method: 'bacs_debit',
        bank_last4: '2345',
        amount: 1500,
        started_at: null,
        next_payment_at: null,
        last_failure: expect.objectContaining({
          message: 'The first monthly payment did not go through. No money was taken.',
          email: expect.stringMatching(/^(sent|queued)$/),
        }),
      }),
    ]);
    // The queue's CSV lists it too.
    const csv = await (
      await office.exports['monthly-gifts.csv'].$get({ query: { organization_id: w.org.id, failing: 'true' } })
    ).text();
    expect(csv).toContain(gift.id);
    expect(csv).toContain('The first monthly payment did not go through');
    // Another housekeeping run changes nothing.
    await housekeeping();
    expect(await list('true')).toHaveLength(1);
  });

  it('change, pause and cancel work on a Direct Debit gift and keep its method', async () => {
    const w = await world();
    const session = await w.start({ price: PRICE });
    await w.confirm(session.clientSecret);
    await housekeeping();
    const [row] = await w.rows();
    const id = row.subscriptionId!;
    const gifts = t.client(w.token).api.me['monthly-gifts'][':id'];
    const param = { id };
    expect(await (await gifts.change.$post({ param, json: { price: PRICE_BIG } })).json()).toMatchObject({
      amount: 3000,
      status: 'active',
    });
    expect(await (await gifts.pause.$post({ param, json: { months: 1 } })).json()).toMatchObject({ status: 'paused' });
    expect(await (await gifts.cancel.$post({ param })).json()).toMatchObject({ status: 'cancelled' });
    const [gift] = await t.db.select().from(monthlyGifts).where(eq(monthlyGifts.id, id));
    expect(gift).toMatchObject({
      status: 'cancelled',
      cancelledBy: 'donor',
      paymentMethod: 'bacs_debit',
      bankLast4: '2345',
    });
    const mine = await bodyOf(await t.client(w.token).api.me['monthly-gifts'].$get(), 200);
    expect(mine[0]).toMatchObject({ payment_method: 'bacs_debit', bank_last4: '2345' });
  });

  it('My Donations, the office list, its CSV and the donations export show Direct Debit with the last four digits', async () => {
    const w = await world();
    const session = await w.start({ price: PRICE });
    await w.confirm(session.clientSecret);
    // Processing already shows how it is paid.
    const mine = async () => bodyOf(await t.client(w.token).api.donations.$get({ query: { type: 'me' } }), 200);
    expect((await mine())[0]).toMatchObject({ status: 'processing', payment_method: 'bacs_debit', bank_last4: '2345' });
    await housekeeping();
    expect((await mine())[0]).toMatchObject({ status: 'succeeded', payment_method: 'bacs_debit', bank_last4: '2345' });
    const [row] = await w.rows();

    const office = t.client(admin).api;
    const list = await bodyOf(await office['monthly-gifts'].$get({ query: { organization_id: w.org.id } }), 200);
    expect(list.find((g) => g._id === row.subscriptionId)).toMatchObject({
      method: 'demo',
      payment_method: 'bacs_debit',
      bank_last4: '2345',
    });
    const giftsCsv = await (
      await office.exports['monthly-gifts.csv'].$get({ query: { organization_id: w.org.id } })
    ).text();
    expect(giftsCsv.split('\n').find((line) => line.includes(row.subscriptionId!))).toContain(
      'Direct Debit ending 2345 (demo)',
    );
    const donationsCsv = await (
      await office.exports['donations.csv'].$get({ query: { campaign_id: w.campaign.id } })
    ).text();
    expect(donationsCsv.split('\n').find((line) => line.includes(row.id))).toContain('Direct Debit ending 2345');
  });

  it('refuses a missing, blank or oversized account holder name or address with {statusCode, message}, and records nothing', async () => {
    const w = await world();
    const session = await w.start({ amount: 500 });
    const address = HOLDER.address;
    const cases: [unknown, RegExp][] = [
      [undefined, /^bacs_debit\.billing_details: enter the account holder’s name and address/],
      [{ address }, /^bacs_debit\.billing_details\.name: must be text/],
      [{ ...HOLDER, name: '   ' }, /^bacs_debit\.billing_details\.name: Enter the account holder's name/],
      [{ ...HOLDER, name: 'A'.repeat(101) }, /^bacs_debit\.billing_details\.name: Use at most 100 characters/],
      [{ ...HOLDER, name: '<b>Ann</b>' }, /name: A name cannot contain </],
      [{ name: 'Ann Lee' }, /^bacs_debit\.billing_details\.address: enter the account holder’s address/],
      [{ ...HOLDER, address: { ...address, line1: '' } }, /address\.line1: Enter the first line of the address/],
      [{ ...HOLDER, address: { ...address, line1: 'x'.repeat(101) } }, /address\.line1: Use at most 100 characters/],
      [{ ...HOLDER, address: { ...address, line2: 'x'.repeat(101) } }, /address\.line2: Use at most 100 characters/],
      [{ ...HOLDER, address: { ...address, city: ' ' } }, /address\.city: Enter the town or city/],
      [{ ...HOLDER, address: { ...address, city: 'x'.repeat(61) } }, /address\.city: Use at most 60 characters/],
      [{ ...HOLDER, address: { ...address, postal_code: '' } }, /address\.postal_code: Enter the postcode/],
      [{ ...HOLDER, address: { ...address, postal_code: '12345' } }, /address\.postal_code: Enter a UK postcode/],
      [{ ...HOLDER, name: 'x'.repeat(5000) }, /name: too long/],
    ];
    // Raw requests: the table holds missing and mistyped holders the schema refuses, which is what it checks.
    for (const [billing, message] of cases) {
      const res = await t.request('/api/stripe/demo/confirm', {
        method: 'POST',
        json: { clientSecret: session.clientSecret, bacs_debit: { ...BANK, billing_details: billing } },
      });
      expect((await errorOf(res, 400)).message, String(message)).toMatch(message);
    }
    // Nothing reached Bacs: no mandate, the gift still pending, no set-up email.
    const [row] = await w.rows();
    expect(row).toMatchObject({ status: 'pending', mandateId: null });
    expect((await w.outbox()).filter((m) => m.subject.startsWith('Important: confirmation'))).toHaveLength(0);
    // The same details, corrected, are accepted.
    expect(await (await w.confirm(session.clientSecret)).json()).toEqual({ status: 'processing' });
  });

  it('refuses bad input with a message and stores nothing', async () => {
    const w = await world();
    const cases: [Record<string, unknown>, RegExp][] = [
      [{ amount: 1_000_001 }, /^amount: a Direct Debit can be at most £10,000/],
      [{ amount: 99 }, /^amount: the minimum donation is £1/],
      [{ amount: 500, currency: 'eur' }, /^currency: gifts are taken in pounds sterling only/],
      [{ amount: 500, method: 'paypal' }, /^method: must be "card" or "bacs_debit"/],
    ];
    // Raw requests: the tables hold bodies the schema refuses (a wrong method, no bank details), which is the point.
    for (const [json, message] of cases) {
      const res = await t.request('/api/stripe/client_secret', {
        method: 'POST',
        token: w.token,
        json: { campaign_id: w.campaign.id, method: 'bacs_debit', ...json },
      });
      expect((await errorOf(res, 400)).message).toMatch(message);
    }
    expect(await w.rows()).toHaveLength(0);
    const session = await w.start({ amount: 500 });
    for (const [bank, message] of [
      [undefined, /^bacs_debit: enter the test sort code/],
      [{ ...BANK, sort_code: '000000' }, /sort_code: use the test sort code 108800/],
      [{ ...BANK, account_number: '11111111' }, /account_number: use the test account 00012345/],
    ] as const) {
      const res = await t.request('/api/stripe/demo/confirm', {
        method: 'POST',
        json: { clientSecret: session.clientSecret, ...(bank ? { bacs_debit: bank } : {}) },
      });
      expect((await errorOf(res, 400)).message).toMatch(message);
    }
    expect((await w.rows())[0].status).toBe('pending');
  });
});

describe(`Direct Debit webhook events (${engineName})`, () => {
  /** A one-off card-less gift started for Direct Debit, with its PaymentIntent id and our metadata. */
  async function startedOneOff(w: Awaited<ReturnType<typeof world>>) {
    const session = await w.start({ amount: 4000 });
    const [row] = await w.rows();
    const metadata = {
      kind: 'one_off',
      donation_id: row.id,
      campaign_id: row.campaignId,
      appeal_id: '',
      donor_id: row.donorId,
      gift_aid_declaration_id: '',
      source: 'card',
    };
    return { session, row, metadata, intentId: row.paymentIntentId! };
  }

  it('records processing once, and a success that arrives first keeps the bank details of a later processing event', async () => {
    const w = await world();
    const { metadata, intentId } = await startedOneOff(w);
    const mandateId = fakeId('mandate');
    const processing = paymentIntentProcessing({ intentId, amount: 4000, metadata, mandateId, reference: 'REF-ONE' });
    expect((await sendEvent(t, processing)).status).toBe(200);
    expect((await sendEvent(t, processing)).status).toBe(200);
    expect((await w.rows())[0]).toMatchObject({ status: 'processing', mandateId });
    expect(
      await (await sendEvent(t, paymentIntentSucceeded({ intentId, amount: 4000, metadata }))).json(),
    ).toMatchObject({ received: true });
    expect((await w.rows())[0].status).toBe('succeeded');
    // A processing copy delivered late does not undo the success.
    await sendEvent(t, paymentIntentProcessing({ intentId, amount: 4000, metadata, mandateId }));
    expect((await w.rows())[0].status).toBe('succeeded');

    const w2 = await world();
    const second = await startedOneOff(w2);
    await sendEvent(t, paymentIntentSucceeded({ intentId: second.intentId, amount: 4000, metadata: second.metadata }));
    await sendEvent(
      t,
      paymentIntentProcessing({
        intentId: second.intentId,
        amount: 4000,
        metadata: second.metadata,
        mandateId: fakeId('mandate'),
        last4: '9999',
      }),
    );
    expect((await w2.rows())[0]).toMatchObject({ status: 'succeeded', paymentMethod: 'bacs_debit', bankLast4: '9999' });
  });

  it('a mandate cancelled at the bank cancels the monthly gift once, in either order', async () => {
    // In order: the gift runs, then the mandate becomes inactive (twice: one cancellation).
    const w = await world();
    const session = await w.start({ price: PRICE });
    await w.confirm(session.clientSecret);
    await housekeeping();
    const [row] = await w.rows();
    const inactive = mandateUpdated({ mandateId: row.mandateId!, status: 'inactive' });
    expect((await sendEvent(t, inactive)).status).toBe(200);
    const [gift] = await t.db.select().from(monthlyGifts).where(eq(monthlyGifts.id, row.subscriptionId!));
    expect(gift).toMatchObject({ status: 'cancelled', cancelledBy: 'bank', nextPaymentAt: null });
    await sendEvent(t, inactive);
    await sendEvent(
      t,
      mandateUpdated({ mandateId: row.mandateId!, status: 'active', created: Math.floor(Date.now() / 1000) - 60 }),
    );
    const [again] = await t.db.select().from(monthlyGifts).where(eq(monthlyGifts.id, row.subscriptionId!));
    expect(again).toMatchObject({ status: 'cancelled', cancelledAt: gift.cancelledAt });

    // Out of order: the mandate is cancelled while the first payment is still processing; the paid
    // invoice that arrives later makes the gift, already cancelled.
    const v = await world();
    const s2 = await v.start({ price: PRICE });
    await v.confirm(s2.clientSecret);
    const [pending] = await v.rows();
    await sendEvent(t, mandateUpdated({ mandateId: pending.mandateId!, status: 'inactive' }));
    const meta = {
      kind: 'monthly',
      donation_id: pending.id,
      campaign_id: pending.campaignId,
      appeal_id: '',
      donor_id: pending.donorId,
      gift_aid_declaration_id: '',
      source: 'demo',
    };
    await sendEvent(
      t,
      invoicePaid({
        invoiceId: pending.invoiceId!,
        subscriptionId: pending.subscriptionId!,
        amount: 1500,
        metadata: meta,
        first: true,
        intentId: pending.paymentIntentId!,
      }),
    );
    const [late] = await t.db.select().from(monthlyGifts).where(eq(monthlyGifts.id, pending.subscriptionId!));
    expect(late).toMatchObject({ status: 'cancelled', cancelledBy: 'bank', mandateId: pending.mandateId });
  });

  it('a bank failure is recorded once and emails once, whether it comes before or after the processing event', async () => {
    const w = await world();
    const before = await w.total();
    const failures = async () => (await w.outbox()).filter((m) => /did not go through/.test(m.subject));
    // In order, with the failure delivered twice.
    const a = await startedOneOff(w);
    await sendEvent(
      t,
      paymentIntentProcessing({
        intentId: a.intentId,
        amount: 4000,
        metadata: a.metadata,
        mandateId: fakeId('mandate'),
      }),
    );
    const failed = paymentIntentFailed({
      intentId: a.intentId,
      amount: 4000,
      metadata: a.metadata,
      message: 'The bank returned this Direct Debit.',
    });
    expect(await (await sendEvent(t, failed)).json()).toMatchObject({ outcome: 'recorded' });
    expect(await (await sendEvent(t, failed)).json()).toMatchObject({ outcome: 'duplicate' });
    expect((await w.rows()).find((r) => r.id === a.row.id)?.status).toBe('failed');
    expect(await failures()).toHaveLength(1);
    // Reordered: the failure first; the late processing event does not revive the gift.
    const b = await startedOneOff(w);
    await sendEvent(t, paymentIntentFailed({ intentId: b.intentId, amount: 4000, metadata: b.metadata }));
    await sendEvent(
      t,
      paymentIntentProcessing({
        intentId: b.intentId,
        amount: 4000,
        metadata: b.metadata,
        mandateId: fakeId('mandate'),
      }),
    );
    expect((await w.rows()).find((r) => r.id === b.row.id)?.status).toBe('failed');
    expect(await w.total()).toBe(before);
  });

  it("a renewal's processing events are ignored until invoice.paid records it, once, in any order", async () => {
    const w = await world();
    const session = await w.start({ price: PRICE });
    await w.confirm(session.clientSecret);
    await housekeeping();
    const [first] = await w.rows();
    const before = await w.total();
    const meta = {
      kind: 'monthly',
      donation_id: first.id,
      campaign_id: first.campaignId,
      appeal_id: '',
      donor_id: first.donorId,
      gift_aid_declaration_id: '',
      source: 'demo',
    };
    // Stripe's renewal PaymentIntent is made by the invoice and carries none of our metadata.
    const renewal = (intentId: string) =>
      paymentIntentProcessing({ intentId, amount: 1500, metadata: {}, mandateId: first.mandateId! });
    const paid = (intentId: string) =>
      invoicePaid({
        invoiceId: fakeId('in'),
        subscriptionId: first.subscriptionId!,
        amount: 1500,
        metadata: meta,
        intentId,
        first: false,
      });

    // In order: processing (and its copy) first, then the paid invoice.
    const intentA = fakeId('pi');
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    const processing = renewal(intentA);
    for (const event of [processing, processing]) {
      const res = await sendEvent(t, event);
      expect(res.status).toBe(200);
      expect(await res.json()).toEqual({ received: true, outcome: 'ignored' });
    }
    expect(
      warn.mock.calls
        .map((c) => String(c[0]))
        .filter((l) => l.includes('no gift for this payment') && l.includes(intentA)),
    ).toHaveLength(2);
    warn.mockRestore();
    expect(await w.rows()).toHaveLength(1);
    expect(await w.total()).toBe(before);
    const paidA = paid(intentA);
    expect(await (await sendEvent(t, paidA)).json()).toMatchObject({ outcome: 'recorded' });
    expect(await (await sendEvent(t, paidA)).json()).toMatchObject({ outcome: 'duplicate' });
    // A processing copy delivered after the payment does not move the renewal back.
    await sendEvent(t, renewal(intentA));
    const renewalsA = (await w.rows()).filter((r) => r.paymentIntentId === intentA);
    expect(renewalsA).toHaveLength(1);
    expect(renewalsA[0]).toMatchObject({ status: 'succeeded', type: 'monthly', subscriptionId: first.subscriptionId });
    expect(await w.total()).toBe(before + 1500);

    // Reordered: the paid invoice first, its processing event after.
    const intentB = fakeId('pi');
    await sendEvent(t, paid(intentB));
    expect(await (await sendEvent(t, renewal(intentB))).json()).toMatchObject({ received: true });
    const rows = await w.rows();
    expect(rows).toHaveLength(3);
    expect(rows.filter((r) => r.paymentIntentId === intentB).map((r) => r.status)).toEqual(['succeeded']);
    expect(await w.total()).toBe(before + 3000);
  });

  it('a webhook for an unknown mandate is logged and acknowledged with 200', async () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    const log = vi.spyOn(console, 'log').mockImplementation(() => {});
    const res = await sendEvent(t, mandateUpdated({ mandateId: fakeId('mandate'), status: 'inactive' }));
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({ received: true });
    const lines = [...warn.mock.calls, ...log.mock.calls].map((c) => String(c[0]));
    expect(lines.some((l) => l.includes('unknown mandate'))).toBe(true);
    warn.mockRestore();
    log.mockRestore();
  });
});
