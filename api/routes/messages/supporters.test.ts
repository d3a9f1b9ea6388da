import { eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { campaigns, donations } from '../../../db/schema';
import {
  createAppeal,
  createCampaign,
  createDonation,
  createOrganization,
  createUser,
  signedIn,
} from '../../../tests/factories';
import { bodyOf, engineName, errorOf, setupTestApp, type TestApp } from '#test-app';

describe(`an appeal's supporters, for its fundraiser (decision 075, ${engineName})`, () => {
  let t: TestApp;
  let campaignId: string;
  let appealId: string;
  let fundraiser: string;
  let orgAdmin: string;
  let otherOrgAdmin: string;
  let otherDonor: string;
  const gifts: Record<string, string> = {};
  const typedNames: Record<string, [string, string]> = {};

  /** A card gift through the demo payment path, as a visitor gives; its donation id. */
  const give = async (
    email: string,
    amount: number,
    extra: { message?: string; anonymous?: boolean; hide_amount?: boolean } = {},
  ) => {
    const stripe = t.client().api.stripe;
    // A guest gift to an existing account: the name shown is the one typed in the box (decision 077).
    const [first_name, last_name] = typedNames[email] ?? [];
    const { clientSecret } = await bodyOf(
      await stripe.client_secret.$post({
        json: { email, amount, campaign_id: campaignId, appeal_id: appealId, first_name, last_name, ...extra },
      }),
      200,
    );
    expect((await stripe.demo.confirm.$post({ json: { clientSecret } })).status).toBe(200);
    const [gift] = await t.db.select({ id: donations.id }).from(donations).where(eq(donations.amount, amount)).limit(1);
    return gift.id;
  };
  const supporters = (token: string | undefined, query: { limit?: string; offset?: string } = {}) =>
    t.client(token).api.appeals[':id'].supporters.$get({ param: { id: appealId }, query });

  beforeAll(async () => {
    t = await setupTestApp();
    const org = await createOrganization(t.db);
    const otherOrg = await createOrganization(t.db);
    const fay = await signedIn(t.db, 'donor', { overrides: { firstName: 'Fay', lastName: 'Runner' } });
    fundraiser = fay.token;
    campaignId = (await createCampaign(t.db, { organizationId: org.id })).id;
    appealId = (await createAppeal(t.db, campaignId, { organizationId: org.id, createdBy: fay.user.id })).id;
    orgAdmin = (await signedIn(t.db, 'org_admin', { organizationIds: [org.id] })).token;
    otherOrgAdmin = (await signedIn(t.db, 'org_admin', { organizationIds: [otherOrg.id] })).token;
    otherDonor = (await signedIn(t.db, 'donor')).token;
    for (const [first, last] of [
      ['Amira', 'Khan'],
      ['Ben', 'Jones'],
      ['Cara', 'Lee'],
      ['Dev', 'Shah'],
      ['Eve', 'Moss'],
    ]) {
      const email = `${first.toLowerCase()}@supporters.example`;
      await createUser(t.db, { firstName: first, lastName: last, email });
      typedNames[email] = [first, last];
    }

    gifts.amira = await give('amira@supporters.example', 2_501, { message: 'Go Fay!' });
    gifts.ben = await give('ben@supporters.example', 7_002, { message: 'Proud of you', anonymous: true });
    gifts.cara = await give('cara@supporters.example', 1_003, { hide_amount: true });
    gifts.dev = await give('dev@supporters.example', 4_004, { message: 'Something the charity hid' });
    gifts.eve = await give('eve@supporters.example', 3_005);
    // The charity hides Dev's message; Eve's gift is refunded in full, Amira's in part; Cara's is monthly.
    expect(
      (await t.client(orgAdmin).api.messages[':id'].$put({ param: { id: gifts.dev }, json: { hidden: true } })).status,
    ).toBe(200);
    await t.db.update(donations).set({ status: 'refunded', refundedAmount: 3_005 }).where(eq(donations.id, gifts.eve));
    await t.db.update(donations).set({ refundedAmount: 501 }).where(eq(donations.id, gifts.amira));
    await t.db.update(donations).set({ subscriptionId: 'sub_supporters' }).where(eq(donations.id, gifts.cara));
    // Newest first is by the gift's date: spread them a minute apart in the order given.
    const order = ['amira', 'ben', 'cara', 'dev', 'eve'];
    for (const [i, name] of order.entries())
      await t.db
        .update(donations)
        .set({ date: new Date(Date.UTC(2026, 10, 1, 12, i)) })
        .where(eq(donations.id, gifts[name]));
  });

  it('shows the fundraiser every paid gift, newest first, as the public page shows its donor', async () => {
    const res = await supporters(fundraiser);
    const body = await bodyOf(res, 200);
    expect(res.headers.get('x-total-count')).toBe('4');
    expect(body.map(({ name, amount, message, monthly }) => ({ name, amount, message, monthly }))).toEqual([
      // Dev's message was hidden by the charity: the gift stays, the words do not.
      { name: 'Dev S.', amount: 4_004, message: null, monthly: false },
      { name: 'Cara L.', amount: null, message: null, monthly: true },
      { name: 'Anonymous', amount: 7_002, message: 'Proud of you', monthly: false },
      // Net of the part refunded; Eve's gift, refunded in full, is not listed.
      { name: 'Amira K.', amount: 2_000, message: 'Go Fay!', monthly: false },
    ]);
    expect(body[0].date).toBe('2026-11-01T12:03:00.000Z');
    // Never an email, a surname or a Gift Aid choice.
    const text = JSON.stringify(body);
    expect(text).not.toMatch(/@|Khan|Jones|gift_aid/);
  });

  it('pages with limit and offset, the total in X-Total-Count', async () => {
    const first = await supporters(fundraiser, { limit: '3' });
    expect((await bodyOf(first, 200)).map((s) => s.name)).toEqual(['Dev S.', 'Cara L.', 'Anonymous']);
    const second = await supporters(fundraiser, { limit: '3', offset: '3' });
    expect((await bodyOf(second, 200)).map((s) => s.name)).toEqual(['Amira K.']);
    expect(second.headers.get('x-total-count')).toBe('4');
    for (const query of [{ limit: '0' }, { limit: '101' }, { offset: '-1' }, { limit: 'ten' }])
      expect((await errorOf(await supporters(fundraiser, query), 400)).message).toMatch(/limit|offset/);
  });

  it('shows staff who may edit the appeal, and to anyone else the appeal does not exist', async () => {
    expect(await bodyOf(await supporters(orgAdmin), 200)).toHaveLength(4);
    expect(await bodyOf(await supporters((await signedIn(t.db, 'admin')).token), 200)).toHaveLength(4);
    await errorOf(await supporters(otherOrgAdmin), 404);
    await errorOf(await supporters(otherDonor), 404);
    await errorOf(await supporters(undefined), 401);
    // A campaign, an unknown id and a malformed one: not an appeal.
    const asked = (id: string) => t.client(fundraiser).api.appeals[':id'].supporters.$get({ param: { id }, query: {} });
    await errorOf(await asked(campaignId), 404);
    await errorOf(await asked(crypto.randomUUID()), 404);
    await errorOf(await asked('not-an-id'), 404);
  });

  it('tells its fundraiser why once the appeal is deleted', async () => {
    const [fay] = await t.db
      .select({ createdBy: campaigns.createdBy })
      .from(campaigns)
      .where(eq(campaigns.id, appealId));
    const deleted = await createAppeal(t.db, campaignId, { createdBy: fay.createdBy, status: 'deleted' });
    const res = await t.client(fundraiser).api.appeals[':id'].supporters.$get({ param: { id: deleted.id }, query: {} });
    expect((await errorOf(res, 403)).message).toBe('This appeal was deleted: its supporters are no longer shown');
  });

  it('keeps gifts made in the same second in the order they were made, newest first', async () => {
    const same = new Date(Date.UTC(2026, 10, 2, 9, 0, 0));
    await t.db.update(donations).set({ date: same }).where(eq(donations.id, gifts.amira));
    await t.db.update(donations).set({ date: same }).where(eq(donations.id, gifts.ben));
    const names = (await bodyOf(await supporters(fundraiser, { limit: '2' }), 200)).map((s) => s.name);
    // Ben's gift was made after Amira's.
    expect(names).toEqual(['Anonymous', 'Amira K.']);
  });

  it('never shows a name or an amount on a renewal that its donor’s first gift hid', async () => {
    // A monthly gift's renewal carries no choices of its own (no message row): the donor's first
    // gift here does, as the page's Top Donors reads them.
    const [ben] = await t.db.select({ donorId: donations.donorId }).from(donations).where(eq(donations.id, gifts.ben));
    const [cara] = await t.db
      .select({ donorId: donations.donorId })
      .from(donations)
      .where(eq(donations.id, gifts.cara));
    const renewal = (donorId: string, amount: number, minute: number, subscriptionId = `sub_${amount}`) =>
      createDonation(t.db, {
        donorId,
        campaignId,
        appealId,
        amount,
        type: 'monthly',
        source: 'card',
        subscriptionId,
        date: new Date(Date.UTC(2026, 10, 20, 12, minute)),
      });
    await renewal(ben.donorId, 7_100, 1);
    // Cara's renewal shows the name she typed with its first payment.
    await renewal(cara.donorId, 1_100, 2, 'sub_supporters');
    const [caraRenewal, benRenewal] = await bodyOf(await supporters(fundraiser, { limit: '2' }), 200);
    expect(benRenewal).toMatchObject({ name: 'Anonymous', amount: 7_100, message: null, monthly: true });
    expect(caraRenewal).toMatchObject({ name: 'Cara L.', amount: null, monthly: true });
  });

  it('names a donor the office entered only once they gave here in their own checkout (decision 077)', async () => {
    // Gil gives through the box signed in; Dev gave only as a guest (his name typed, not his account's).
    const gil = await signedIn(t.db, 'donor', { overrides: { firstName: 'Gil', lastName: 'Hart' } });
    const { clientSecret } = await bodyOf(
      await t.client(gil.token).api.stripe.client_secret.$post({
        json: { email: gil.user.email, amount: 1_234, campaign_id: campaignId, appeal_id: appealId },
      }),
      200,
    );
    expect((await t.client(gil.token).api.stripe.demo.confirm.$post({ json: { clientSecret } })).status).toBe(200);
    const [dev] = await t.db.select({ donorId: donations.donorId }).from(donations).where(eq(donations.id, gifts.dev));
    const office = (donorId: string, amount: number, minute: number) =>
      createDonation(t.db, {
        donorId,
        campaignId,
        appealId,
        amount,
        source: 'batch',
        method: 'cheque',
        date: new Date(Date.UTC(2026, 10, 25, 12, minute)),
      });
    await office(gil.user.id, 6_000, 1);
    await office(dev.donorId, 500, 2);
    const listed = await bodyOf(await supporters(fundraiser, { limit: '100' }), 200);
    const [devCheque, gilCheque] = [500, 6_000].map((amount) => listed.find((s) => s.amount === amount));
    expect(gilCheque).toMatchObject({ name: 'Gil H.', amount: 6_000, message: null });
    // The office never asked Dev, and his account's name was never his choice here.
    expect(devCheque).toMatchObject({ name: 'Anonymous', amount: 500 });
    const top = await bodyOf(await t.client().api.donations.top.$get({ query: { appeal_id: appealId } }), 200);
    expect(top.find((d) => d.total === 7_234)).toMatchObject({ donor: 'Gil H.', count: 2 });
    expect(JSON.stringify(top)).not.toMatch(/Dev S\./);
  });

  it('never shows the account name behind an email a guest typed (decision 077)', async () => {
    // Anyone may type an existing donor's email into the box: the gift shows the name typed with
    // it, or none, never the account's.
    // Victoria gives once herself, signed in: she is named on Top Donors. Then guests type her email.
    const victoria = await signedIn(t.db, 'donor', {
      overrides: { firstName: 'Victoria', lastName: 'Stone', email: 'victoria@supporters.example' },
    });
    const own = await bodyOf(
      await t.client(victoria.token).api.stripe.client_secret.$post({
        json: { email: victoria.user.email, amount: 3_000, campaign_id: campaignId, appeal_id: appealId },
      }),
      200,
    );
    expect((await t.client().api.stripe.demo.confirm.$post({ json: { clientSecret: own.clientSecret } })).status).toBe(
      200,
    );
    const stripe = t.client().api.stripe;
    for (const [amount, named] of [
      [1_111, {}],
      [2_222, { first_name: 'Someone', last_name: 'Else' }],
    ] as const) {
      const { clientSecret } = await bodyOf(
        await stripe.client_secret.$post({
          json: {
            email: 'victoria@supporters.example',
            amount,
            campaign_id: campaignId,
            appeal_id: appealId,
            ...named,
          },
        }),
        200,
      );
      expect((await stripe.demo.confirm.$post({ json: { clientSecret } })).status).toBe(200);
    }
    const listed = await bodyOf(await supporters(fundraiser, { limit: '100' }), 200);
    expect(listed.find((s) => s.amount === 3_000)?.name).toBe('Victoria S.');
    // Her own name never goes on a gift someone else may have made with her email.
    expect(listed.find((s) => s.amount === 1_111)?.name).toBe('Anonymous');
    expect(listed.find((s) => s.amount === 2_222)?.name).toBe('Someone E.');
    const top = await bodyOf(await t.client().api.donations.top.$get({ query: { appeal_id: appealId } }), 200);
    expect(top.find((d) => d.total === 6_333)).toMatchObject({ donor: 'Victoria S.', count: 3 });
  });

  it('a guest who gives without signing in is not named by their account (decision 077)', async () => {
    await createUser(t.db, { firstName: 'Wendy', lastName: 'Lowe', email: 'wendy@supporters.example' });
    const { clientSecret } = await bodyOf(
      await t.client().api.stripe.client_secret.$post({
        json: { email: 'wendy@supporters.example', amount: 4_321, campaign_id: campaignId, appeal_id: appealId },
      }),
      200,
    );
    expect((await t.client().api.stripe.demo.confirm.$post({ json: { clientSecret } })).status).toBe(200);
    const listed = await bodyOf(await supporters(fundraiser, { limit: '100' }), 200);
    expect(listed.find((s) => s.amount === 4_321)?.name).toBe('Anonymous');
    const top = await bodyOf(await t.client().api.donations.top.$get({ query: { appeal_id: appealId } }), 200);
    expect(JSON.stringify(top)).not.toMatch(/Wendy/);
  });
});
