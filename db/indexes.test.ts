import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { engineName, setupTestApp } from '../tests/setup/test-app';

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
