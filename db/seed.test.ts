import { count, desc, eq, isNotNull, isNull, and } from 'drizzle-orm';
import { recomputeTotals, storedTotals } from '../api/services/campaigns/totals';
import { describe, expect, it } from 'vitest';
import { engineName, setupTestApp } from '../tests/setup/test-app';
import {
  campaigns,
  donations,
  giftAidDeclarations,
  organizationAdmins,
  organizations,
  prices,
  templateCauses,
  users,
} from './schema';
import { DEMO_ACCOUNTS, parseSeedScale, seed } from './seed';
import { giftAidDeclaration } from '../domain';

describe(`seed (${engineName})`, () => {
  it('writes the demo charity once, and a second run adds nothing', { timeout: 60_000 }, async () => {
    const { db } = await setupTestApp();
    const tally = async () => ({
      organizations: (await db.select({ n: count() }).from(organizations))[0].n,
      users: (await db.select({ n: count() }).from(users))[0].n,
      campaigns: (await db.select({ n: count() }).from(campaigns).where(isNull(campaigns.campaignId)))[0].n,
      appeals: (await db.select({ n: count() }).from(campaigns).where(isNotNull(campaigns.campaignId)))[0].n,
      donations: (await db.select({ n: count() }).from(donations))[0].n,
      declarations: (await db.select({ n: count() }).from(giftAidDeclarations))[0].n,
      prices: (await db.select({ n: count() }).from(prices))[0].n,
      causes: (await db.select({ n: count() }).from(templateCauses))[0].n,
      orgAdmins: (await db.select({ n: count() }).from(organizationAdmins))[0].n,
    });

    await seed(db);
    const first = await tally();
    expect(first).toMatchObject({
      organizations: 3,
      users: 42,
      campaigns: 6,
      appeals: 18,
      donations: 300,
      prices: 4,
      causes: 5,
      orgAdmins: 1,
    });
    expect(first.declarations).toBeGreaterThan(0);

    await seed(db);
    expect(await tally()).toEqual(first);

    const drafts = await db
      .select({ n: count() })
      .from(campaigns)
      .where(and(isNotNull(campaigns.campaignId), eq(campaigns.status, 'draft')));
    const deleted = await db.select({ n: count() }).from(campaigns).where(eq(campaigns.status, 'deleted'));
    expect(drafts[0].n).toBeGreaterThan(0);
    expect(deleted[0].n).toBeGreaterThan(0);

    const demo = await db.select({ email: users.email, type: users.type }).from(users);
    const byEmail = Object.fromEntries(demo.map((u) => [u.email, u.type]));
    expect(byEmail[DEMO_ACCOUNTS.admin]).toBe('admin');
    expect(byEmail[DEMO_ACCOUNTS.orgAdmin]).toBe('org_admin');
    expect(byEmail[DEMO_ACCOUNTS.donor]).toBe('donor');

    // Every seeded Gift Aid declaration names the charity its gift went to (the campaign's
    // organization), never the platform's default name.
    const declared = await db
      .select({ text: giftAidDeclarations.declarationText, charity: organizations.name })
      .from(donations)
      .innerJoin(giftAidDeclarations, eq(giftAidDeclarations.id, donations.giftAidDeclarationId))
      .innerJoin(campaigns, eq(campaigns.id, donations.campaignId))
      .innerJoin(organizations, eq(organizations.id, campaigns.organizationId));
    expect(declared.length).toBe(first.declarations);
    for (const row of declared) expect(row.text).toBe(giftAidDeclaration(row.charity));

    const yearAgo = Date.now() - 366 * 24 * 60 * 60 * 1000;
    const dates = await db.select({ date: donations.date }).from(donations);
    expect(dates.every((d) => d.date.getTime() > yearAgo && d.date.getTime() <= Date.now())).toBe(true);
  });
});

describe(`seed --scale (${engineName})`, () => {
  it('writes N times the donors, appeals and donations, once, with totals equal to a recomputation', {
    timeout: 120_000,
  }, async () => {
    const { db } = await setupTestApp();
    const tally = async () => ({
      users: (await db.select({ n: count() }).from(users))[0].n,
      campaigns: (await db.select({ n: count() }).from(campaigns).where(isNull(campaigns.campaignId)))[0].n,
      appeals: (await db.select({ n: count() }).from(campaigns).where(isNotNull(campaigns.campaignId)))[0].n,
      donations: (await db.select({ n: count() }).from(donations))[0].n,
    });
    await seed(db, undefined, { scale: 3 });
    const first = await tally();
    expect(first).toEqual({ users: 42 + 2 * 40, campaigns: 6, appeals: 3 * 18, donations: 3 * 300 });
    await seed(db, undefined, { scale: 3 });
    expect(await tally()).toEqual(first);
    expect(Object.fromEntries(await storedTotals(db))).toEqual(Object.fromEntries(await recomputeTotals(db)));
    // The demo's own appeals stay first in the newest-first lists.
    const newest = await db
      .select({ title: campaigns.title })
      .from(campaigns)
      .where(isNotNull(campaigns.campaignId))
      .orderBy(desc(campaigns.createdAt))
      .limit(18);
    expect(newest.every((a) => !/\(\d+\)$/.test(a.title))).toBe(true);
  });

  it.each([0, -1, 1001, 2.5, Number.NaN, 'ten', '', '1e2', undefined])(
    'refuses a scale of %j with a message saying what to pass',
    (value) => {
      expect(() => parseSeedScale(value as never)).toThrow(/--scale must be a whole number from 1 to 1000/);
    },
  );

  it('accepts 1 to 1000', () => {
    expect(parseSeedScale('1')).toBe(1);
    expect(parseSeedScale(100)).toBe(100);
    expect(parseSeedScale(' 1000 ')).toBe(1000);
  });
});
