import { eq } from 'drizzle-orm';
import { beforeAll, beforeEach, describe, expect, it } from 'vitest';
import {
  checkoutDetails,
  donations,
  giftAidDeclarations,
  marketingConsents,
  outbox,
  rateLimits,
  users,
} from '../../../db/schema';
import { MARKETING_CONSENT_WORDING } from '../../../domain';
import { createAppeal, createCampaign, signedIn } from '../../../tests/factories';
import { bodyOf, engineName, errorOf, type JsonOf, setupTestApp, type TestApp, type TestClient } from '#test-app';

let t: TestApp;
beforeAll(async () => {
  t = await setupTestApp();
});
// Every checkout here is anonymous; the site-wide check threshold has its own test.
beforeEach(async () => {
  await t.db.delete(rateLimits).where(eq(rateLimits.key, 'challenge:checkout-anonymous'));
});

const STRANGER = {
  title: 'Mr',
  first_name: 'Mallory',
  last_name: 'Stranger',
  house: '99',
  address: 'Fake Street, Leeds',
  postcode: 'LS1 4AP',
};
const unique = (name: string) => `${name}.${crypto.randomUUID().slice(0, 8)}@example.org`;

type CheckoutBody = JsonOf<TestClient['api']['stripe']['client_secret']['$post']>;

async function start(json: Partial<CheckoutBody>, token?: string) {
  const campaign = await createCampaign(t.db);
  const appeal = await createAppeal(t.db, campaign.id);
  const res = await t.client(token).api.stripe.client_secret.$post({
    json: { amount: 1500, campaign_id: campaign.id, appeal_id: appeal.id, ...json },
  });
  return { res, campaign, appeal };
}
/** Starts a checkout that must be accepted, and answers its client secret with the rest. */
async function started(json: Partial<CheckoutBody>, token?: string) {
  const begun = await start(json, token);
  return { ...begun, body: await bodyOf(begun.res, 200) };
}
const confirm = (clientSecret: string) => t.client().api.stripe.demo.confirm.$post({ json: { clientSecret } });
const consentOf = async (token: string) => bodyOf(await t.client(token).api.me.consent.$get(), 200);
const giftAidOf = async (token: string) => bodyOf(await t.client(token).api['gift-aid'].me.$get(), 200);
const messagesOf = async (appealId: string) =>
  bodyOf(await t.client().api.appeals[':id'].messages.$get({ param: { id: appealId } }), 200);

