import { describe, expect, it } from 'vitest';
import { createAppeal, createCampaign, createOrganization, signedIn } from '../../../tests/factories';
import { engineName, setupTestApp } from '../../../tests/setup/test-app';

type Item = { _id: string; title: string; status: string; can_edit?: boolean };

describe(`a fundraiser's own appeals and what a caller may edit (${engineName})`, () => {
  it('?mine=true lists only what the caller created, drafts included; can_edit follows the write policy', async () => {
    const t = await setupTestApp();
    const org = await createOrganization(t.db);
    const otherOrg = await createOrganization(t.db);
    const campaign = await createCampaign(t.db, { organizationId: org.id });
    const otherCampaign = await createCampaign(t.db, { organizationId: otherOrg.id });
    const donor = await signedIn(t.db, 'donor');
    const stranger = await signedIn(t.db, 'donor');
    const orgAdmin = await signedIn(t.db, 'org_admin', { organizationIds: [org.id] });
    const live = await createAppeal(t.db, campaign.id, {
      organizationId: org.id,
      createdBy: donor.user.id,
      title: 'Mine live',
    });
    const draft = await createAppeal(t.db, campaign.id, {
      organizationId: org.id,
      createdBy: donor.user.id,
      title: 'Mine draft',
      status: 'draft',
    });
    await createAppeal(t.db, campaign.id, {
      organizationId: org.id,
      createdBy: donor.user.id,
      title: 'Mine deleted',
      status: 'deleted',
    });
    const theirs = await createAppeal(t.db, otherCampaign.id, {
      organizationId: otherOrg.id,
      createdBy: stranger.user.id,
      title: 'Not mine',
    });

    const mine = (await (await t.request('/api/appeals?mine=true&limit=100', { token: donor.token })).json()) as Item[];
    expect(mine.map((a) => a.title).sort()).toEqual(['Mine draft', 'Mine live']);
    expect(mine.every((a) => a.can_edit === true)).toBe(true);
    expect((await t.request('/api/appeals?mine=true')).status).toBe(401);

    // The public list, signed in: can_edit says which ones this caller may edit.
    const all = (await (await t.request('/api/appeals?limit=100', { token: donor.token })).json()) as Item[];
    expect(all.find((a) => a._id === live.id)?.can_edit).toBe(true);
    expect(all.find((a) => a._id === theirs.id)?.can_edit).toBe(false);
    const anonymous = (await (await t.request('/api/appeals?limit=100')).json()) as Item[];
    expect(anonymous.find((a) => a._id === live.id)).not.toHaveProperty('can_edit');

    // One item: the editor asks before it shows the form.
    const one = async (id: string, token: string) =>
      ((await (await t.request(`/api/campaigns/${id}`, { token })).json()) as Item).can_edit;
    expect(await one(draft.id, donor.token)).toBe(true);
    expect(await one(otherCampaign.id, orgAdmin.token)).toBe(false);
    expect(await one(campaign.id, orgAdmin.token)).toBe(true);
    expect(await one(live.id, orgAdmin.token)).toBe(true);
    expect(await one(live.id, stranger.token)).toBe(false);
    // …and the server agrees when someone tries anyway.
    expect(
      (
        await t.request(`/api/campaigns/${otherCampaign.id}`, {
          method: 'PUT',
          token: orgAdmin.token,
          json: { description: 'x' },
        })
      ).status,
    ).toBe(403);
  });
});
