import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { directDebitMandates, donations, prices } from '../../../db/schema';
import { createCampaign, signedIn } from '../../../tests/factories';
import fixtures from '../../../tests/fixtures/stripe/fixtures3-bacs.json';
import { sendEvent, WEBHOOK_SECRET } from '../../../tests/fixtures/stripe/events';
import { startStripeFake, type StripeFake } from '../../../tests/mocks/stripe-fake';
import { setupTestApp, type TestApp } from '../../../tests/setup/test-app';

/** Direct Debit in Stripe mode, with the real SDK against the local Stripe fake (Node only). */
let fake: StripeFake;
let t: TestApp;

beforeAll(async () => {
  fake = await startStripeFake();
  fake.addPrice('price_dd_1000', 1000);
  t = await setupTestApp({ STRIPE_SECRET_KEY: 'sk_test_fake', STRIPE_PUBLISHABLE_KEY: 'pk_test_fake', STRIPE_WEBHOOK_SECRET: WEBHOOK_SECRET, STRIPE_API_BASE: fake.url });
  await t.db.insert(prices).values({ id: 'price_dd_1000', unitAmount: 1000 });
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

async function start(json: Record<string, unknown>) {
  const campaign = await createCampaign(t.db);
  const { user, token } = await signedIn(t.db, 'donor');
  const res = await t.request('/api/stripe/client_secret', { method: 'POST', token, json: { campaign_id: campaign.id, method: 'bacs_debit', ...json } });
  expect(res.status).toBe(200);
  const [row] = await t.db.select().from(donations).where(eq(donations.donorId, user.id));
  return { row, session: (await res.json()) as { method: string; mode: string } };
}

describe('Direct Debit with Stripe', () => {
  it('opens a Subscription that takes only Bacs, whose default payment method becomes the mandate’s', async () => {
    const { row, session } = await start({ price: 'price_dd_1000' });
    expect(session).toMatchObject({ mode: 'stripe', method: 'bacs_debit' });
    const sub = fake.subscriptions.get(row.subscriptionId!)!;
    expect(sub.payment_settings).toMatchObject({ payment_method_types: ['bacs_debit'], save_default_payment_method: 'on_subscription' });
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
    const res = await sendEvent(t, { id: `evt_${charge.id}`, object: 'event', type: 'payment_intent.processing', created: Math.floor(Date.now() / 1000), data: { object: intent } });
    expect(await res.json()).toMatchObject({ received: true, outcome: 'recorded' });
    const [stored] = await t.db.select().from(donations).where(eq(donations.id, row.id));
    expect(stored).toMatchObject({ status: 'processing', paymentMethod: 'bacs_debit', bankLast4: '2345', mandateId: mandate.id });
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
    const read = (path: string) => fetch(`${fake.url}${path}`, { headers: { authorization: 'Bearer sk_test_fake' } }).then((r) => r.json() as Promise<Json>);
    expect(sameShape(setup, fixtures.setup_intent)).toEqual([]);
    expect(setup.payment_method_types).toEqual(['bacs_debit']);
    expect(sameShape(await read(`/v1/mandates/${mandate.id}`), fixtures.mandate)).toEqual([]);
    // A bacs_debit payment method has no card: its own details stand where Stripe's card fixture has them.
    const { card: _card, ...cardless } = fixtures.payment_method;
    expect(sameShape(await read(`/v1/payment_methods/${paymentMethod.id}`), cardless)).toEqual([]);
    expect(sameShape(await read(`/v1/charges/${charge.id}`), fixtures.charge)).toEqual([]);
    expect((await read('/v1/mandates/mandate_missing')).error.code).toBe('resource_missing');
  });
});
