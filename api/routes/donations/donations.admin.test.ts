import { eq, inArray } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { toShortId } from '../../../domain/ids';
import { donations } from '../../../db/schema';
import {
  type AppealRow,
  type CampaignRow,
  createAppeal,
  createCharity,
  createDonation,
  createGiftAidDeclaration,
  createUser,
  type DonationRow,
  signedIn,
  type UserRow,
} from '../../../tests/factories';
import { bodyOf, engineName, errorOf, type JsonOf, setupTestApp, type TestApp, type TestClient } from '#test-app';

type Api = TestClient['api'];
/** A gift entered by hand, as POST /api/donations types it. */
type ManualGift = JsonOf<Api['donations']['$post']>;

const day = (n: number) => new Date(Date.UTC(2025, 0, n, 12));

describe(`donations admin API (${engineName})`, () => {
  let t: TestApp;
  let campaignA: CampaignRow;
  let appealA: AppealRow;
  let appealA2: AppealRow;
  let campaignB: CampaignRow;
  let appealB: AppealRow;
  let donor: UserRow;
  let stranger: UserRow;
  let giftA: DonationRow;
  let giftB: DonationRow;
  let cardGift: DonationRow;
  let adminToken: string;
  let orgAdminToken: string;
  let donorToken: string;

  beforeAll(async () => {
    t = await setupTestApp();
    const a = await createCharity(t.db, { campaign: { title: 'Wells A' }, appeal: { title: 'Appeal A' } });
    ({ campaign: campaignA, appeal: appealA } = a);
    appealA2 = await createAppeal(t.db, campaignA.id, { title: 'Appeal A2', organizationId: a.org.id });
    ({ campaign: campaignB, appeal: appealB } = await createCharity(t.db, {
      campaign: { title: 'Homes B' },
      appeal: { title: 'Appeal B' },
    }));
    adminToken = (await signedIn(t.db, 'admin')).token;
    orgAdminToken = (await signedIn(t.db, 'org_admin', { organizationIds: [a.org.id] })).token;
    ({ user: donor, token: donorToken } = await signedIn(t.db, 'donor', {
      overrides: { firstName: 'Priya', lastName: 'Patel' },
    }));
    stranger = await createUser(t.db, { firstName: 'Other', lastName: 'Giver' });
    giftA = await giftToAppealA({ amount: 2_500, date: day(3) });
    giftB = await createDonation(t.db, { donorId: stranger.id, campaignId: campaignB.id, amount: 4_000, date: day(4) });
    cardGift = await createDonation(t.db, {
      donorId: donor.id,
      campaignId: campaignB.id,
      appealId: appealB.id,
      amount: 1_000,
      date: day(5),
      source: 'card',
      paymentIntentId: `pi_${Date.now()}`,
      giftAid: true,
    });
    await createDonation(t.db, {
      donorId: donor.id,
      campaignId: campaignA.id,
      amount: 9_999,
      date: day(6),
      status: 'pending',
      source: 'card',
    });
  });

  /** GET /api/donations with `query`, by `token`'s caller (none: anonymous). */
  const list = (query: Parameters<Api['donations']['$get']>[0]['query'], token?: string) =>
    t.client(token).api.donations.$get({ query });
  /** GET /api/donations/:id, by `token`'s caller (none: anonymous). */
  const one = (id: string, token?: string) => t.client(token).api.donations[':id'].$get({ param: { id } });
  /** Raw: paths and queries as a caller types them (bad limits, made-up ids), which is what those loops check. */
  const getRaw = (path: string, token?: string) => t.request(path, { token });
  const count = async () => (await t.db.select().from(donations)).length;
  /** POST /api/donations: a gift entered by hand, by `token`'s caller (none: anonymous). */
  const record = (token: string | undefined, json: ManualGift) => t.client(token).api.donations.$post({ json });
  /** Raw: for bodies the schema refuses (wrong types, missing fields), which is what those tests check. */
  const recordRaw = (token: string | undefined, json: object) =>
    t.request('/api/donations', { method: 'POST', token, json });
  /** PUT /api/donations/:id: an edit of gift `id` by `token`'s caller (none: anonymous). */
  const edit = (token: string | undefined, id: string, json: JsonOf<Api['donations'][':id']['$put']>) =>
    t.client(token).api.donations[':id'].$put({ param: { id }, json });
  /** A stored gift from the donor to campaign A's first appeal. */
  const giftToAppealA = (fields: { amount: number; date?: Date }) =>
    createDonation(t.db, { donorId: donor.id, campaignId: campaignA.id, appealId: appealA.id, ...fields });
  /** A valid manual gift from the donor to campaign A's first appeal, with `changes` on top. */
  const manualGift = (changes: Partial<ManualGift> = {}): ManualGift => ({
    donor: donor.id,
    amount: 5_000,
    date: '2025-03-01',
    campaign: campaignA.id,
    appeal: appealA.id,
    ...changes,
  });

  it('lists every donation to an admin, newest first, with labels and X-Total-Count', async () => {
    const res = await list({}, adminToken);
    const body = await bodyOf(res, 200);
    expect(res.headers.get('x-total-count')).toBe(String(body.length));
    const dates = body.map((d) => d.date);
    expect([...dates].sort().reverse()).toEqual(dates);
    expect(body.find((d) => d._id === giftA.id)).toEqual({
      _id: giftA.id,
      amount: 2_500,
      refunded_amount: 0,
      date: day(3).toISOString(),
      status: 'succeeded',
      type: 'once',
      gift_aid: false,
      source: 'manual',
      // Recorded by hand with no method: the list does not claim it was a card.
      payment_method: null,
      bank_last4: null,
      subscription_id: null,
      donor: { label: 'Priya Patel', value: donor.id },
      campaign: { label: 'Wells A', value: campaignA.id },
      appeal: { label: 'Appeal A', value: appealA.id },
    });
    expect(body.find((d) => d._id === giftB.id)).toMatchObject({ appeal: null });
  });

  it('pages with limit (max 100) and offset', async () => {
    const all = await bodyOf(await list({}, adminToken), 200);
    const page = await list({ limit: '1', offset: '1' }, adminToken);
    expect((await bodyOf(page, 200)).map((d) => d._id)).toEqual([all[1]._id]);
    expect(page.headers.get('x-total-count')).toBe(String(all.length));
    for (const q of ['limit=101', 'limit=0', 'offset=-1', 'limit=abc']) {
      await errorOf(await getRaw(`/api/donations?${q}`, adminToken), 400);
    }
  });

  it('sums the whole filtered list for staff, paid gifts only, whatever the page', async () => {
    const c = await createCharity(t.db, { campaign: { title: 'Sums C' } });
    const give = (fields: Record<string, unknown>) =>
      createDonation(t.db, { donorId: stranger.id, campaignId: c.campaign.id, date: day(7), ...fields });
    await give({ amount: 3_000, refundedAmount: 500 });
    await give({ amount: 2_000, refundedAmount: 2_000, status: 'refunded' });
    await give({ amount: 7_000, status: 'failed' });
    await give({ amount: 1_000, status: 'pending', source: 'card' });
    const res = await list({ campaign_id: c.campaign.id, limit: '1' }, adminToken);
    expect(await bodyOf(res, 200)).toHaveLength(1);
    expect(res.headers.get('x-total-count')).toBe('4');
    expect(res.headers.get('x-paid-count')).toBe('2');
    expect(res.headers.get('x-received-pence')).toBe('5000');
    expect(res.headers.get('x-refunded-pence')).toBe('2500');
    // Another charity's org admin sees none of it, and sums nothing.
    const scoped = await list({ campaign_id: c.campaign.id }, orgAdminToken);
    expect(await bodyOf(scoped, 200)).toEqual([]);
    expect(scoped.headers.get('x-received-pence')).toBe('0');
    // A donor's own list carries no staff sums.
    const mine = await list({ type: 'me' }, donorToken);
    expect(mine.headers.get('x-received-pence')).toBeNull();
  });

  it("scopes an org_admin to its organizations' campaigns", async () => {
    const body = await bodyOf(await list({ limit: '100' }, orgAdminToken), 200);
    expect(body.length).toBeGreaterThan(0);
    expect(body.every((d) => 'campaign' in d && d.campaign.value === campaignA.id)).toBe(true);
    expect((await one(giftA.id, orgAdminToken)).status).toBe(200);
    const hidden = await one(giftB.id, orgAdminToken);
    expect(hidden.status).toBe(404);
    expect(await hidden.json()).toEqual({ statusCode: 404, message: 'Donation Not Found' });
  });

  it('refuses the admin list to anonymous callers (401) and donors (403)', async () => {
    expect((await list({})).status).toBe(401);
    const res = await list({}, donorToken);
    expect((await errorOf(res, 403)).message).toMatch(/type=me/);
  });

  it('gives type=me the signed-in user’s own gifts only, without abandoned checkouts', async () => {
    expect((await list({ type: 'me' })).status).toBe(401);
    const res = await list({ type: 'me' }, donorToken);
    const body = await bodyOf(res, 200);
    expect(body.map((d) => d._id)).toEqual([cardGift.id, giftA.id]);
    expect(res.headers.get('x-total-count')).toBe('2');
    expect(body[0]).toMatchObject({ source: 'card', gift_aid: true, campaign: { label: 'Homes B' } });
  });

  it('lets a donor read their own donation but nobody else’s', async () => {
    expect((await bodyOf(await one(toShortId(giftA.id), donorToken), 200))._id).toBe(giftA.id);
    expect((await one(giftB.id, donorToken)).status).toBe(404);
    expect((await one(giftA.id)).status).toBe(401);
    for (const id of ['x', '00000000-0000-0000-0000-000000000000', '%27%20or%201%3D1']) {
      expect((await getRaw(`/api/donations/${id}`, adminToken)).status).toBe(404);
    }
  });

  it('records a manual gift for an admin, accepting select options and short ids', async () => {
    // Raw: select options with their labels, and a status and source the API ignores, are what this checks.
    const res = await recordRaw(adminToken, {
      donor: { label: 'Other Giver', value: stranger.id },
      amount: 12_345,
      date: '2025-02-14',
      campaign: toShortId(campaignB.id),
      appeal: { label: 'Appeal B', value: appealB.id },
      status: 'refunded',
      source: 'card',
    });
    expect(res.status).toBe(201);
    const body = await res.json<{ _id: string }>();
    expect(body).toMatchObject({
      amount: 12_345,
      date: '2025-02-14T00:00:00.000Z',
      status: 'succeeded',
      source: 'manual',
      type: 'once',
      donor: { value: stranger.id },
      campaign: { value: campaignB.id },
      appeal: { value: appealB.id },
    });
    const [row] = await t.db.select().from(donations).where(eq(donations.id, body._id));
    expect(row).toMatchObject({ amount: 12_345, source: 'manual', status: 'succeeded' });
  });

  it('lets an org_admin record gifts only for its own campaigns and donors', async () => {
    const ok = await record(orgAdminToken, manualGift({ appeal: appealA2.id }));
    expect(ok.status).toBe(201);
    const before = await count();
    const otherCampaign = await record(orgAdminToken, manualGift({ campaign: campaignB.id, appeal: appealB.id }));
    expect((await errorOf(otherCampaign, 400)).message).toMatch(/^campaign: /);
    const otherDonor = await record(orgAdminToken, manualGift({ donor: stranger.id }));
    expect((await errorOf(otherDonor, 400)).message).toBe('donor: No donor with this id');
    expect(await count()).toBe(before);
  });

  it('refuses manual gifts from anonymous callers and donors', async () => {
    const json = manualGift();
    const before = await count();
    expect((await record(undefined, json)).status).toBe(401);
    expect((await record(donorToken, json)).status).toBe(403);
    expect(await count()).toBe(before);
  });

  it.each([
    [{ amount: 99 }, /amount: Enter a whole number of pence from 100 to 2500000/],
    [{ amount: 2_500_001 }, /amount: Enter a whole number of pence/],
    [{ amount: 12.5 }, /amount: Enter the amount in pence as a whole number/],
    [{ amount: '5000' }, /amount: Enter the amount in pence/],
    [{ date: 'yesterday' }, /date: Enter a date like/],
    [{ date: '2999-01-01' }, /date: Enter a date between 2000-01-01 and today/],
    [{ appeal: undefined }, /appeal: Choose an appeal/],
    [{ donor: null }, /donor: Choose a donor/],
    [{ campaign: '' }, /campaign: Choose a campaign/],
    [{ donor: '00000000-0000-0000-0000-000000000000' }, /donor: No donor with this id/],
    [{ campaign: 'appeal' }, /campaign: No campaign/],
  ])('rejects an invalid manual gift %j with a 400 and stores nothing', async (override, message) => {
    const json: Record<string, unknown> = { ...manualGift(), ...override };
    if (json.campaign === 'appeal') json.campaign = appealA.id;
    const before = await count();
    const res = await recordRaw(adminToken, json);
    expect((await errorOf(res, 400)).message).toMatch(message);
    expect(await count()).toBe(before);
  });

  it('rejects an appeal that belongs to another campaign', async () => {
    const before = await count();
    const res = await record(adminToken, manualGift({ appeal: appealB.id }));
    expect(res.status).toBe(400);
    expect(await res.json()).toEqual({ statusCode: 400, message: 'appeal: Choose an appeal of the selected campaign' });
    expect(await count()).toBe(before);
  });

  it('edits a manual gift: amount, date, campaign and appeal', async () => {
    const gift = await giftToAppealA({ amount: 1_500, date: day(7) });
    const res = await edit(adminToken, gift.id, {
      amount: 1_750,
      date: '2025-01-08',
      campaign: { value: campaignB.id },
      appeal: { value: appealB.id },
      donor: { value: donor.id },
    });
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({
      amount: 1_750,
      date: '2025-01-08T00:00:00.000Z',
      campaign: { value: campaignB.id },
      appeal: { value: appealB.id },
    });

    // Moving to another campaign without a matching appeal is refused.
    const stale = await edit(adminToken, gift.id, { campaign: campaignA.id });
    expect(stale.status).toBe(400);
    const [row] = await t.db.select().from(donations).where(eq(donations.id, gift.id));
    expect(row).toMatchObject({ amount: 1_750, campaignId: campaignB.id, appealId: appealB.id });
  });

  it('refuses to edit a manual gift money already went back off, and leaves it and the totals as they were', async () => {
    const gift = await giftToAppealA({ amount: 5_000, date: day(8) });
    const reversed = await t.client(adminToken).api.donations[':id'].refund.$post({
      param: { id: gift.id },
      json: { amount: 3_000, reason: 'returned_to_donor' },
      header: {},
    });
    expect(reversed.status).toBe(201);
    for (const change of [{ amount: 1_000 }, { date: '2025-01-20' }, { donor: { value: stranger.id } }]) {
      expect((await errorOf(await edit(adminToken, gift.id, change), 400)).message).toMatch(/already reversed/);
    }
    const [row] = await t.db.select().from(donations).where(eq(donations.id, gift.id));
    expect(row).toMatchObject({ amount: 5_000, refundedAmount: 3_000, donorId: donor.id });
  });

  it('takes the Gift Aid declaration off a gift moved to another donor or charity, so no claim uses someone else’s', async () => {
    const declaration = await createGiftAidDeclaration(t.db, {
      donorId: donor.id,
      fullName: 'Priya Patel',
      homeAddress: '1 Lane',
      declarationText: 'I want to Gift Aid',
      organizationId: campaignA.organizationId,
    });
    const toOther = await giftToAppealA({ amount: 2_000, date: day(9) });
    const toB = await giftToAppealA({ amount: 2_000, date: day(9) });
    const sameOrg = await giftToAppealA({ amount: 2_000, date: day(9) });
    for (const g of [toOther, toB, sameOrg])
      await t.db
        .update(donations)
        .set({ giftAid: true, giftAidDeclarationId: declaration.id })
        .where(eq(donations.id, g.id));
    expect((await edit(adminToken, toOther.id, { donor: { value: stranger.id } })).status).toBe(200);
    expect(
      (await edit(adminToken, toB.id, { campaign: { value: campaignB.id }, appeal: { value: appealB.id } })).status,
    ).toBe(200);
    expect((await edit(adminToken, sameOrg.id, { appeal: { value: appealA2.id } })).status).toBe(200);
    const rows = await t.db
      .select()
      .from(donations)
      .where(inArray(donations.id, [toOther.id, toB.id, sameOrg.id]));
    const byId = new Map(rows.map((r) => [r.id, r]));
    expect(byId.get(toOther.id)).toMatchObject({ donorId: stranger.id, giftAid: false, giftAidDeclarationId: null });
    expect(byId.get(toB.id)).toMatchObject({ campaignId: campaignB.id, giftAid: false, giftAidDeclarationId: null });
    // Within the same charity and donor, the declaration still holds.
    expect(byId.get(sameOrg.id)).toMatchObject({ giftAid: true, giftAidDeclarationId: declaration.id });
  });

  it('keeps card donations read-only, while accepting the form sent back unchanged', async () => {
    const changed = await edit(adminToken, cardGift.id, { amount: 1 });
    expect(changed.status).toBe(400);
    expect(await changed.json()).toEqual({ statusCode: 400, message: 'Card donations cannot be edited' });
    const moved = await edit(adminToken, cardGift.id, { campaign: campaignA.id });
    expect(moved.status).toBe(400);

    const current = await bodyOf(await one(cardGift.id, adminToken), 200);
    // The form sends the whole answer back, read-only fields and select labels included.
    const same = await edit(adminToken, cardGift.id, { ...current, date: current.date.slice(0, 10) });
    expect(same.status).toBe(200);
    const [row] = await t.db.select().from(donations).where(eq(donations.id, cardGift.id));
    expect(row).toMatchObject({ amount: 1_000, campaignId: campaignB.id, source: 'card' });
  });

  it('keeps a posted batch’s gift as banked: a correction is a reversal and a new line, never an edit', async () => {
    const gift = await createDonation(t.db, {
      donorId: stranger.id,
      campaignId: campaignA.id,
      amount: 2_500,
      date: day(9),
      source: 'batch',
      method: 'cheque',
    });
    for (const change of [
      { amount: 3_000 },
      { date: '2025-01-10' },
      { method: 'cash' as const },
      { donor: donor.id },
      { appeal: appealA2.id },
    ]) {
      expect((await errorOf(await edit(adminToken, gift.id, change), 400)).message).toBe(
        'A gift in a posted batch is corrected by reversing it and entering the right one in a new batch',
      );
    }
    // The form sent back unchanged is accepted, as for card gifts.
    const current = await bodyOf(await one(gift.id, adminToken), 200);
    expect((await edit(adminToken, gift.id, { ...current, date: current.date.slice(0, 10) })).status).toBe(200);
    const [row] = await t.db.select().from(donations).where(eq(donations.id, gift.id));
    expect(row).toMatchObject({ amount: 2_500, donorId: stranger.id, appealId: null, method: 'cheque', date: day(9) });
  });

  it('scopes edits: org_admins within their organizations, donors never', async () => {
    const gift = await giftToAppealA({ amount: 3_000 });
    const ok = await edit(orgAdminToken, gift.id, { amount: 3_100 });
    expect(ok.status).toBe(200);
    const away = await edit(orgAdminToken, gift.id, { campaign: campaignB.id, appeal: appealB.id });
    expect(away.status).toBe(400);
    expect((await edit(orgAdminToken, giftB.id, { amount: 100 })).status).toBe(404);
    const own = await edit(donorToken, gift.id, { amount: 100 });
    expect(own.status).toBe(403);
    expect((await edit(undefined, gift.id, { amount: 100 })).status).toBe(401);
    const [row] = await t.db.select().from(donations).where(eq(donations.id, gift.id));
    expect(row).toMatchObject({ amount: 3_100, campaignId: campaignA.id });
    const [other] = await t.db.select().from(donations).where(eq(donations.id, giftB.id));
    expect(other.amount).toBe(4_000);
  });
});
