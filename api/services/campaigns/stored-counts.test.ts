import { eq, sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { loadDetail } from '../../../src/lib/server/detail';
import { loadDiscover } from '../../../src/lib/server/discover';
import { campaigns, users } from '../../../db/schema';
import { createAppeal, createCampaign, createUser } from '../../../tests/factories';
import { engineName, setupTestApp } from '#test-app';

/** What the public lists read from the row instead of counting or joining (migration 0017's triggers). */
describe(`stored appeal counts and creator names (${engineName})`, () => {
  /** The public appeals counted the long way: approved appeals under approved campaigns. */
  const recount = async (db: Awaited<ReturnType<typeof setupTestApp>>['db'], parentId?: string) => {
    const [row] = await db.all<{
      n: number;
    }>(sql`select count(*) as n from campaigns a join campaigns p on p.id = a.campaign_id
      where a.status = 'approved' and a.kind = 'campaign' and p.campaign_id is null and p.status = 'approved'
      ${parentId ? sql`and p.id = ${parentId}` : sql``}`);
    return Number(row.n);
  };

  it('keeps the public appeal count exact through creation, approval, deletion, a move and a hidden campaign', async () => {
    const t = await setupTestApp();
    const campaign = await createCampaign(t.db);
    const other = await createCampaign(t.db);
    const [a, b] = [await createAppeal(t.db, campaign.id), await createAppeal(t.db, campaign.id)];
    const draft = await createAppeal(t.db, campaign.id, { status: 'draft' });
    const check = async (mine: number, theirs: number) => {
      expect((await loadDiscover(t.db, 'appeal', 1, campaign.id)).total).toBe(mine);
      expect((await loadDiscover(t.db, 'appeal', 1, other.id)).total).toBe(theirs);
      expect(mine).toBe(await recount(t.db, campaign.id));
      expect((await loadDiscover(t.db, 'appeal', 1)).total).toBe(await recount(t.db));
    };
    await check(2, 0);
    await t.db.update(campaigns).set({ status: 'approved' }).where(eq(campaigns.id, draft.id));
    await check(3, 0);
    await t.db.update(campaigns).set({ status: 'deleted' }).where(eq(campaigns.id, a.id));
    await check(2, 0);
    await t.db.update(campaigns).set({ campaignId: other.id }).where(eq(campaigns.id, b.id));
    await check(1, 1);
    // A campaign taken off the site takes its appeals out of every public count, and back.
    await t.db.update(campaigns).set({ status: 'draft' }).where(eq(campaigns.id, other.id));
    expect((await loadDiscover(t.db, 'appeal', 1, other.id)).total).toBe(0);
    expect((await loadDiscover(t.db, 'appeal', 1)).total).toBe(await recount(t.db));
    await t.db.update(campaigns).set({ status: 'approved' }).where(eq(campaigns.id, other.id));
    await t.db.delete(campaigns).where(eq(campaigns.id, draft.id));
    await check(0, 1);
  });

  it('shows the creator’s current name on cards and pages, after a rename and an erasure of the name', async () => {
    const t = await setupTestApp();
    const fundraiser = await createUser(t.db, { firstName: 'Amira', lastName: 'Khan' });
    const campaign = await createCampaign(t.db);
    const appeal = await createAppeal(t.db, campaign.id, { createdBy: fundraiser.id });
    const shown = async () =>
      (await loadDiscover(t.db, 'appeal', 1, campaign.id)).items.find((i) => i._id === appeal.id)?.created_by;
    expect(await shown()).toEqual({ first_name: 'Amira', last_name: 'Khan' });
    await t.db.update(users).set({ firstName: 'Amy', lastName: 'Stone' }).where(eq(users.id, fundraiser.id));
    expect(await shown()).toEqual({ first_name: 'Amy', last_name: 'Stone' });
    expect((await loadDetail(t.db, 'appeal', appeal.id))?.item.created_by).toEqual({
      first_name: 'Amy',
      last_name: 'Stone',
    });
    const other = await createUser(t.db, { firstName: 'Ben', lastName: 'Okafor' });
    await t.db.update(campaigns).set({ createdBy: other.id }).where(eq(campaigns.id, appeal.id));
    expect(await shown()).toEqual({ first_name: 'Ben', last_name: 'Okafor' });
    await t.db.update(users).set({ firstName: '', lastName: '' }).where(eq(users.id, other.id));
    expect(await shown()).toEqual({ first_name: '', last_name: '' });
    // A campaign made without a creator shows none.
    expect((await loadDetail(t.db, 'campaign', campaign.id))?.item.created_by).toEqual({
      first_name: '',
      last_name: '',
    });
  });
});
