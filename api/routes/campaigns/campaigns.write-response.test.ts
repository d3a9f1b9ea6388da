import { describe, expect, it } from 'vitest';
import { createCampaign, createOrganization, signedIn } from '../../../tests/factories';
import { bodyOf, engineName, setupTestApp } from '#test-app';

const image = { Key: '/images/demo/cause-3.png', name: 'cause-3.png', size: 1, type: 'image/png' };

describe(`writes answer with the saved item (${engineName})`, () => {
  it('an org admin who files an appeal under another organization gets the saved item back, but cannot set its status', async () => {
    const t = await setupTestApp();
    const ownOrg = await createOrganization(t.db);
    const token = (await signedIn(t.db, 'org_admin', { organizationIds: [ownOrg.id] })).token;
    const elsewhere = await createCampaign(t.db, { organizationId: (await createOrganization(t.db)).id });
    const body = {
      title: 'Bake sale',
      description: 'Cakes for a cause.',
      goal: 20_000,
      images: [image],
      campaign_id: elsewhere.id,
    };

    const campaigns = t.client(token).api.campaigns;
    const appeal = await bodyOf(await campaigns.$post({ json: body }), 201);
    expect(appeal).toMatchObject({ title: 'Bake sale', campaign_id: elsewhere.id });

    // Status belongs to admins and the campaign's own organization's admins.
    const param = { id: appeal._id };
    const updated = await campaigns[':id'].$put({ param, json: { status: 'deleted' } });
    expect(updated.status).toBe(403);
    const reread = await campaigns[':id'].$get({ param });
    expect((await bodyOf(reread, 200)).status).toBe(appeal.status);
  });
});
