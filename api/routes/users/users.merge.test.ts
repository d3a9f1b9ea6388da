import { eq, inArray, sql } from 'drizzle-orm';
import { describe, expect, it, vi } from 'vitest';
import {
  auditLog,
  campaigns,
  donations,
  donorTotals,
  giftAidDeclarations,
  marketingConsents,
  monthlyGifts,
  organizationDonors,
  supportRequests,
  users,
} from '../../../db/schema';
import {
  createCampaign,
  createGiftAidDeclaration,
  createDonation,
  createMonthlyGift,
  createOrganization,
  createSession,
  createUser,
  signedIn,
} from '../../../tests/factories';
import { bodyOf, engineName, messageOf, setupTestApp, type TestApp } from '#test-app';

/** Merges donor `id` into `into` as `token` (signed out without one). */
const mergeOf = (t: TestApp, token: string | undefined, id: string, into: string) =>
  t.client(token).api.users[':id'].merge.$post({ param: { id }, json: { into } });

/** Two records of one person who gave to Org X: `source` with a gift, a declaration, a monthly gift, a consent and a link. */
async function world(t: TestApp) {
  const orgX = (await createOrganization(t.db)).id;
  const orgY = (await createOrganization(t.db)).id;
  const campaignX = (await createCampaign(t.db, { organizationId: orgX })).id;
  const campaignY = (await createCampaign(t.db, { organizationId: orgY })).id;
  const source = await createUser(t.db, { firstName: 'Pat', lastName: 'Old', stripeCustomerId: 'cus_old' });
  const into = await createUser(t.db, { firstName: 'Pat', lastName: 'Smith' });
  const gifts = [
    (await createDonation(t.db, { donorId: source.id, campaignId: campaignX, amount: 2500 })).id,
    (await createDonation(t.db, { donorId: source.id, campaignId: campaignX, amount: 1000, giftAid: true })).id,
  ];
  await createDonation(t.db, { donorId: into.id, campaignId: campaignX, amount: 500 });
  const declaration = await createGiftAidDeclaration(t.db, {
    donorId: source.id,
    fullName: 'Pat Old',
    homeAddress: '1 High St',
    postcode: 'LS1 1AA',
    organizationId: orgX,
  });
  const monthlyId = (await createMonthlyGift(t.db, { donorId: source.id, campaignId: campaignX })).id;
  const [consent] = await t.db
    .insert(marketingConsents)
    .values({
      userId: source.id,
      email: source.email,
      wording: 'Keep me updated',
      source: 'donation_box',
      givenAt: new Date(),
    })
    .returning();
  await t.db.insert(organizationDonors).values({ organizationId: orgX, userId: source.id });
  return {
    orgX,
    orgY,
    campaignX,
    campaignY,
    source,
    into,
    gifts,
    declarationId: declaration.id,
    monthlyId,
    consentId: consent.id,
  };
}

