import { eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { campaigns } from '../../../db/schema';
import { createCampaign, createOrganization, signedIn } from '../../../tests/factories';
import { engineName, setupTestApp, type TestApp } from '../../../tests/setup/test-app';

const demoImage = { Key: '/images/demo/cause-1.png', name: 'cause-1.png', size: 1234, type: 'image/png' };

describe(`who may change a campaign's or appeal's status (${engineName})`, () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await setupTestApp();
  });

  async function world() {
    const orgA = await createOrganization(t.db, { appealsNeedApproval: true });
    const orgB = await createOrganization(t.db);
    const campaignA = await createCampaign(t.db, { organizationId: orgA.id });
    const adminA = await signedIn(t.db, 'org_admin', { organizationIds: [orgA.id] });
    const adminB = await signedIn(t.db, 'org_admin', { organizationIds: [orgB.id] });
    const admin = await signedIn(t.db, 'admin');
    const appealBy = async (token: string, extra: Record<string, unknown> = {}) => {
      const res = await t.request('/api/campaigns', {
        method: 'POST',
        token,
        json: {
          title: 'Bake sale',
          description: 'Cakes for pumps',
          goal: 10_000,
          images: [demoImage],
          campaign_id: campaignA.id,
          ...extra,
        },
      });
      expect(res.status).toBe(201);
      return (await res.json()) as { _id: string; status: string };
    };
    const stored = async (id: string) =>
      (await t.db.select({ status: campaigns.status }).from(campaigns).where(eq(campaigns.id, id)))[0].status;
    return { orgA, campaignA, adminA, adminB, admin, appealBy, stored };
  }

  it("refuses another organization's admin approving its own appeal under this organization's campaign; nothing is stored", async () => {
    const w = await world();
    const appeal = await w.appealBy(w.adminB.token);
    expect(appeal.status).toBe('draft');
    const res = await t.request(`/api/campaigns/${appeal._id}`, {
      method: 'PUT',
      token: w.adminB.token,
      json: { status: 'approved' },
    });
    expect(res.status).toBe(403);
    expect(await res.json()).toEqual({
      statusCode: 403,
      message: "Only admins and the admins of this campaign's organization can change its status",
    });
    expect(await w.stored(appeal._id)).toBe('draft');
    expect((await t.request(`/api/appeals/${appeal._id}`)).status).toBe(404);
  });

  it('ignores a status sent by another organization admin when creating (held as a draft)', async () => {
    const w = await world();
    const appeal = await w.appealBy(w.adminB.token, { status: 'approved' });
    expect(await w.stored(appeal._id)).toBe('draft');
  });

  it("lets the campaign organization's admins and admins approve it", async () => {
    const w = await world();
    const first = await w.appealBy(w.adminB.token);
    expect(
      (
        await t.request(`/api/campaigns/${first._id}`, {
          method: 'PUT',
          token: w.adminA.token,
          json: { status: 'approved' },
        })
      ).status,
    ).toBe(200);
    expect(await w.stored(first._id)).toBe('approved');
    const second = await w.appealBy(w.adminB.token);
    expect(
      (
        await t.request(`/api/campaigns/${second._id}`, {
          method: 'PUT',
          token: w.admin.token,
          json: { status: 'approved' },
        })
      ).status,
    ).toBe(200);
    expect(await w.stored(second._id)).toBe('approved');
  });
});
