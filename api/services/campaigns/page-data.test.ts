import { describe, expect, it, vi } from 'vitest';
import { loadDetail } from '../../../src/lib/server/detail';
import { LIST_PAGE_SIZE, loadDiscover } from '../../../src/lib/server/discover';
import { createAppeal, createCampaign, createDonation, createUser } from '../../../tests/factories';
import { engineName, setupTestApp } from '#test-app';

/** The detail pages' data (src/lib/server/detail.ts): independent reads in one db.batch, on both engines. */
describe(`detail page data (${engineName})`, () => {
  it('loads a campaign with its appeals and top donors, and an appeal with its parent', async () => {
    const t = await setupTestApp();
    const donor = await createUser(t.db, { firstName: 'Amira', lastName: 'Khan' });
    const campaign = await createCampaign(t.db);
    const appeal = await createAppeal(t.db, campaign.id);
    const sibling = await createAppeal(t.db, campaign.id);
    await createDonation(t.db, {
      donorId: donor.id,
      campaignId: campaign.id,
      appealId: appeal.id,
      amount: 2_500,
      source: 'card',
      ownCheckout: true,
    });

    const page = await loadDetail(t.db, 'campaign', campaign.id);
    expect(page?.item).toMatchObject({ _id: campaign.id, summary: { total_donations: 2_500, donation_count: 1 } });
    expect(page?.related.map((r) => r._id).sort()).toEqual([appeal.id, sibling.id].sort());
    expect(page?.donors).toEqual([{ donor: 'Amira K.', count: 1, total: 2_500 }]);
    expect(page?.parent).toBeNull();

    const appealPage = await loadDetail(t.db, 'appeal', appeal.id);
    expect(appealPage?.item).toMatchObject({ _id: appeal.id, summary: { total_donations: 2_500 } });
    expect(appealPage?.parent?._id).toBe(campaign.id);
    expect(appealPage?.related.map((r) => r._id)).toEqual([sibling.id]);
    expect(appealPage?.donors).toEqual([{ donor: 'Amira K.', count: 1, total: 2_500 }]);
    expect(await loadDetail(t.db, 'appeal', appeal.id, campaign.id)).not.toBeNull();
  });

  it('reads an appeal page in one round trip: the campaign is named by a subquery on the appeal', async () => {
    const t = await setupTestApp();
    const campaign = await createCampaign(t.db);
    const appeal = await createAppeal(t.db, campaign.id);
    // The driver under drizzle: one batch of all six reads, and no statement run on its own.
    const client = (t.db as unknown as { $client: Record<string, (...args: unknown[]) => unknown> }).$client;
    const batch = vi.spyOn(client, 'batch');
    const execute = engineName === 'libsql' ? vi.spyOn(client, 'execute') : null;
    const page = await loadDetail(t.db, 'appeal', appeal.id);
    expect(page?.parent?._id).toBe(campaign.id);
    expect(batch).toHaveBeenCalledTimes(1);
    expect(batch.mock.calls[0][0]).toHaveLength(6);
    if (execute) expect(execute).not.toHaveBeenCalled();
  });

  it('is null for the wrong kind, a bad id, a draft item, an appeal under a draft campaign or the wrong campaign', async () => {
    const t = await setupTestApp();
    const campaign = await createCampaign(t.db);
    const appeal = await createAppeal(t.db, campaign.id);
    const hidden = await createCampaign(t.db, { status: 'draft' });
    const orphan = await createAppeal(t.db, hidden.id);
    const other = await createCampaign(t.db);
    expect(await loadDetail(t.db, 'appeal', campaign.id)).toBeNull();
    expect(await loadDetail(t.db, 'campaign', appeal.id)).toBeNull();
    expect(await loadDetail(t.db, 'campaign', 'not-an-id')).toBeNull();
    expect(await loadDetail(t.db, 'campaign', hidden.id)).toBeNull();
    expect(await loadDetail(t.db, 'appeal', orphan.id)).toBeNull();
    expect(await loadDetail(t.db, 'appeal', appeal.id, other.id)).toBeNull();
  });

  it('pages a campaign’s appeals newest first with their count, in one round trip, leaving out drafts', async () => {
    const t = await setupTestApp();
    const campaign = await createCampaign(t.db);
    const appeals = [];
    for (let i = 0; i < LIST_PAGE_SIZE + 2; i++) {
      appeals.push(await createAppeal(t.db, campaign.id, { createdAt: new Date(Date.UTC(2026, 0, 1 + i)) }));
    }
    await createAppeal(t.db, campaign.id, { status: 'draft' });
    const newestFirst = appeals.map((a) => a.id).reverse();

    const client = (t.db as unknown as { $client: Record<string, (...args: unknown[]) => unknown> }).$client;
    const batch = vi.spyOn(client, 'batch');
    const first = await loadDiscover(t.db, 'appeal', 1, campaign.id);
    expect(batch).toHaveBeenCalledTimes(1);
    batch.mockRestore();
    expect(first).toMatchObject({ page: 1, total: LIST_PAGE_SIZE + 2, pages: 2 });
    expect(first.items.map((a) => a._id)).toEqual(newestFirst.slice(0, LIST_PAGE_SIZE));
    // The same prepared reads with the next page's offset, and another campaign's.
    const second = await loadDiscover(t.db, 'appeal', 2, campaign.id);
    expect(second.items.map((a) => a._id)).toEqual(newestFirst.slice(LIST_PAGE_SIZE));
    const other = await createCampaign(t.db);
    expect(await loadDiscover(t.db, 'appeal', 1, other.id)).toEqual({ items: [], page: 1, total: 0, pages: 1 });
    // Every campaign's appeals: this campaign's are among them.
    const all = await loadDiscover(t.db, 'appeal', 1);
    expect(all.total).toBeGreaterThanOrEqual(LIST_PAGE_SIZE + 2);
  });
});
