import { describe, expect, it } from 'vitest';
import { createAppeal, createCampaign, createDonation, signedIn } from '../../../tests/factories';
import { bodyOf, engineName, errorOf, setupTestApp } from '#test-app';

describe(`manual donation dates must be real days (${engineName})`, () => {
  it('refuses 2025-02-31 and 2025-13-01 with 400 and keeps the stored date; accepts 2024-02-29', async () => {
    const t = await setupTestApp();
    const { user: admin, token } = await signedIn(t.db, 'admin');
    const campaign = await createCampaign(t.db);
    const appeal = await createAppeal(t.db, campaign.id);
    const gift = await createDonation(t.db, {
      donorId: admin.id,
      campaignId: campaign.id,
      appealId: appeal.id,
      date: new Date('2025-01-15T00:00:00Z'),
    });

    const donations = t.client(token).api.donations;
    const param = { id: gift.id };
    for (const date of ['2025-02-31', '2025-13-01', '2023-02-29']) {
      const res = await donations[':id'].$put({ param, json: { date } });
      expect((await errorOf(res, 400)).message).toMatch(/^date: /);
      const created = await donations.$post({
        json: { donor: admin.id, amount: 500, date, campaign: campaign.id, appeal: appeal.id },
      });
      expect(created.status).toBe(400);
    }
    const stored = await bodyOf(await donations[':id'].$get({ param }), 200);
    expect(stored.date).toBe('2025-01-15T00:00:00.000Z');

    const leap = await donations[':id'].$put({ param, json: { date: '2024-02-29' } });
    expect((await bodyOf(leap, 200)).date).toBe('2024-02-29T00:00:00.000Z');
  });
});