describe(`a guest checkout with someone else's email (${engineName})`, () => {
  it('changes nothing on their account before payment; once paid, keeps the declaration with its gift and never switches on their consent', async () => {
    const victim = await signedIn(t.db, 'org_admin', {
      overrides: { email: unique('orgadmin'), firstName: 'Olive', lastName: 'Admin' },
    });
    expect(await consentOf(victim.token)).toMatchObject({ consented: false });
    expect((await giftAidOf(victim.token)).declarations).toEqual([]);

    const { res, body } = await started({
      email: victim.user.email,
      giftAid: true,
      gift_aid: STRANGER,
      marketing_consent: true,
      consent_wording: MARKETING_CONSENT_WORDING,
    });
    expect(res.status).toBe(200);

    // Before payment: the account is untouched.
    expect(await consentOf(victim.token)).toMatchObject({ consented: false });
    expect(await giftAidOf(victim.token)).toEqual({ active: false, declarations: [] });
    expect(await t.db.select().from(marketingConsents).where(eq(marketingConsents.userId, victim.user.id))).toEqual([]);

    // Cancelling or changing their own Gift Aid does not reach the stranger's pending declaration.
    expect((await t.client(victim.token).api['gift-aid'].me.cancel.$post()).status).toBeLessThan(500);

    expect((await confirm(body.clientSecret)).status).toBe(200);
    const [gift] = await t.db.select().from(donations).where(eq(donations.donorId, victim.user.id));
    expect(gift).toMatchObject({ status: 'succeeded', giftAid: true });
    // The stranger's declaration covers the gift it was made with, and stays held with it: it never
    // becomes the account's, which the office and claims would find for the owner's other gifts (decision 077).
    expect(gift.giftAidDeclarationId).toEqual(expect.any(String));
    const [held] = await t.db
      .select()
      .from(giftAidDeclarations)
      .where(eq(giftAidDeclarations.id, gift.giftAidDeclarationId!));
    expect(held).toMatchObject({ firstName: 'Mallory', lastName: 'Stranger', pendingDonationId: gift.id });
    expect(await giftAidOf(victim.token)).toEqual({ active: false, declarations: [] });
    // The account's owner saying no to Gift Aid reaches it too: no renewal is claimed under it.
    expect((await t.client(victim.token).api['gift-aid'].me.cancel.$post()).status).toBe(200);
    const [cancelled] = await t.db.select().from(giftAidDeclarations).where(eq(giftAidDeclarations.id, held.id));
    expect(cancelled.cancelledAt).not.toBeNull();
    // The consent stays with that gift only; the existing account's consent is not switched on, nor its name.
    expect(await consentOf(victim.token)).toMatchObject({ consented: false });
    expect(await t.db.select().from(checkoutDetails).where(eq(checkoutDetails.donationId, gift.id))).toMatchObject([
      { marketingConsent: true, consentToAccount: false },
    ]);
    const [account] = await t.db.select().from(users).where(eq(users.id, victim.user.id));
    expect(account).toMatchObject({ firstName: 'Olive', lastName: 'Admin' });
  });

  it('never names an existing account that has no name: a guest typed its email (decision 077)', async () => {
    const nameless = await signedIn(t.db, 'donor', {
      overrides: { email: unique('nameless'), firstName: '', lastName: '' },
    });
    const { body } = await started({
      email: nameless.user.email,
      first_name: 'Mallory',
      last_name: 'Stranger',
      giftAid: true,
      gift_aid: STRANGER,
    });
    expect((await confirm(body.clientSecret)).status).toBe(200);
    const [account] = await t.db.select().from(users).where(eq(users.id, nameless.user.id));
    // Neither the name typed nor the Gift Aid declaration's name and address fill it.
    expect(account).toMatchObject({ firstName: '', lastName: '' });
    expect(account.address ?? '').toBe('');
    expect(account.postalCode ?? '').toBe('');
  });

  it('a new donor: consent, name and declaration become theirs when the gift is paid, not before', async () => {
    const email = unique('newdonor');
    const { res, body } = await started({
      email,
      giftAid: true,
      gift_aid: { ...STRANGER, first_name: 'Nora', last_name: 'New' },
      marketing_consent: true,
      consent_wording: MARKETING_CONSENT_WORDING,
    });
    expect(res.status).toBe(200);
    const [before] = await t.db.select().from(users).where(eq(users.email, email));
    expect(before).toMatchObject({ firstName: '', lastName: '' });
    expect(await t.db.select().from(marketingConsents).where(eq(marketingConsents.userId, before.id))).toEqual([]);
    await confirm(body.clientSecret);
    const [after] = await t.db.select().from(users).where(eq(users.email, email));
    // The Gift Aid name names the account when no "Your name" was typed.
    expect(after).toMatchObject({ firstName: 'Nora', lastName: 'New' });
    expect(await t.db.select().from(marketingConsents).where(eq(marketingConsents.userId, after.id))).toMatchObject([
      { source: 'donation_box', wording: MARKETING_CONSENT_WORDING, email, withdrawnAt: null },
    ]);
  });

  it("a signed-in donor's own checkout records their consent when paid", async () => {
    const me = await signedIn(t.db, 'donor');
    const { body } = await started({ marketing_consent: true }, me.token);
    expect(await consentOf(me.token)).toMatchObject({ consented: false });
    await confirm(body.clientSecret);
    expect(await consentOf(me.token)).toMatchObject({ consented: true });
  });
});

describe(`a guest's name in the donation box (${engineName})`, () => {
  it('shows on the message, greets the receipt, and names a new account', async () => {
    const email = unique('named');
    const { res, body, appeal } = await started({
      email,
      first_name: ' Priya ',
      last_name: 'Shah',
      message: 'Good luck!',
    });
    expect(res.status).toBe(200);
    await confirm(body.clientSecret);
    const messages = await messagesOf(appeal.id);
    expect(messages).toMatchObject([{ name: 'Priya S.', message: 'Good luck!' }]);
    const [receipt] = await t.db.select().from(outbox).where(eq(outbox.to, email));
    expect(receipt.text).toMatch(/^Dear Priya,/);
    const [account] = await t.db.select().from(users).where(eq(users.email, email));
    expect(account).toMatchObject({ firstName: 'Priya', lastName: 'Shah' });
  });

  it('anonymous still hides it; an existing account keeps its own name but the message uses the one typed', async () => {
    const existing = await signedIn(t.db, 'donor', {
      overrides: { email: unique('existing'), firstName: 'Sam', lastName: 'Old' },
    });
    const hidden = await started({
      email: unique('anon'),
      first_name: 'Hidden',
      last_name: 'Person',
      message: 'Quietly',
      anonymous: true,
    });
    await confirm(hidden.body.clientSecret);
    expect(await messagesOf(hidden.appeal.id)).toMatchObject([{ name: 'Anonymous' }]);

    const typed = await started({
      email: existing.user.email,
      first_name: 'Samuel',
      last_name: 'Older',
      message: 'Hi',
    });
    await confirm(typed.body.clientSecret);
    expect(await messagesOf(typed.appeal.id)).toMatchObject([{ name: 'Samuel O.' }]);
    const [account] = await t.db.select().from(users).where(eq(users.id, existing.user.id));
    expect(account).toMatchObject({ firstName: 'Sam', lastName: 'Old' });
  });

  it('refuses names with markup, with a message that names the field once', async () => {
    const { res } = await start({ email: unique('markup'), first_name: '<b>Eve</b>', last_name: 'Smith' });
    expect((await errorOf(res, 400)).message).toBe('first_name: a name cannot contain < or > (or control characters)');
    const long = await start({ email: unique('long'), first_name: 'A'.repeat(101) });
    expect((await errorOf(long.res, 400)).message).toBe('first_name: Use at most 100 characters');
  });
});
