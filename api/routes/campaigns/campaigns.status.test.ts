import { eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { auditLog, campaigns } from '../../../db/schema';
import { createCampaign, createOrganization, signedIn } from '../../../tests/factories';
import { bodyOf, engineName, type JsonOf, setupTestApp, type TestApp, type TestClient } from '#test-app';

type CampaignBody = JsonOf<TestClient['api']['campaigns']['$post']>;
const demoImage = { Key: '/images/demo/cause-1.png', name: 'cause-1.png', size: 1234, type: 'image/png' };

describe(`who may change a campaign's or appeal's status (${engineName})`, () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await setupTestApp();
  });

  const setStatus = (id: string, token: string) =>
    t.client(token).api.campaigns[':id'].$put({ param: { id }, json: { status: 'approved' } });

  async function world() {
    const orgA = await createOrganization(t.db, { appealsNeedApproval: true });
    const orgB = await createOrganization(t.db);
    const campaignA = await createCampaign(t.db, { organizationId: orgA.id });
    const adminA = await signedIn(t.db, 'org_admin', { organizationIds: [orgA.id] });
    const adminB = await signedIn(t.db, 'org_admin', { organizationIds: [orgB.id] });
    const admin = await signedIn(t.db, 'admin');
    const appealBy = async (token: string, extra: Partial<CampaignBody> = {}) => {
      const res = await t.client(token).api.campaigns.$post({
        json: {
          title: 'Bake sale',
          description: 'Cakes for pumps',
          goal: 10_000,
          images: [demoImage],
          campaign_id: campaignA.id,
          ...extra,
        },
      });
      return bodyOf(res, 201);
    };
    const stored = async (id: string) =>
      (await t.db.select({ status: campaigns.status }).from(campaigns).where(eq(campaigns.id, id)))[0].status;
    return { orgA, campaignA, adminA, adminB, admin, appealBy, stored };
  }

  it("refuses another organization's admin approving its own appeal under this organization's campaign; nothing is stored", async () => {
    const w = await world();
    const appeal = await w.appealBy(w.adminB.token);
    expect(appeal.status).toBe('draft');
    const res = await setStatus(appeal._id, w.adminB.token);
    expect(res.status).toBe(403);
    expect(await res.json()).toEqual({
      statusCode: 403,
      message: "Only admins and the admins of this campaign's organization can change its status",
    });
    expect(await w.stored(appeal._id)).toBe('draft');
    expect((await t.client().api.appeals[':id'].$get({ param: { id: appeal._id } })).status).toBe(404);
  });

  it('ignores a status sent by another organization admin when creating (held as a draft)', async () => {
    const w = await world();
    const appeal = await w.appealBy(w.adminB.token, { status: 'approved' });
    expect(await w.stored(appeal._id)).toBe('draft');
  });

  it("lets the campaign organization's admins and admins approve it", async () => {
    const w = await world();
    const first = await w.appealBy(w.adminB.token);
    expect((await setStatus(first._id, w.adminA.token)).status).toBe(200);
    expect(await w.stored(first._id)).toBe('approved');
    const second = await w.appealBy(w.adminB.token);
    expect((await setStatus(second._id, w.admin.token)).status).toBe(200);
    expect(await w.stored(second._id)).toBe('approved');
  });

  it('holds an appeal moved into an organization that reviews appeals, as a new one there would be', async () => {
    const w = await world();
    const orgB = await createOrganization(t.db);
    const campaignB = await createCampaign(t.db, { organizationId: orgB.id });
    const donor = await signedIn(t.db, 'donor');
    // Started under B (no review): live at once. Moved under A's campaign: A reviews it first.
    const appeal = await w.appealBy(donor.token, { campaign_id: campaignB.id });
    expect(appeal.status).toBe('approved');
    const move = (id: string, token: string) =>
      t.client(token).api.campaigns[':id'].$put({ param: { id }, json: { campaign_id: w.campaignA.id } });
    expect(await bodyOf(await move(appeal._id, donor.token), 200)).toMatchObject({ status: 'draft' });
    expect(await w.stored(appeal._id)).toBe('draft');
    expect((await t.client().api.appeals[':id'].$get({ param: { id: appeal._id } })).status).toBe(404);
    const audit = await t.db.select().from(auditLog).where(eq(auditLog.targetId, appeal._id));
    expect(audit.at(-1)?.changes).toMatchObject({ status: ['approved', 'draft'] });

    // A's own admin moving one in keeps it live.
    const other = await w.appealBy(w.adminA.token, { campaign_id: campaignB.id });
    expect(other.status).toBe('approved');
    const byA = await signedIn(t.db, 'org_admin', { organizationIds: [w.orgA.id, orgB.id] });
    expect(await bodyOf(await move(other._id, byA.token), 200)).toMatchObject({ status: 'approved' });
  });
});
