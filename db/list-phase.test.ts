import { eq, sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { refreshListPhases } from '../api/services/housekeeping/run';
import { addDays, londonIsoDate } from '../domain/dates';
import { createAppeal, createCampaign } from '../tests/factories';
import { bodyOf, engineName, setupTestApp, type TestApp } from '#test-app';
import { LIST_PHASE, LIST_PHASE_NOW_SQL, londonDaySql } from './list-phase';
import { campaigns } from './schema';

const phaseOf = async (t: TestApp, id: string) =>
  (await t.db.select({ phase: campaigns.listPhase }).from(campaigns).where(eq(campaigns.id, id)))[0]?.phase;

describe(`the lists' order: open first, then still to open, then ended (${engineName})`, () => {
  it("works out London's day in SQL as the domain does, across both clock changes", async () => {
    const t = await setupTestApp();
    const instants = [
      '2026-03-29T00:59:59Z', // GMT still: 00:59 in London
      '2026-03-29T01:00:00Z', // BST from here
      '2026-06-30T22:59:59Z', // 23:59 BST, 30 June
      '2026-06-30T23:00:00Z', // midnight BST: 1 July in London
      '2026-10-25T00:30:00Z', // 01:30 BST, still summer time
      '2026-10-25T00:59:59Z',
      '2026-10-25T01:00:00Z', // GMT again
      '2026-12-31T23:30:00Z',
      '2027-03-28T00:30:00Z',
      '2027-03-28T23:30:00Z', // the day summer time began: 00:30 on the 29th in London
    ];
    for (const instant of instants) {
      const asSqlite = instant.replace('T', ' ').replace('Z', '');
      const [row] = await t.db.all<{ day: string }>(sql.raw(`select ${londonDaySql(`'${asSqlite}'`)} as day`));
      expect([instant, row?.day]).toEqual([instant, londonIsoDate(new Date(instant))]);
    }
  });

  it('sets the phase on insert and moves an appeal with its campaign, by the one expression', async () => {
    const t = await setupTestApp();
    const today = londonIsoDate(new Date());
    const open = await createCampaign(t.db, { dateFrom: addDays(today, -3), dateTo: addDays(today, 3) });
    const later = await createCampaign(t.db, { dateFrom: addDays(today, 5), dateTo: addDays(today, 30) });
    const ended = await createCampaign(t.db, { dateFrom: addDays(today, -30), dateTo: addDays(today, -1) });
    const lastDay = await createCampaign(t.db, { dateFrom: addDays(today, -30), dateTo: today });
    const undated = await createCampaign(t.db, { dateFrom: null, dateTo: '' });
    expect(await phaseOf(t, open.id)).toBe(LIST_PHASE.open);
    expect(await phaseOf(t, later.id)).toBe(LIST_PHASE.opensLater);
    expect(await phaseOf(t, ended.id)).toBe(LIST_PHASE.ended);
    expect(await phaseOf(t, lastDay.id)).toBe(LIST_PHASE.open);
    expect(await phaseOf(t, undated.id)).toBe(LIST_PHASE.open);

    // An appeal with no dates of its own follows its campaign's; ended wins over still to open.
    const underLater = await createAppeal(t.db, later.id, { dateFrom: null, dateTo: null });
    const underEnded = await createAppeal(t.db, ended.id, { dateFrom: addDays(today, 2), dateTo: addDays(today, 9) });
    const underOpen = await createAppeal(t.db, open.id, { dateFrom: null, dateTo: null });
    expect(await phaseOf(t, underLater.id)).toBe(LIST_PHASE.opensLater);
    expect(await phaseOf(t, underEnded.id)).toBe(LIST_PHASE.ended);
    expect(await phaseOf(t, underOpen.id)).toBe(LIST_PHASE.open);

    // The campaign's end date brought forward ends its appeals too; moved back, they reopen.
    await t.db
      .update(campaigns)
      .set({ dateTo: addDays(today, -2) })
      .where(eq(campaigns.id, open.id));
    expect(await phaseOf(t, open.id)).toBe(LIST_PHASE.ended);
    expect(await phaseOf(t, underOpen.id)).toBe(LIST_PHASE.ended);
    await t.db
      .update(campaigns)
      .set({ dateTo: addDays(today, 10) })
      .where(eq(campaigns.id, open.id));
    expect(await phaseOf(t, underOpen.id)).toBe(LIST_PHASE.open);
    // An appeal moved under another campaign takes that one's dates.
    await t.db.update(campaigns).set({ campaignId: later.id }).where(eq(campaigns.id, underOpen.id));
    expect(await phaseOf(t, underOpen.id)).toBe(LIST_PHASE.opensLater);

    // The triggers say what db/list-phase.ts says: one rule, not two copies drifting apart.
    const triggers = await t.db.all<{ name: string; sql: string }>(
      sql`select name, sql from sqlite_master where type = 'trigger' and name like 'campaigns_list_phase_%' order by name`,
    );
    expect(triggers.map((row) => row.name)).toEqual(['campaigns_list_phase_insert', 'campaigns_list_phase_update']);
    for (const row of triggers) expect(row.sql).toContain(`SET \`list_phase\` = ${LIST_PHASE_NOW_SQL}\n`);
  });

  it('the hourly run moves what opened or ended at midnight, once', async () => {
    const t = await setupTestApp();
    const now = new Date();
    const today = londonIsoDate(now);
    const endsToday = await createCampaign(t.db, { dateFrom: addDays(today, -3), dateTo: today });
    const opensTomorrow = await createAppeal(t.db, endsToday.id, { dateFrom: addDays(today, 1) });
    expect(await phaseOf(t, endsToday.id)).toBe(LIST_PHASE.open);
    // The appeal's own start date waits; its campaign ends first, so it never opens.
    expect(await phaseOf(t, opensTomorrow.id)).toBe(LIST_PHASE.opensLater);

    const tomorrow = new Date(now.getTime() + 24 * 60 * 60 * 1000);
    expect(await refreshListPhases({ db: t.db, now: tomorrow })).toBeGreaterThanOrEqual(2);
    expect(await phaseOf(t, endsToday.id)).toBe(LIST_PHASE.ended);
    expect(await phaseOf(t, opensTomorrow.id)).toBe(LIST_PHASE.ended);
    expect(await refreshListPhases({ db: t.db, now: tomorrow })).toBe(0);
  });

  it('lists open appeals first, then those still to open, then the ended, newest first within each', async () => {
    const t = await setupTestApp();
    const today = londonIsoDate(new Date());
    const parent = await createCampaign(t.db, { title: 'Phase parent', dateFrom: null, dateTo: null });
    const base = Date.now();
    const appeal = (title: string, minutesAgo: number, dates: { dateFrom?: string; dateTo?: string }) =>
      createAppeal(t.db, parent.id, { title, createdAt: new Date(base - minutesAgo * 60_000), ...dates });
    await appeal('Ended newest', 1, { dateTo: addDays(today, -1) });
    await appeal('Later', 2, { dateFrom: addDays(today, 4) });
    await appeal('Open new', 3, { dateTo: addDays(today, 4) });
    await appeal('Ended old', 4, { dateTo: addDays(today, -10) });
    await appeal('Open old', 5, {});
    const titles = async (query: Record<string, string>) =>
      (await bodyOf(await t.client().api.campaigns[':id'].appeals.$get({ param: { id: parent.id }, query }), 200)).map(
        (a) => a.title,
      );
    expect(await titles({})).toEqual(['Open new', 'Open old', 'Later', 'Ended newest', 'Ended old']);
    // Pages follow the same order.
    expect(await titles({ limit: '2', page: '2' })).toEqual(['Later', 'Ended newest']);
  });

  it('reads a public page of the lists in order from the index, with no sort step', async () => {
    const t = await setupTestApp();
    for (const where of [
      `c.campaign_id = 'x' and c.status = 'approved' and c.kind = 'campaign'`,
      `c.campaign_id is null and c.status = 'approved' and c.kind = 'campaign'`,
    ]) {
      const plan = await t.db.all<{ detail: string }>(
        sql.raw(`explain query plan select c.id from campaigns c where ${where}
          order by c.list_phase asc, c.created_at desc, c.id asc limit 12`),
      );
      const text = plan.map((row) => row.detail).join('\n');
      expect(text).toMatch(/campaigns_(children|status)_order_idx/);
      expect(text).not.toContain('TEMP B-TREE');
    }
  });
});
