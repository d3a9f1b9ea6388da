/// <reference types="vite/client" />
import { eq, sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import migration from '../../../db/migrations/0030_top_donors_own.sql?raw';
import { checkoutDetails, donations, donorTotals, users } from '../../../db/schema';
import { createCampaign, createDonation, createUser } from '../../../tests/factories';
import { engineName, setupTestApp, type TestApp } from '#test-app';
import { recomputeDonorTotals, storedDonorTotals } from './totals';

/** The backfill statements of migration 0030, run again over rows shaped like before it (decision 077). */
const backfill = migration
  .split('--> statement-breakpoint')
  .map((s) => s.replace(/^(\s*--[^\n]*\n)+/, '').trim())
  .filter((s) => s.startsWith('UPDATE'));

describe(`migration 0030: who chose to be named (${engineName})`, () => {
  let t: TestApp;
  const ids: Record<string, string> = {};
  const at = (minute: number) => new Date(Date.UTC(2026, 0, 1, 12, minute));

  beforeAll(async () => {
    t = await setupTestApp();
    const campaign = (await createCampaign(t.db)).id;
    const gift = (donorId: string, minute: number, extra: Partial<typeof donations.$inferInsert> = {}) =>
      createDonation(t.db, { donorId, campaignId: campaign, source: 'card', createdAt: at(minute), ...extra });
    // Ann's account was made by her first gift's checkout (half a minute before it), then she gave monthly.
    const ann = await createUser(t.db, { createdAt: at(0) });
    ids.annFirst = (await gift(ann.id, 0.5)).id;
    ids.annMonthly = (await gift(ann.id, 5, { subscriptionId: 'sub_ann', type: 'monthly' })).id;
    // Bob signed in and gave: his checkout row says so; a renewal of that monthly gift follows it.
    const bob = await createUser(t.db, { createdAt: at(0) });
    ids.bobOwn = (await gift(bob.id, 30, { subscriptionId: 'sub_bob', type: 'monthly' })).id;
    await t.db.insert(checkoutDetails).values({ donationId: ids.bobOwn, consentToAccount: true });
    ids.bobRenewal = (await gift(bob.id, 40, { subscriptionId: 'sub_bob', type: 'monthly' })).id;
    // Cy's account existed long before a guest typed his email; and a cheque the office entered.
    const cy = await createUser(t.db, { createdAt: at(0) });
    ids.cyGuest = (await gift(cy.id, 50)).id;
    await t.db
      .insert(checkoutDetails)
      .values({ donationId: ids.cyGuest, firstName: 'Someone', consentToAccount: false });
    ids.cyCheque = (await gift(cy.id, 51, { source: 'batch', method: 'cheque' })).id;
    // A demo-mode gift with no checkout row (the demo seed's).
    ids.demo = (await gift(cy.id, 52, { source: 'demo' })).id;
    // As before the migration: no gift is marked, no totals row counts any.
    await t.db.update(donations).set({ ownCheckout: false });
    await t.db.update(donorTotals).set({ ownGiftCount: 0 });
    expect(backfill).toHaveLength(5);
    for (const statement of backfill) await t.db.run(sql.raw(statement));
    void users;
  });

  it('marks the gifts their donors gave in their own checkout, and only those', async () => {
    const own = new Map((await t.db.select().from(donations)).map((d) => [d.id, d.ownCheckout]));
    expect(Object.fromEntries(Object.entries(ids).map(([name, id]) => [name, own.get(id)]))).toEqual({
      annFirst: true,
      annMonthly: false,
      bobOwn: true,
      bobRenewal: true,
      cyGuest: false,
      cyCheque: false,
      demo: true,
    });
  });

  it('counts them in the running totals in one pass, as the triggers would', async () => {
    expect(Object.fromEntries(await storedDonorTotals(t.db))).toEqual(
      Object.fromEntries(await recomputeDonorTotals(t.db)),
    );
    const [annRow] = await t.db
      .select({ own: donorTotals.ownGiftCount })
      .from(donorTotals)
      .innerJoin(donations, eq(donations.donorId, donorTotals.donorId))
      .where(eq(donations.id, ids.annFirst));
    expect(annRow.own).toBe(1);
  });
});
