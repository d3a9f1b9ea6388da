import { type SQLWrapper, sql } from 'drizzle-orm';
import { itemsBackQuery, takenDownGifts } from '../api/services/notifications/monthly-item-down';
import { describe, expect, it } from 'vitest';
import { engineName, setupTestApp } from '#test-app';

describe(`donation totals read covering indexes (${engineName})`, () => {
  it.each([
    ['campaign_id', 'donations_campaign_totals_idx'],
    ['appeal_id', 'donations_appeal_totals_idx'],
  ])('sums by %s from %s alone', async (column, index) => {
    const t = await setupTestApp();
    const plan = await t.db.all<{ detail: string }>(
      sql.raw(`explain query plan select coalesce(sum(d.amount - d.refunded_amount), 0), count(*) from donations d
        where d.${column} = 'x' and d.status in ('succeeded', 'refunded')`),
    );
    expect(plan.map((row) => row.detail).join('\n')).toContain(`USING COVERING INDEX ${index}`);
  });
});

describe(`stored totals are read by key, never by scanning gifts (${engineName})`, () => {
  it('top donors: the rank index of donor_totals, no donations table', async () => {
    const t = await setupTestApp();
    const plan = await t.db.all<{ detail: string }>(
      sql.raw(`explain query plan select u.first_name, dt.gift_count, dt.raised_pence from donor_totals dt
        join users u on u.id = dt.donor_id
        where dt.target_id = 'x' and dt.gift_count > 0 and dt.raised_pence >= coalesce((select raised_pence from donor_totals
          where target_id = 'x' and gift_count > 0 order by raised_pence desc, gift_count desc limit 1 offset 9), 0)
        order by dt.raised_pence desc, dt.gift_count desc, u.first_name asc, dt.donor_id asc limit 10`),
    );
    const text = plan.map((row) => row.detail).join('\n');
    expect(text).toContain('donor_totals_rank_idx');
    expect(text).not.toMatch(/\bdonations\b/);
  });

  it('campaign lists: one primary-key lookup in campaign_totals per row', async () => {
    const t = await setupTestApp();
    const plan = await t.db.all<{ detail: string }>(
      sql.raw(`explain query plan select c.id, coalesce(ct.raised_pence, 0) from campaigns c
        left join campaign_totals ct on ct.campaign_id = c.id where c.campaign_id is null and c.status = 'approved'
        order by c.created_at desc limit 30`),
    );
    const text = plan.map((row) => row.detail).join('\n');
    expect(text).toMatch(/SEARCH ct USING INDEX sqlite_autoindex_campaign_totals_1 \(campaign_id=\?\)/);
    expect(text).not.toMatch(/\bdonations\b/);
  });
});

describe(`the five-minute run finds taken-down items and told gifts by index (${engineName})`, () => {
  const planOf = async (query: SQLWrapper) => {
    const t = await setupTestApp();
    const plan = await t.db.all<{ detail: string }>(sql`explain query plan ${query.getSQL()}`);
    return plan.map((row) => row.detail).join('\n');
  };

  it('monthly donors of items taken down (decision 070): the recent take-downs, then their gifts by campaign', async () => {
    const t = await setupTestApp();
    const text = await planOf(takenDownGifts(t.db, new Date()));
    expect(text).toContain('campaigns_status_updated_idx');
    expect(text).toContain('monthly_gifts_campaign_idx');
    expect(text).not.toMatch(/SCAN (down|monthly_gifts)\b/);
  });

  it('finding the told gifts whose item is back reads only the told ones', async () => {
    const t = await setupTestApp();
    const text = await planOf(itemsBackQuery(t.db));
    expect(text).toContain('monthly_gifts_item_down_idx');
    expect(text).not.toMatch(/SCAN monthly_gifts\b/);
  });
});
