import { describe, expect, it } from 'vitest';
import { createAppeal, createCampaign, createDonation, createUser } from '../../../tests/factories';
import { engineName, setupTestApp } from '../../../tests/setup/test-app';

describe(`campaign summary (${engineName})`, () => {
  it('counts paid gifts that were not fully refunded, and totals them net of refunds', async () => {
    const t = await setupTestApp();
    const donor = await createUser(t.db);
    const campaign = await createCampaign(t.db);
    const appeal = await createAppeal(t.db, campaign.id);
    const gift = (overrides: Parameters<typeof createDonation>[1] extends infer T ? Partial<T> : never) =>
      createDonation(t.db, {
        donorId: donor.id,
        campaignId: campaign.id,
        appealId: appeal.id,
        amount: 1000,
        ...overrides,
      });
    await gift({ status: 'succeeded' });
    await gift({ status: 'succeeded', refundedAmount: 200 });
    await gift({ status: 'refunded', refundedAmount: 1000 });
    await gift({ status: 'pending' });
    await gift({ status: 'failed' });

    for (const path of [`/api/campaigns/${campaign.id}`, `/api/appeals/${appeal.id}`]) {
      const body = (await (await t.request(path)).json()) as {
        summary: { total_donations: number; donation_count: number };
      };
      expect(body.summary).toEqual({ total_donations: 1800, donation_count: 2, gift_aid: 0 });
    }
  });
});
