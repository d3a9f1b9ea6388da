import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { directDebitMandates, donations, monthlyGifts, prices } from '../../../db/schema';
import { createCampaign, signedIn } from '../../../tests/factories';
import fixtures from '../../../tests/fixtures/stripe/fixtures3-bacs.json';
import { fakeId, invoicePaid, mandateUpdated, sendEvent, WEBHOOK_SECRET } from '../../../tests/fixtures/stripe/events';
import { startStripeFake, stripeModeBindings, type StripeFake } from '../../../tests/mocks/stripe-fake';
import { bodyOf, type JsonOf, setupTestApp, type TestApp, type TestClient } from '#test-app';

/** Direct Debit in Stripe mode, with the real SDK against the local Stripe fake (Node only). */
let fake: StripeFake;
let t: TestApp;

beforeAll(async () => {
  fake = await startStripeFake();
  fake.addPrice('price_dd_1000', 1000);
  fake.addPrice('price_dd_2000', 2000);
  t = await setupTestApp({ ...stripeModeBindings(fake), STRIPE_WEBHOOK_SECRET: WEBHOOK_SECRET });
  await t.db.insert(prices).values([
    { id: 'price_dd_1000', unitAmount: 1000 },
    { id: 'price_dd_2000', unitAmount: 2000 },
  ]);
});
afterAll(() => fake.close());

type Json = Record<string, any>;

/** Every key of Stripe's fixture is there, with the same JSON type (null matches anything). */
function sameShape(object: Record<string, unknown>, fixture: Record<string, unknown>): string[] {
  const kind = (v: unknown) => (v === null ? 'null' : Array.isArray(v) ? 'array' : typeof v);
  return Object.keys(fixture).flatMap((key) => {
    if (!(key in object)) return [`${key}: missing`];
    const [a, b] = [kind(object[key]), kind(fixture[key])];
    return a === b || a === 'null' || b === 'null' ? [] : [`${key}: ${a}, Stripe has ${b}`];
  });
}

async function start(json: Omit<JsonOf<TestClient['api']['stripe']['client_secret']['$post']>, 'campaign_id'>) {
  const campaign = await createCampaign(t.db);
  const { user, token } = await signedIn(t.db, 'donor');
  const res = await t.client(token).api.stripe.client_secret.$post({
    json: { campaign_id: campaign.id, method: 'bacs_debit', ...json },
  });
  const session = await bodyOf(res, 200);
  const [row] = await t.db.select().from(donations).where(eq(donations.donorId, user.id));
  return { row, token, session };
}