describe(`merging two donor records (${engineName})`, () => {
  it('moves gifts, declarations, monthly gifts, consent and links, deletes the merged record, and writes one audit row naming both', {
    timeout: 30_000,
  }, async () => {
    const t = await setupTestApp();
    const w = await world(t);
    const orgAdmin = await signedIn(t.db, 'org_admin', { organizationIds: [w.orgX] });
    const finance = await signedIn(t.db, 'finance', { organizationIds: [w.orgX] });
    const before = await t.db.select().from(donorTotals).where(eq(donorTotals.targetId, w.campaignX));
    expect(before.find((r) => r.donorId === w.source.id)?.raisedPence).toBe(3500);

    const result = await bodyOf(await mergeOf(t, orgAdmin.token, w.source.id, w.into.id), 200);
    expect(result).toMatchObject({
      merged: w.source.id,
      into: w.into.id,
      moved: { donations: 2, declarations: 1, monthly_gifts: 1, consents: 1, organizations: 1 },
    });

    expect((await t.db.select().from(donations).where(inArray(donations.id, w.gifts))).map((d) => d.donorId)).toEqual([
      w.into.id,
      w.into.id,
    ]);
    expect(
      (await t.db.select().from(giftAidDeclarations).where(eq(giftAidDeclarations.id, w.declarationId)))[0].donorId,
    ).toBe(w.into.id);
    expect((await t.db.select().from(monthlyGifts).where(eq(monthlyGifts.id, w.monthlyId)))[0].donorId).toBe(w.into.id);
    expect((await t.db.select().from(marketingConsents).where(eq(marketingConsents.id, w.consentId)))[0].userId).toBe(
      w.into.id,
    );
    expect(await t.db.select().from(organizationDonors).where(eq(organizationDonors.userId, w.into.id))).toHaveLength(
      1,
    );
    expect(await t.db.select().from(users).where(eq(users.id, w.source.id))).toEqual([]);
    const [survivor] = await t.db.select().from(users).where(eq(users.id, w.into.id));
    expect(survivor.stripeCustomerId).toBe('cus_old');
    // The running totals follow the gifts (kept by the donations triggers).
    const after = await t.db.select().from(donorTotals).where(eq(donorTotals.targetId, w.campaignX));
    expect(after.find((r) => r.donorId === w.into.id)?.raisedPence).toBe(4000);
    expect(after.find((r) => r.donorId === w.source.id)).toBeUndefined();

    const audit = await t.db.select().from(auditLog).where(eq(auditLog.targetId, w.into.id));
    // One entry: who merged whom into whom, for which organization, from which request.
    expect(audit).toEqual([
      expect.objectContaining({
        id: result.audit_id,
        targetType: 'user',
        targetId: w.into.id,
        actorId: orgAdmin.user.id,
        organizationId: w.orgX,
        changes: { merged_from: [w.source.id, null], email: [w.source.email, w.into.email] },
        note: expect.stringContaining(w.source.email),
        requestId: expect.stringMatching(/./),
      }),
    ]);
    // Org X's finance user reads it in the audit log.
    const auditApi = t.client(finance.token).api.audit;
    const log = await bodyOf(await auditApi.$get({ query: { target: w.into.id } }), 200);
    expect(log.map((e) => e.action)).toEqual(['user.merge']);
    // The action filter: an exact action, or every action of a record type.
    for (const action of ['user.merge', 'user']) {
      const byAction = await bodyOf(await auditApi.$get({ query: { action, target: w.into.id } }), 200);
      expect(byAction, action).toHaveLength(1);
    }
    expect(await bodyOf(await auditApi.$get({ query: { action: 'donation', target: w.into.id } }), 200)).toEqual([]);
    expect((await auditApi.$get({ query: { action: 'DROP TABLE' } })).status).toBe(400);

    // The survivor's giving now shows every gift; the merged id is gone, so a second merge is a 404.
    const giving = await t.client(orgAdmin.token).api.users[':id'].giving.$get({ param: { id: w.into.id }, query: {} });
    expect((await bodyOf(giving, 200)).totals.gift_count).toBe(3);
    const again = await mergeOf(t, orgAdmin.token, w.source.id, w.into.id);
    expect(again.status).toBe(404);
    expect(await t.db.select().from(auditLog).where(eq(auditLog.targetId, w.into.id))).toHaveLength(1);
  });

  it('refuses itself, unknown ids, staff accounts, other organizations, donors and finance users, changing nothing', {
    timeout: 30_000,
  }, async () => {
    const t = await setupTestApp();
    const w = await world(t);
    const admin = await signedIn(t.db, 'admin');
    const orgAdminX = await signedIn(t.db, 'org_admin', { organizationIds: [w.orgX] });
    const orgAdminY = await signedIn(t.db, 'org_admin', { organizationIds: [w.orgY] });
    const finance = await signedIn(t.db, 'finance', { organizationIds: [w.orgX] });
    const donor = await signedIn(t.db, 'donor');
    const merge = (token: string, id: string, body: { into: string }) => mergeOf(t, token, id, body.into);

    const self = await merge(admin.token, w.source.id, { into: w.source.id });
    expect(self.status).toBe(400);
    expect(await messageOf(self)).toMatch(/itself/);
    expect((await merge(admin.token, crypto.randomUUID(), { into: w.into.id })).status).toBe(404);
    const unknownInto = await merge(admin.token, w.source.id, { into: crypto.randomUUID() });
    expect(unknownInto.status).toBe(404);
    expect(await messageOf(unknownInto)).toMatch(/^into:/);
    expect((await merge(admin.token, w.source.id, { into: 'not an id' })).status).toBe(404);
    // No `into` at all: sent raw, as the typed client would refuse the body.
    const noBody = await t.request(`/api/users/${w.source.id}/merge`, { method: 'POST', token: admin.token, json: {} });
    expect(noBody.status).toBe(400);
    expect(await messageOf(noBody)).toMatch(/into/);
    const huge = await merge(admin.token, w.source.id, { into: 'x'.repeat(5000) });
    expect(huge.status).toBe(400);

    // A staff account is never merged, either way: its organization rights would move or vanish.
    const staffInto = await merge(admin.token, w.source.id, { into: orgAdminX.user.id });
    expect(staffInto.status).toBe(400);
    expect(await messageOf(staffInto)).toMatch(/org_admin account; only donor records can be merged/);
    expect((await merge(admin.token, finance.user.id, { into: w.into.id })).status).toBe(400);

    // Org Y's admin cannot see Org X's donors; after the donor also gives to Org Y, Org X's admin may not merge them.
    expect((await merge(orgAdminY.token, w.source.id, { into: w.into.id })).status).toBe(404);
    await createDonation(t.db, { donorId: w.source.id, campaignId: w.campaignY, amount: 100 });
    const across = await merge(orgAdminX.token, w.source.id, { into: w.into.id });
    expect(across.status).toBe(403);
    expect(await messageOf(across)).toMatch(/organization you do not administer/);

    expect((await merge(donor.token, w.source.id, { into: w.into.id })).status).toBe(403);
    expect((await merge(finance.token, w.source.id, { into: w.into.id })).status).toBe(403);
    expect((await mergeOf(t, undefined, w.source.id, w.into.id)).status).toBe(401);

    // Nothing moved, nothing audited; an admin may still merge across organizations.
    expect((await t.db.select().from(donations).where(eq(donations.donorId, w.source.id))).length).toBe(3);
    expect(await t.db.select().from(auditLog).where(eq(auditLog.targetId, w.into.id))).toHaveLength(0);
    const byAdmin = await merge(admin.token, w.source.id, { into: w.into.id });
    expect((await bodyOf(byAdmin, 200)).moved.donations).toBe(3);
  });

  it('refuses an organization admin a donor who started an appeal for another organization or wrote to the platform', {
    timeout: 30_000,
  }, async () => {
    const t = await setupTestApp();
    const w = await world(t);
    const orgAdminX = await signedIn(t.db, 'org_admin', { organizationIds: [w.orgX] });
    // The donor's only tie to Org Y is an appeal they started under its campaign: a merge would hand it
    // (its editing and its supporters) to the surviving record, which Org X's admin chose.
    const [appeal] = await t.db
      .insert(campaigns)
      .values({
        id: crypto.randomUUID(),
        title: 'Pat runs for Y',
        description: 'Run',
        goal: 10_000,
        campaignId: w.campaignY,
        organizationId: w.orgY,
        createdBy: w.source.id,
        status: 'approved',
      } as typeof campaigns.$inferInsert)
      .returning();
    const refused = await mergeOf(t, orgAdminX.token, w.source.id, w.into.id);
    expect(refused.status).toBe(403);
    expect(await messageOf(refused)).toMatch(/started an appeal for/);
    const [kept] = await t.db.select().from(campaigns).where(eq(campaigns.id, appeal.id));
    expect(kept.createdBy).toBe(w.source.id);
    expect((await t.db.select().from(users).where(eq(users.id, w.source.id))).length).toBe(1);

    // An appeal under Org X only is Org X's to move.
    await t.db
      .update(campaigns)
      .set({ campaignId: w.campaignX, organizationId: w.orgX })
      .where(eq(campaigns.id, appeal.id));
    const w2 = await world(t);
    await t.db.insert(supportRequests).values({
      id: crypto.randomUUID(),
      userId: w2.source.id,
      name: 'Pat Old',
      email: w2.source.email,
      subject: 'Help',
      message: 'Please help',
    } as typeof supportRequests.$inferInsert);
    const orgAdminX2 = await signedIn(t.db, 'org_admin', { organizationIds: [w2.orgX] });
    expect((await mergeOf(t, orgAdminX2.token, w2.source.id, w2.into.id)).status).toBe(403);
    expect((await mergeOf(t, orgAdminX.token, w.source.id, w.into.id)).status).toBe(200);
  });

  it('refuses an organization admin a donor who signs in or gave online as themselves; a platform admin may (decision 077)', {
    timeout: 30_000,
  }, async () => {
    const t = await setupTestApp();
    const admin = await signedIn(t.db, 'admin');
    // One record gave in its own checkout; the other holds a sign-in.
    const gave = await world(t);
    await t.db.update(donations).set({ ownCheckout: true }).where(eq(donations.id, gave.gifts[0]));
    const orgAdmin = await signedIn(t.db, 'org_admin', { organizationIds: [gave.orgX] });
    const refused = await mergeOf(t, orgAdmin.token, gave.source.id, gave.into.id);
    expect(refused.status).toBe(403);
    expect(await messageOf(refused)).toMatch(/their account is their own; ask a platform admin/);
    expect((await t.db.select().from(users).where(eq(users.id, gave.source.id))).length).toBe(1);
    expect((await mergeOf(t, admin.token, gave.source.id, gave.into.id)).status).toBe(200);

    const signsIn = await world(t);
    await createSession(t.db, signsIn.source.id);
    const orgAdmin2 = await signedIn(t.db, 'org_admin', { organizationIds: [signsIn.orgX] });
    expect((await mergeOf(t, orgAdmin2.token, signsIn.source.id, signsIn.into.id)).status).toBe(403);
    expect(await t.db.select().from(donations).where(eq(donations.donorId, signsIn.source.id))).toHaveLength(2);
  });

  it('is all or nothing: when the last step fails, no gift has moved and no audit row is written', {
    timeout: 30_000,
  }, async () => {
    const t = await setupTestApp();
    const w = await world(t);
    const admin = await signedIn(t.db, 'admin');
    const [appeal] = await t.db
      .insert(campaigns)
      .values({
        title: 'Appeal by the duplicate',
        description: 'x',
        goal: 1000,
        campaignId: w.campaignX,
        organizationId: w.orgX,
        createdBy: w.source.id,
      })
      .returning();
    // A trigger refuses to delete the merged record: the batch's last statement fails after every move before it ran.
    await t.db.run(
      sql.raw(
        `CREATE TRIGGER merge_test_refuse BEFORE DELETE ON users WHEN OLD.id = '${w.source.id}' BEGIN SELECT RAISE(ABORT, 'refused by test'); END`,
      ),
    );
    const logged = vi.spyOn(console, 'error').mockImplementation(() => {});
    const res = await mergeOf(t, admin.token, w.source.id, w.into.id);
    expect(res.status).toBe(500);
    expect(await res.json()).toEqual({ statusCode: 500, message: expect.any(String) });
    expect(logged).toHaveBeenCalled();
    logged.mockRestore();
    expect((await t.db.select().from(donations).where(eq(donations.donorId, w.source.id))).length).toBe(2);
    expect((await t.db.select().from(monthlyGifts).where(eq(monthlyGifts.id, w.monthlyId)))[0].donorId).toBe(
      w.source.id,
    );
    expect((await t.db.select().from(campaigns).where(eq(campaigns.id, appeal.id)))[0].createdBy).toBe(w.source.id);
    expect(await t.db.select().from(auditLog).where(eq(auditLog.targetId, w.into.id))).toHaveLength(0);
    expect(await t.db.select().from(users).where(eq(users.id, w.source.id))).toHaveLength(1);
  });
});
