import { eq } from 'drizzle-orm';
import { beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { londonDayFromToday, londonIsoDate } from '../../../domain';
import { formatLongUkDay } from '../../../domain/giving-ends';
import { toShortId } from '../../../domain/ids';
import { campaigns, rateLimits, templateCauses } from '../../../db/schema';
import {
  type CampaignRow,
  createAppeal,
  createCampaign,
  createDonation,
  createOrganization,
  type OrganizationRow,
  signedIn,
  type UserRow,
} from '../../../tests/factories';
import { testClient } from 'hono/testing';
import { bodyOf, engineName, errorOf, type JsonOf, setupTestApp, type TestApp, type TestClient } from '#test-app';

/** What creating a campaign or appeal takes, as the API's schema types it. */
type CampaignBody = JsonOf<TestClient['api']['campaigns']['$post']>;

const demoImage = (n = 1) => ({
  Key: `/images/demo/cause-${n}.png`,
  name: `cause-${n}.png`,
  size: 1234,
  type: 'image/png',
});
const PNG_1PX = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==';

describe(`campaign and appeal writes (${engineName})`, () => {
  let t: TestApp;
  let org: OrganizationRow;
  let otherOrg: OrganizationRow;
  let parent: CampaignRow;
  let oldest: CampaignRow;
  let donor: UserRow;
  let donorToken: string;
  let otherDonorToken: string;
  let orgAdminToken: string;
  let adminToken: string;

  const appealBody = (overrides: Partial<CampaignBody> = {}): CampaignBody => ({
    title: 'My 10k for clean water',
    description: 'Running 10k to fund a pump.',
    story: 'Line one\nLine two',
    video: 'https://www.youtube.com/watch?v=dQw4w9WgXcQ',
    date: { from: '2026-06-01', to: '2026-06-21' },
    goal: 50_000,
    images: [demoImage(1)],
    campaign_id: parent.id,
    ...overrides,
  });
  const campaignBody = (overrides: Partial<CampaignBody> = {}): CampaignBody => ({
    title: 'New wells for 2027',
    description: 'Ten more pumps.',
    goal: 2_000_000,
    images: [demoImage(2)],
    organization_id: org.id,
    ...overrides,
  });

  const post = (json: CampaignBody, token?: string) => t.client(token).api.campaigns.$post({ json });
  const put = (id: string, json: Partial<CampaignBody>, token?: string) =>
    t.client(token).api.campaigns[':id'].$put({ param: { id }, json });
  /** Raw: for bodies the schema refuses (wrong types, unknown values), which is what those tests check. */
  const postRaw = (json: unknown, token?: string) => t.request('/api/campaigns', { method: 'POST', json, token });
  const expectError = async (res: Parameters<typeof errorOf>[0], status: number, message: RegExp) => {
    expect((await errorOf(res, status)).message).toMatch(message);
  };

  beforeAll(async () => {
    t = await setupTestApp();
    org = await createOrganization(t.db, { name: 'Wells Org' });
    otherOrg = await createOrganization(t.db, { name: 'Other Org' });
    oldest = await createCampaign(t.db, {
      title: 'Oldest approved',
      organizationId: otherOrg.id,
      createdAt: new Date('2000-01-01'),
    });
    await createCampaign(t.db, { title: 'Older draft', status: 'draft', createdAt: new Date('1999-01-01') });
    parent = await createCampaign(t.db, { title: 'Parent campaign', organizationId: org.id });
    ({ user: donor, token: donorToken } = await signedIn(t.db, 'donor', {
      overrides: { firstName: 'Dana', lastName: 'Donor' },
    }));
    otherDonorToken = (await signedIn(t.db, 'donor')).token;
    orgAdminToken = (await signedIn(t.db, 'org_admin', { organizationIds: [org.id] })).token;
    adminToken = (await signedIn(t.db, 'admin')).token;
  });
  // The daily appeal and upload quotas have their own tests (campaigns.quotas.test.ts): each test here starts a new day.
  beforeEach(async () => {
    await t.db.delete(rateLimits);
  });

  describe('POST /api/campaigns', () => {
    it('requires sign-in', async () => {
      await expectError(await post(appealBody()), 401, /sign in/i);
    });

    it('lets a donor create an appeal under a campaign, approved and credited to them', async () => {
      const res = await post(appealBody({ status: 'draft' }), donorToken);
      const body = await bodyOf(res, 201);
      expect(body).toMatchObject({
        kind: 'appeal',
        title: 'My 10k for clean water',
        campaign_id: parent.id,
        organization_id: org.id,
        goal: 50_000,
        status: 'approved',
        created_by: { first_name: 'Dana', last_name: 'Donor' },
        date: { from: '2026-06-01', to: '2026-06-21' },
        video: 'https://www.youtube.com/watch?v=dQw4w9WgXcQ',
      });
      expect(body.images).toEqual([{ ...demoImage(1), url: '/images/demo/cause-1.png' }]);
      const fetched = await bodyOf(await t.client().api.appeals[':id'].$get({ param: { id: body.short_id } }), 200);
      expect(fetched._id).toBe(body._id);
    });

    it('accepts a short id for the parent campaign', async () => {
      const res = await post(appealBody({ campaign_id: toShortId(parent.id) }), donorToken);
      expect((await bodyOf(res, 201)).campaign_id).toBe(parent.id);
    });

    it('puts an appeal with no campaign under the oldest approved campaign, with a 20-day default date range', async () => {
      const res = await post(appealBody({ campaign_id: null, kind: 'appeal', date: undefined }), donorToken);
      const body = await bodyOf(res, 201);
      expect(body.campaign_id).toBe(oldest.id);
      const today = new Date().toISOString().slice(0, 10);
      const to = new Date(Date.now() + 20 * 86_400_000).toISOString().slice(0, 10);
      expect(body.date).toEqual({ from: today, to });
    });

    it('uses DEFAULT_CAMPAIGN_ID when it names an approved campaign', async () => {
      const client = testClient(t.app, { ...t.env, DEFAULT_CAMPAIGN_ID: toShortId(parent.id) }, undefined, {
        headers: { authorization: `Bearer ${donorToken}` },
      });
      const res = await client.api.campaigns.$post({ json: appealBody({ campaign_id: undefined, kind: 'appeal' }) });
      expect((await bodyOf(res, 201)).campaign_id).toBe(parent.id);
    });

    it('rejects an unknown parent campaign, an appeal as parent and a draft parent', async () => {
      const appeal = await createAppeal(t.db, parent.id);
      const draft = await createCampaign(t.db, { status: 'draft' });
      for (const campaign_id of [crypto.randomUUID(), appeal.id, 'not-an-id']) {
        await expectError(await post(appealBody({ campaign_id }), donorToken), 400, /campaign_id: no campaign/);
      }
      await expectError(await post(appealBody({ campaign_id: draft.id }), donorToken), 400, /not open for appeals/);
    });

    it('refuses a new appeal under a campaign that has ended, and a move to one; its admins may still file one', async () => {
      const yesterday = londonDayFromToday(-1);
      const ended = await createCampaign(t.db, { title: 'Summer Swim', organizationId: org.id, dateTo: yesterday });
      const lastDay = await createCampaign(t.db, {
        title: 'Ends today',
        organizationId: org.id,
        dateTo: londonIsoDate(new Date()),
      });
      const before = await t.db.$count(campaigns);
      const refused = `campaign_id: Summer Swim ended on ${formatLongUkDay(yesterday)} and takes no new appeals; choose another campaign`;
      // With its own dates or the default ones (which start today), and by short id too.
      for (const body of [
        appealBody({ campaign_id: ended.id }),
        appealBody({ campaign_id: toShortId(ended.id), date: undefined }),
      ]) {
        expect(await errorOf(await post(body, donorToken), 400)).toEqual({ statusCode: 400, message: refused });
      }
      expect(await t.db.$count(campaigns)).toBe(before);
      // Its last day still takes appeals (and gifts).
      expect(
        (await bodyOf(await post(appealBody({ campaign_id: lastDay.id, date: undefined }), donorToken), 201))
          .campaign_id,
      ).toBe(lastDay.id);
      // A draft appeal of the donor's may not move under it either; nothing about the appeal changes.
      const mine = await bodyOf(await post(appealBody(), donorToken), 201);
      expect(await errorOf(await put(mine._id, { campaign_id: ended.id }, donorToken), 400)).toEqual({
        statusCode: 400,
        message: refused,
      });
      const [stored] = await t.db
        .select({ campaignId: campaigns.campaignId })
        .from(campaigns)
        .where(eq(campaigns.id, mine._id));
      expect(stored.campaignId).toBe(parent.id);
      // The organization's admins keep a record of an event already held, as they may under a draft.
      expect((await bodyOf(await post(appealBody({ campaign_id: ended.id }), orgAdminToken), 201)).campaign_id).toBe(
        ended.id,
      );
      expect((await bodyOf(await post(appealBody({ campaign_id: ended.id }), adminToken), 201)).campaign_id).toBe(
        ended.id,
      );
    });

    it('forbids donors from creating campaigns', async () => {
      await expectError(await post(campaignBody(), donorToken), 403, /Only admins and organization admins/);
    });

    it('lets an organization admin create a campaign only for their own organization', async () => {
      const res = await post(campaignBody(), orgAdminToken);
      expect(res.status).toBe(201);
      expect(await res.json()).toMatchObject({
        kind: 'campaign',
        organization_id: org.id,
        campaign_id: null,
        status: 'approved',
      });
      await expectError(
        await post(campaignBody({ organization_id: otherOrg.id }), orgAdminToken),
        403,
        /organizations you administer/,
      );
    });

    it('requires an existing organization for campaigns', async () => {
      await expectError(
        await post(campaignBody({ organization_id: undefined }), adminToken),
        400,
        /organization_id: choose/,
      );
      await expectError(
        await post(campaignBody({ organization_id: crypto.randomUUID() }), adminToken),
        400,
        /no organization/,
      );
    });

    it('lets admins choose the status', async () => {
      const res = await post(campaignBody({ status: 'draft' }), adminToken);
      expect((await bodyOf(res, 201)).status).toBe('draft');
    });

    it.each([
      [{ title: '   ' }, /title: Enter a title/],
      [{ title: 'x'.repeat(121) }, /title must be at most 120/],
      [{ description: '' }, /description: Enter a description/],
      [{ description: 'x'.repeat(151) }, /description must be at most 150 characters/],
      [{ goal: 0 }, /goal must be greater than 0/],
      [{ goal: 12.5 }, /goal must be a whole number of pence/],
      [{ goal: '500' }, /goal must be a number of pence/],
      [{ goal: 100_000_001 }, /goal must be at most/],
      [{ images: [] }, /Add at least one image/],
      [{ images: Array.from({ length: 10 }, (_, i) => demoImage((i % 9) + 1)) }, /You can only upload 9 images/],
      [{ images: [{ name: 'x.png' }] }, /either a Key .* or base64/],
      [
        { images: [{ Key: 'https://evil.example/x.png', name: 'x.png' }] },
        /not one of this item's images; upload the file/,
      ],
      [{ images: [demoImage(1), demoImage(1)] }, /listed twice/],
      [{ video: 'https://evil.example/watch' }, /YouTube, Vimeo, Loom or Wistia/],
      [{ video: 'http://vimeo.com/123' }, /https link/],
      [{ date: { from: '2026-07-01', to: '2026-06-01' } }, /date.from must be on or before date.to/],
      [{ date: { from: '2026-02-30' } }, /not a real calendar date/],
      [{ status: 'published' }, /status must be one of draft, approved, deleted/],
    ])('rejects %j with a message saying what to fix', async (overrides, message) => {
      const before = await t.db.$count(campaigns);
      await expectError(await postRaw({ ...appealBody(), ...overrides }, donorToken), 400, message);
      expect(await t.db.$count(campaigns)).toBe(before);
    });

    it('accepts the other video hosts', async () => {
      for (const video of [
        'https://vimeo.com/76979871',
        'https://www.loom.com/share/abc',
        'https://fast.wistia.net/embed/iframe/x',
        'https://youtu.be/abc',
      ]) {
        expect((await post(appealBody({ video }), donorToken)).status).toBe(201);
      }
    });

    it('rejects malformed JSON with 400', async () => {
      // Raw: a body that is not JSON at all.
      const res = await t.request('/api/campaigns', {
        method: 'POST',
        token: donorToken,
        headers: { 'content-type': 'application/json' },
        body: '{"title":',
      });
      await expectError(res, 400, /valid JSON/);
    });

    it('accepts bodies above the global 100 KB limit on this route', async () => {
      // A 150 KB body is refused elsewhere with 413; here it reaches validation.
      const res = await post(appealBody({ story: 'x'.repeat(150 * 1024) }), donorToken);
      await expectError(res, 400, /story must be at most 20000 characters/);
    });

    it('other routes keep the 100 KB limit (campaign saves: campaigns.body-limit.test.ts)', async () => {
      // Raw: an oversized body with a field the schema does not know.
      const other = await t.request('/api/auth/login', {
        method: 'POST',
        json: { email: 'a@b.co', pad: 'x'.repeat(150 * 1024) },
      });
      await expectError(other, 413, /limit 100 KB/);
    });

    it('answers 503 when a new image arrives and no image storage is bound', async () => {
      if (t.env.IMAGES) return; // this file's apps never bind IMAGES; see campaigns.write.workers.test.ts
      const res = await post(
        appealBody({ images: [{ base64: PNG_1PX, name: 'a.png', size: 70, type: 'image/png' }] }),
        donorToken,
      );
      await expectError(res, 503, /Image storage is not configured/);
    });

    it('stores the template cause the appeal started from', async () => {
      const [cause] = await t.db
        .insert(templateCauses)
        .values({ title: 'Bake sale', description: 'Bake', story: '[[name]] bakes' })
        .returning();
      const res = await post(appealBody({ template_cause_id: cause.id }), donorToken);
      const [row] = await t.db
        .select()
        .from(campaigns)
        .where(eq(campaigns.id, (await bodyOf(res, 201))._id));
      expect(row.templateCauseId).toBe(cause.id);
      await expectError(
        await post(appealBody({ template_cause_id: crypto.randomUUID() }), donorToken),
        400,
        /no template cause/,
      );
    });
  });

  describe('PUT /api/campaigns/:id', () => {
    let appealId: string;
    beforeAll(async () => {
      appealId = (await bodyOf(await post(appealBody({ title: 'Editable appeal' }), donorToken), 201))._id;
    });

    it('requires sign-in', async () => {
      await expectError(await put(appealId, { title: 'x' }), 401, /sign in/i);
    });

    it('lets the creator update their own appeal; unspecified fields stay as they were', async () => {
      const res = await put(
        toShortId(appealId),
        { title: 'Renamed appeal', goal: 75_000, status: 'approved' },
        donorToken,
      );
      expect(res.status).toBe(200);
      expect(await res.json()).toMatchObject({
        _id: appealId,
        title: 'Renamed appeal',
        goal: 75_000,
        description: 'Running 10k to fund a pump.',
        images: [demoImage(1)].map((i) => ({ ...i, url: i.Key })),
      });
    });

    it('forbids a donor from changing the status', async () => {
      await expectError(
        await put(appealId, { status: 'draft' }, donorToken),
        403,
        /Only admins and the admins of this campaign's organization can change its status/,
      );
      const [row] = await t.db.select().from(campaigns).where(eq(campaigns.id, appealId));
      expect(row.status).toBe('approved');
    });

    it('forbids other donors', async () => {
      await expectError(
        await put(appealId, { title: 'Hijacked' }, otherDonorToken),
        403,
        /Only the fundraiser who created this appeal/,
      );
    });

    it('lets the organization admin and admins edit, and admins change the status', async () => {
      expect((await put(appealId, { title: 'Edited by org admin' }, orgAdminToken)).status).toBe(200);
      const res = await put(appealId, { status: 'draft' }, adminToken);
      expect((await bodyOf(res, 200)).status).toBe('draft');
      // The creator still sees and edits their own draft.
      expect((await put(appealId, { title: 'Draft again' }, donorToken)).status).toBe(200);
      // Other donors cannot learn that the draft exists.
      await expectError(await put(appealId, { title: 'x' }, otherDonorToken), 404, /not found/i);
    });

    it('keeps the creator out of an appeal an admin deleted', async () => {
      const id = (await bodyOf(await post(appealBody(), donorToken), 201))._id;
      expect((await put(id, { status: 'deleted' }, adminToken)).status).toBe(200);
      await expectError(await put(id, { title: 'Back' }, donorToken), 404, /not found/i);
    });

    it('limits organization admins to campaigns of their organizations', async () => {
      const own = await createCampaign(t.db, { organizationId: org.id });
      const foreign = await createCampaign(t.db, { organizationId: otherOrg.id });
      expect((await put(own.id, { description: 'Updated' }, orgAdminToken)).status).toBe(200);
      await expectError(
        await put(foreign.id, { description: 'Nope' }, orgAdminToken),
        403,
        /Only admins of this organization/,
      );
      await expectError(
        await put(own.id, { organization_id: otherOrg.id }, orgAdminToken),
        403,
        /organizations you administer/,
      );
      await expectError(
        await put(own.id, { campaign_id: parent.id }, adminToken),
        400,
        /cannot be moved under another campaign/,
      );
    });

    it('moves an appeal to another campaign and its organization', async () => {
      const res = await put(appealId, { campaign_id: oldest.id }, adminToken);
      expect(res.status).toBe(200);
      expect(await res.json()).toMatchObject({ campaign_id: oldest.id, organization_id: otherOrg.id });
      await expectError(await put(appealId, { campaign_id: appealId }, adminToken), 400, /own campaign/);
    });

    it('refuses to move an appeal that already has donations (even a pending one)', async () => {
      const appeal = await createAppeal(t.db, parent.id);
      await createDonation(t.db, {
        amount: 500,
        donorId: donor.id,
        campaignId: parent.id,
        appealId: appeal.id,
        status: 'pending',
      });
      await expectError(
        await put(appeal.id, { campaign_id: oldest.id }, adminToken),
        400,
        /^This appeal already has donations, so it cannot move to another campaign$/,
      );
      const [after] = await t.db.select().from(campaigns).where(eq(campaigns.id, appeal.id));
      expect(after.campaignId).toBe(parent.id);
      // Sending its current campaign back with other edits is fine.
      expect((await put(appeal.id, { campaign_id: parent.id, title: 'Renamed' }, adminToken)).status).toBe(200);
    });

    it('validates like create and leaves the row unchanged', async () => {
      const [before] = await t.db.select().from(campaigns).where(eq(campaigns.id, appealId));
      await expectError(await put(appealId, { description: 'x'.repeat(151) }, adminToken), 400, /at most 150/);
      await expectError(await put(appealId, { images: [] }, adminToken), 400, /at least one image/);
      await expectError(
        await put(appealId, { date: { from: '2030-01-02', to: '2030-01-01' } }, adminToken),
        400,
        /on or before/,
      );
      await expectError(await put(appealId, { date: { from: '2999-01-01' } }, adminToken), 400, /on or before/);
      const [after] = await t.db.select().from(campaigns).where(eq(campaigns.id, appealId));
      expect(after).toEqual(before);
    });

    it('answers 404 for unknown and malformed ids', async () => {
      await expectError(await put(crypto.randomUUID(), { title: 'x' }, adminToken), 404, /not found/i);
      await expectError(await put('nope', { title: 'x' }, adminToken), 404, /not valid/);
    });
  });

  describe('GET /api/template-causes', () => {
    it('lists template causes publicly, with the campaign one raises for (decision 073)', async () => {
      const water = await createCampaign(t.db, { title: 'Clean water for a template' });
      await t.db
        .insert(templateCauses)
        .values({ title: 'Run for water', description: 'Run', story: '[[name]] runs', campaignId: water.id });
      const body = await bodyOf(await t.client().api['template-causes'].$get({ query: {} }), 200);
      expect(body.find((c) => c.title === 'Bake sale')).toMatchObject({
        description: 'Bake',
        story: '[[name]] bakes',
        campaign_id: null,
      });
      expect(body.find((c) => c.title === 'Run for water')).toMatchObject({ campaign_id: water.id });
      expect(Object.keys(body[0])).toEqual(
        expect.arrayContaining(['_id', 'title', 'description', 'story', 'campaign_id']),
      );
    });
  });
});
