import { describe, expect, it } from 'vitest';
import { createAppeal, createCampaign, createOrganization, signedIn } from '../../../tests/factories';
import { bodyOf, engineName, setupTestApp } from '#test-app';

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

    const appeals = (query: { mine?: 'true'; limit?: string }, token?: string) =>
      t.client(token).api.appeals.$get({ query });
    const mine = await bodyOf(await appeals({ mine: 'true', limit: '100' }, donor.token), 200);
    expect(mine.map((a) => a.title).sort()).toEqual(['Mine draft', 'Mine live']);
    expect(mine.every((a) => a.can_edit === true)).toBe(true);
    expect((await appeals({ mine: 'true' })).status).toBe(401);

    // The public list, signed in: can_edit says which ones this caller may edit.
    const all = await bodyOf(await appeals({ limit: '100' }, donor.token), 200);
    expect(all.find((a) => a._id === live.id)?.can_edit).toBe(true);
    expect(all.find((a) => a._id === theirs.id)?.can_edit).toBe(false);
    const anonymous = await bodyOf(await appeals({ limit: '100' }), 200);
    expect(anonymous.find((a) => a._id === live.id)).not.toHaveProperty('can_edit');

    // One item: the editor asks before it shows the form.
    const one = async (id: string, token: string) =>
      (await bodyOf(await t.client(token).api.campaigns[':id'].$get({ param: { id } }), 200)).can_edit;
    expect(await one(draft.id, donor.token)).toBe(true);
    expect(await one(otherCampaign.id, orgAdmin.token)).toBe(false);
    expect(await one(campaign.id, orgAdmin.token)).toBe(true);
    expect(await one(live.id, orgAdmin.token)).toBe(true);
    expect(await one(live.id, stranger.token)).toBe(false);
    // …and the server agrees when someone tries anyway.
    expect(
      (
        await t
          .client(orgAdmin.token)
          .api.campaigns[':id'].$put({ param: { id: otherCampaign.id }, json: { description: 'x' } })
      ).status,
    ).toBe(403);
  });
});
