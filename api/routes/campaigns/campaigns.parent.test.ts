import { describe, expect, it } from 'vitest';
import { createAppeal, createCampaign, createOrganization, signedIn } from '../../../tests/factories';
import { bodyOf, engineName, setupTestApp } from '#test-app';
import { countCampaigns, getCampaign, listCampaigns } from '../../services/campaigns/read';

describe(`appeals are hidden with their parent campaign (${engineName})`, () => {
  it('shows appeals of a draft or deleted campaign only to admins and its organization admins', async () => {
    const t = await setupTestApp();
    const org = await createOrganization(t.db);
    const draftParent = await createCampaign(t.db, { status: 'draft', organizationId: org.id });
    const deletedParent = await createCampaign(t.db, { status: 'deleted', organizationId: org.id });
    const openParent = await createCampaign(t.db, { organizationId: org.id });
    const hidden = await createAppeal(t.db, draftParent.id, { organizationId: org.id });
    const hiddenToo = await createAppeal(t.db, deletedParent.id, { organizationId: org.id });
    const shown = await createAppeal(t.db, openParent.id, { organizationId: org.id });

    const donorToken = (await signedIn(t.db, 'donor')).token;
    const adminToken = (await signedIn(t.db, 'admin')).token;
    const orgAdminToken = (await signedIn(t.db, 'org_admin', { organizationIds: [org.id] })).token;
    const otherOrgAdminToken = (
      await signedIn(t.db, 'org_admin', { organizationIds: [(await createOrganization(t.db)).id] })
    ).token;

    const listed = async (token?: string) =>
      (await bodyOf(await t.client(token).api.appeals.$get({ query: { limit: '100' } }), 200)).map((a) => a._id);
    const appeal = (id: string, token?: string) => t.client(token).api.appeals[':id'].$get({ param: { id } });

    for (const token of [undefined, donorToken, otherOrgAdminToken]) {
      const ids = await listed(token);
      expect(ids).toContain(shown.id);
      expect(ids).not.toContain(hidden.id);
      expect(ids).not.toContain(hiddenToo.id);
      expect((await appeal(hidden.id, token)).status).toBe(404);
      expect((await appeal(hiddenToo.id, token)).status).toBe(404);
      expect((await appeal(shown.id, token)).status).toBe(200);
    }
    for (const token of [adminToken, orgAdminToken]) {
      expect(await listed(token)).toContain(hidden.id);
      expect((await appeal(hidden.id, token)).status).toBe(200);
      const children = await t
        .client(token)
        .api.campaigns[':id'].appeals.$get({ param: { id: draftParent.id }, query: {} });
      expect((await bodyOf(children, 200)).map((a) => a._id)).toEqual([hidden.id]);
    }

    // The public pages use the same services with no viewer.
    expect(await getCampaign({ db: t.db, viewer: null }, hidden.id)).toBeNull();
    const publicList = await listCampaigns(t.db, { kind: 'appeal', viewer: null, limit: 100 });
    expect(publicList.map((a) => a._id)).not.toContain(hidden.id);
    expect(await countCampaigns(t.db, { kind: 'appeal', viewer: null })).toBe(publicList.length);
  });

  it('answers 404 for the appeals of an appeal', async () => {
    const t = await setupTestApp();
    const campaign = await createCampaign(t.db);
    const appeal = await createAppeal(t.db, campaign.id);
    const appeals = (id: string) => t.client().api.campaigns[':id'].appeals.$get({ param: { id }, query: {} });
    const res = await appeals(appeal.id);
    expect(res.status).toBe(404);
    expect(await res.json()).toEqual({ statusCode: 404, message: 'Campaign not found' });
    expect((await appeals(campaign.id)).status).toBe(200);
  });
});
