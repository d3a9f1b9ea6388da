import { eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { outbox } from '../../../db/schema';
import { createAppeal, createCampaign, createOrganization, createUser, signedIn } from '../../../tests/factories';
import {
  chargeRefunded,
  fakeId,
  paymentIntentSucceeded,
  sendEvent,
  WEBHOOK_SECRET,
} from '../../../tests/fixtures/stripe/events';
import {
  bodyOf,
  engineName,
  errorOf,
  PLATFORM_CHARITY,
  PLATFORM_CHARITY_ENV,
  setupTestApp,
  type TestApp,
} from '#test-app';

let t: TestApp;

beforeAll(async () => {
  t = await setupTestApp({ STRIPE_WEBHOOK_SECRET: WEBHOOK_SECRET, ...PLATFORM_CHARITY_ENV });
});

const mails = (to: string) => t.db.select().from(outbox).where(eq(outbox.to, to));

describe(`receipts and refund notices (${engineName})`, () => {
  it("sends one receipt for a one-off gift under concurrent copies, from the organization's own charity, Gift Aid line included", async () => {
    const org = await createOrganization(t.db, {
      name: 'Wells for Hope',
      legalName: 'Wells for Hope CIO',
      charityNumber: '1099999',
      address: '2 Well Road',
      city: 'York',
      postalCode: 'YO1 7HH',
    });
    const campaign = await createCampaign(t.db, { organizationId: org.id, title: 'Clean <b>water</b>' });
    const donor = await createUser(t.db, { firstName: '<script>x</script>' });
    const intentId = fakeId('pi');
    const meta = {
      kind: 'one_off',
      donation_id: crypto.randomUUID(),
      campaign_id: campaign.id,
      appeal_id: '',
      donor_id: donor.id,
      gift_aid_declaration_id: '',
      source: 'card',
    };
    const evt = paymentIntentSucceeded({ intentId, amount: 2550, metadata: meta });
    const copy = paymentIntentSucceeded({ intentId, amount: 2550, metadata: meta });
    await Promise.all([sendEvent(t, evt), sendEvent(t, evt), sendEvent(t, copy), sendEvent(t, copy)]);
    await sendEvent(t, evt);
    const list = await mails(donor.email);
    expect(list).toHaveLength(1);
    const [receipt] = list;
    expect(receipt.subject).toBe('Your receipt: £25.50 to Wells for Hope');
    expect(receipt.text).toContain('Wells for Hope CIO');
    expect(receipt.text).toContain('Registered charity number 1099999 (Charity Commission for England and Wales)');
    expect(receipt.text).toContain('2 Well Road, York, YO1 7HH');
    expect(receipt.text).toContain(`Payment reference: ${intentId}`);
    expect(receipt.text).toContain('One-off gift');
    expect(receipt.text).not.toContain('Gift Aid');
    expect(receipt.text).not.toContain('/monthly/cancel');
    expect(receipt.html).toContain('Dear &lt;script&gt;x&lt;/script&gt;,');
    expect(receipt.html).toContain('Clean &lt;b&gt;water&lt;/b&gt;');
    expect(receipt.html).not.toMatch(/<script>|<b>water/);

    // A refund sends a notice; the same refund again does not; a larger refund sends another.
    await sendEvent(t, chargeRefunded({ intentId, amount: 2550, refunded: 550 }));
    await sendEvent(t, chargeRefunded({ intentId, amount: 2550, refunded: 550 }));
    await sendEvent(t, chargeRefunded({ intentId, amount: 2550, refunded: 2550 }));
    const notices = (await mails(donor.email)).filter((m) => m.key?.startsWith('refund:'));
    expect(notices.map((m) => m.subject).sort()).toEqual([
      'Partial refund of your gift to Wells for Hope',
      'Refund of your gift to Wells for Hope',
    ]);
    expect(notices.find((m) => m.subject.startsWith('Partial'))!.text).toContain(
      'We have refunded £5.50 of your gift of £25.50',
    );
  });

  it('marks Gift Aid on the receipt and falls back to the platform charity (CHARITY_*) without an organization number', async () => {
    const campaign = await createCampaign(t.db);
    const appeal = await createAppeal(t.db, campaign.id);
    const start = await t.client().api.stripe.client_secret.$post({
      json: {
        email: `ga.${crypto.randomUUID().slice(0, 6)}@example.com`,
        amount: 1000,
        campaign_id: campaign.id,
        appeal_id: appeal.id,
        giftAid: true,
        gift_aid: { first_name: 'Ann', last_name: 'Donor', house: '1', address: 'Road, Leeds', postcode: 'LS1 1AA' },
      },
    });
    const { clientSecret } = await bodyOf(start, 200);
    await bodyOf(await t.client().api.stripe.demo.confirm.$post({ json: { clientSecret } }), 200);
    const [receipt] = (await t.db.select().from(outbox)).filter(
      (m) => m.key?.startsWith('receipt:') && m.text.includes(appeal.title),
    );
    expect(receipt.text).toContain('Gift Aid:          Yes: we will claim £2.50 from HMRC');
    expect(receipt.text).toContain(PLATFORM_CHARITY.name);
    expect(receipt.text).toContain(`Registered charity number ${PLATFORM_CHARITY.number}`);
    expect(receipt.text).toContain(PLATFORM_CHARITY.address);
  });

  it('sends a receipt for a manual gift only when the admin ticks "send receipt"', async () => {
    const token = (await signedIn(t.db, 'admin')).token;
    const campaign = await createCampaign(t.db);
    const appeal = await createAppeal(t.db, campaign.id);
    const donor = await createUser(t.db);
    const body = { donor: donor.id, amount: 4000, date: '2025-06-01', campaign: campaign.id, appeal: appeal.id };
    const record = t.client(token).api.donations.$post;
    await bodyOf(await record({ json: body }), 201);
    expect(await mails(donor.email)).toHaveLength(0);
    await bodyOf(await record({ json: { ...body, send_receipt: true } }), 201);
    const list = await mails(donor.email);
    expect(list).toHaveLength(1);
    expect(list[0].text).toContain('Gift recorded by our team');
    expect(list[0].text).toContain('1 June 2025');
    // Raw: a body the type refuses ("yes" for a boolean) is the point.
    await errorOf(
      await t.request('/api/donations', { method: 'POST', token, json: { ...body, send_receipt: 'yes' } }),
      400,
    );
  });
});