describe('Direct Debit with Stripe', () => {
  it('opens a Subscription that takes only Bacs, whose default payment method becomes the mandate’s', async () => {
    const { row, session } = await start({ price: 'price_dd_1000' });
    expect(session).toMatchObject({ mode: 'stripe', method: 'bacs_debit' });
    const sub = fake.subscriptions.get(row.subscriptionId!)!;
    expect(sub.payment_settings).toMatchObject({
      payment_method_types: ['bacs_debit'],
      save_default_payment_method: 'on_subscription',
    });
    const { paymentMethod, mandate } = fake.submitBacs(row.paymentIntentId!);
    expect(sub.default_payment_method).toBe(paymentMethod.id);
    expect(mandate.payment_method).toBe(paymentMethod.id);
  });

  it('records payment_intent.processing by looking up the charge and mandate it names', async () => {
    const { row } = await start({ amount: 2000 });
    const intent = fake.paymentIntents.get(row.paymentIntentId!)!;
    expect(intent.payment_method_types).toEqual(['bacs_debit']);
    expect(intent.customer).toMatch(/^cus_/);
    const { mandate, charge } = fake.submitBacs(intent.id, '00012345');
    const res = await sendEvent(t, {
      id: `evt_${charge.id}`,
      object: 'event',
      type: 'payment_intent.processing',
      created: Math.floor(Date.now() / 1000),
      data: { object: intent },
    });
    expect(await res.json()).toMatchObject({ received: true, outcome: 'recorded' });
    const [stored] = await t.db.select().from(donations).where(eq(donations.id, row.id));
    expect(stored).toMatchObject({
      status: 'processing',
      paymentMethod: 'bacs_debit',
      bankLast4: '2345',
      mandateId: mandate.id,
    });
    const [m] = await t.db.select().from(directDebitMandates).where(eq(directDebitMandates.id, mandate.id));
    expect(m).toMatchObject({ reference: mandate.payment_method_details.bacs_debit.reference, status: 'active' });
  });

  it('answers setup intents, mandates, payment methods and charges in the shapes of Stripe’s fixtures', async () => {
    const { row } = await start({ amount: 1500 });
    const { paymentMethod, mandate, charge } = fake.submitBacs(row.paymentIntentId!);
    const setup = await fetch(`${fake.url}/v1/setup_intents`, {
      method: 'POST',
      headers: { authorization: 'Bearer sk_test_fake', 'content-type': 'application/x-www-form-urlencoded' },
      body: 'payment_method_types[0]=bacs_debit&usage=off_session',
    }).then((r) => r.json() as Promise<Json>);
    const read = (path: string) =>
      fetch(`${fake.url}${path}`, { headers: { authorization: 'Bearer sk_test_fake' } }).then(
        (r) => r.json() as Promise<Json>,
      );
    expect(sameShape(setup, fixtures.setup_intent)).toEqual([]);
    expect(setup.payment_method_types).toEqual(['bacs_debit']);
    expect(sameShape(await read(`/v1/mandates/${mandate.id}`), fixtures.mandate)).toEqual([]);
    // A bacs_debit payment method has no card: its own details stand where Stripe's card fixture has them.
    const { card: _card, ...cardless } = fixtures.payment_method;
    expect(sameShape(await read(`/v1/payment_methods/${paymentMethod.id}`), cardless)).toEqual([]);
    expect(sameShape(await read(`/v1/charges/${charge.id}`), fixtures.charge)).toEqual([]);
    expect((await read('/v1/mandates/mandate_missing')).error.code).toBe('resource_missing');
  });

  describe('a monthly Direct Debit at Stripe: the donor’s changes, and a mandate cancelled at the bank', () => {
    /** A monthly Direct Debit submitted to Bacs, with its processing event recorded. */
    async function submitted() {
      const { row, token } = await start({ price: 'price_dd_1000' });
      const { mandate, intent } = fake.submitBacs(row.paymentIntentId!);
      const processing = {
        id: fakeId('evt'),
        object: 'event',
        type: 'payment_intent.processing',
        created: Math.floor(Date.now() / 1000),
        data: { object: intent },
      };
      expect(await (await sendEvent(t, processing)).json()).toMatchObject({ outcome: 'recorded' });
      const paid = invoicePaid({
        invoiceId: row.invoiceId!,
        subscriptionId: row.subscriptionId!,
        amount: 1000,
        metadata: fake.subscriptions.get(row.subscriptionId!)!.metadata,
        first: true,
        intentId: row.paymentIntentId!,
      });
      return { row, token, mandate, paid, subscriptionId: row.subscriptionId! };
    }
    const deletes = (subscriptionId: string) =>
      fake.requests.filter(
        (r) => r.method === 'DELETE' && r.path.split('?')[0] === `/v1/subscriptions/${subscriptionId}`,
      );
    const gift = async (id: string) => (await t.db.select().from(monthlyGifts).where(eq(monthlyGifts.id, id)))[0];

    it('cancels the monthly gift once and its Stripe Subscription once, under duplicates', async () => {
      const { mandate, paid, subscriptionId } = await submitted();
      expect(await (await sendEvent(t, paid)).json()).toMatchObject({ outcome: 'recorded' });
      expect(await gift(subscriptionId)).toMatchObject({
        status: 'active',
        paymentMethod: 'bacs_debit',
        mandateId: mandate.id,
      });
      expect(deletes(subscriptionId)).toHaveLength(0);

      const inactive = mandateUpdated({ mandateId: mandate.id, status: 'inactive' });
      expect(await (await sendEvent(t, inactive)).json()).toMatchObject({ received: true, outcome: 'recorded' });
      const cancelled = await gift(subscriptionId);
      expect(cancelled).toMatchObject({ status: 'cancelled', cancelledBy: 'bank', nextPaymentAt: null });
      expect(deletes(subscriptionId)).toHaveLength(1);
      expect(deletes(subscriptionId)[0].response?.status).toBe(200);
      expect(fake.subscriptions.get(subscriptionId)).toMatchObject({
        status: 'canceled',
        cancellation_details: { comment: 'bank' },
      });

      // Stripe redelivers the event, and another copy of it arrives: nothing more is cancelled anywhere.
      expect(await (await sendEvent(t, inactive)).json()).toMatchObject({ outcome: 'duplicate' });
      expect(
        await (await sendEvent(t, mandateUpdated({ mandateId: mandate.id, status: 'inactive' }))).json(),
      ).toMatchObject({ outcome: 'recorded' });
      expect(deletes(subscriptionId)).toHaveLength(1);
      expect(await gift(subscriptionId)).toMatchObject({ status: 'cancelled', cancelledAt: cancelled.cancelledAt });
      // The renewal invoice.paid delivered late does not restart it or call Stripe again.
      await sendEvent(t, paid);
      expect(await gift(subscriptionId)).toMatchObject({ status: 'cancelled', cancelledBy: 'bank' });
      expect(deletes(subscriptionId)).toHaveLength(1);
    });

    it('the donor changes, pauses and cancels a Direct Debit gift on its Stripe Subscription', async () => {
      const { token, paid, subscriptionId } = await submitted();
      await sendEvent(t, paid);
      const mine = t.client(token).api.me['monthly-gifts'][':id'];
      const param = { id: subscriptionId };
      expect(await bodyOf(await mine.change.$post({ param, json: { price: 'price_dd_2000' } }), 200)).toMatchObject({
        amount: 2000,
        payment_method: 'bacs_debit',
        bank_last4: '2345',
      });
      const sub = fake.subscriptions.get(subscriptionId)!;
      expect(sub.items.data[0].price.id).toBe('price_dd_2000');
      expect(fake.lastProrationBehavior.get(subscriptionId)).toBe('none');
      expect(await bodyOf(await mine.pause.$post({ param, json: { months: 1 } }), 200)).toMatchObject({
        status: 'paused',
      });
      expect(sub.pause_collection).toMatchObject({ behavior: 'void' });
      expect(await bodyOf(await mine.cancel.$post({ param }), 200)).toMatchObject({
        status: 'cancelled',
        payment_method: 'bacs_debit',
      });
      expect(sub.status).toBe('canceled');
      expect(await gift(subscriptionId)).toMatchObject({
        status: 'cancelled',
        cancelledBy: 'donor',
        paymentMethod: 'bacs_debit',
      });
    });

    it('before the subscription is recorded: logged, 200, and the later invoice.paid cancels both', async () => {
      const { mandate, paid, subscriptionId } = await submitted();
      const log = vi.spyOn(console, 'log');
      const res = await sendEvent(t, mandateUpdated({ mandateId: mandate.id, status: 'inactive' }));
      expect(res.status).toBe(200);
      expect(
        log.mock.calls
          .map((c) => String(c[0]))
          .some((line) => line.includes('no monthly gift recorded on it yet') && line.includes(mandate.id)),
      ).toBe(true);
      log.mockRestore();
      expect(await gift(subscriptionId)).toBeUndefined();
      expect(deletes(subscriptionId)).toHaveLength(0);

      expect(await (await sendEvent(t, paid)).json()).toMatchObject({ outcome: 'recorded' });
      expect(await gift(subscriptionId)).toMatchObject({
        status: 'cancelled',
        cancelledBy: 'bank',
        mandateId: mandate.id,
      });
      expect(deletes(subscriptionId)).toHaveLength(1);
      expect(fake.subscriptions.get(subscriptionId)!.status).toBe('canceled');
      // The paid first payment still counts: the donor gave it before cancelling.
      const [first] = await t.db.select().from(donations).where(eq(donations.subscriptionId, subscriptionId));
      expect(first.status).toBe('succeeded');
    });

    it("a Stripe error while cancelling answers 500, and Stripe's retry cancels it", async () => {
      const { mandate, paid, subscriptionId } = await submitted();
      await sendEvent(t, paid);
      const inactive = mandateUpdated({ mandateId: mandate.id, status: 'inactive' });
      const error = vi.spyOn(console, 'error').mockImplementation(() => {});
      fake.failNext = 3;
      const failed = await sendEvent(t, inactive);
      fake.failNext = 0;
      error.mockRestore();
      expect(failed.status).toBe(500);
      // The gift is recorded as cancelled already; only the call to Stripe is owed.
      expect(await gift(subscriptionId)).toMatchObject({ status: 'cancelled', cancelledBy: 'bank' });
      expect(fake.subscriptions.get(subscriptionId)!.status).not.toBe('canceled');
      expect(await (await sendEvent(t, inactive)).json()).toMatchObject({ outcome: 'duplicate' });
      expect(fake.subscriptions.get(subscriptionId)!.status).toBe('canceled');
      expect(deletes(subscriptionId).filter((r) => r.response?.status === 200)).toHaveLength(1);
    });
  });
});
