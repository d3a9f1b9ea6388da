import { eq, inArray } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import * as schema from '../../../db/schema';
import {
  addOrganizationAdmin,
  createCampaign,
  createGiftAidDeclaration,
  createDonation,
  createOrganization,
  createSession,
  createUser,
  type DonationFields,
} from '../../../tests/factories';
import { bodyOf, createEngineBucket, engineName, setupTestApp } from '#test-app';
import { createPaymentProvider } from '../payments';
import { HOUSEKEEPING, runHousekeeping } from './run';

const HOUR = 60 * 60 * 1000;
const demoPayments = createPaymentProvider({
  stripeSecretKey: null,
  stripeApiBase: null,
  stripePublishableKey: null,
  authSecret: 'test-secret',
  production: false,
});
const DAY = 24 * HOUR;
const PNG = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 1, 2, 3]);
const key = () => `campaigns/${crypto.randomUUID()}.png`;

describe(`housekeeping (${engineName})`, () => {
  it('abandons pending checkouts older than 24 hours (never in totals), once', async () => {
    const t = await setupTestApp();
    const now = new Date();
    const campaign = await createCampaign(t.db);
    const donor = await createUser(t.db);
    const gift = (hoursAgo: number, fields: Omit<DonationFields, 'donorId' | 'campaignId'>) =>
      createDonation(t.db, {
        donorId: donor.id,
        campaignId: campaign.id,
        createdAt: new Date(now.getTime() - hoursAgo * HOUR),
        ...fields,
      });
    const stale = await gift(25, { status: 'pending', source: 'demo', amount: 700 });
    const fresh = await gift(23, { status: 'pending', source: 'demo', amount: 800 });
    const paid = await gift(50, { status: 'succeeded', amount: 900 });

    const first = await runHousekeeping({ db: t.db, payments: demoPayments, now });
    expect(first.abandoned).toBe(1);
    const statuses = Object.fromEntries(
      (
        await t.db
          .select()
          .from(schema.donations)
          .where(inArray(schema.donations.id, [stale.id, fresh.id, paid.id]))
      ).map((r) => [r.id, r.status]),
    );
    expect(statuses).toEqual({ [stale.id]: 'abandoned', [fresh.id]: 'pending', [paid.id]: 'succeeded' });
    // Abandoned gifts are not in the campaign's total.
    const campaignDto = await bodyOf(await t.client().api.campaigns[':id'].$get({ param: { id: campaign.id } }), 200);
    expect(campaignDto.summary.total_donations).toBe(900);

    const second = await runHousekeeping({ db: t.db, payments: demoPayments, now });
    expect(second.abandoned).toBe(0);
    expect(Object.values(second).every((n) => n === 0)).toBe(true);
  });

  it('a payment that arrives after its checkout was abandoned still counts', async () => {
    const t = await setupTestApp();
    const campaign = await createCampaign(t.db);
    const api = t.client().api;
    const res = await api.stripe.client_secret.$post({
      json: { email: `late-${crypto.randomUUID().slice(0, 6)}@example.org`, amount: 1200, campaign_id: campaign.id },
    });
    const { clientSecret } = await bodyOf(res, 200);
    await t.db
      .update(schema.donations)
      .set({ createdAt: new Date(Date.now() - 2 * DAY) })
      .where(eq(schema.donations.campaignId, campaign.id));
    expect((await runHousekeeping({ db: t.db, payments: demoPayments, now: new Date() })).abandoned).toBe(1);
    const confirm = await api.stripe.demo.confirm.$post({ json: { clientSecret, card: 'success' } });
    expect(await confirm.json()).toEqual({ status: 'succeeded' });
    const dto = await bodyOf(await api.campaigns[':id'].$get({ param: { id: campaign.id } }), 200);
    expect(dto.summary.total_donations).toBe(1200);
  });

  it('after 30 days removes abandoned checkouts, their Gift Aid details and donors that only ever checked out', async () => {
    const t = await setupTestApp();
    const now = new Date();
    const old = new Date(now.getTime() - 31 * DAY);
    const campaign = await createCampaign(t.db);
    // A donor made by an abandoned checkout, with Gift Aid details.
    const ghost = await createUser(t.db, { origin: 'checkout', createdAt: old });
    const declaration = await createGiftAidDeclaration(t.db, {
      donorId: ghost.id,
      fullName: 'Ghost Donor',
      homeAddress: '1 Nowhere Lane',
      postcode: 'SW1A 1AA',
      createdAt: old,
    });
    await createDonation(t.db, {
      donorId: ghost.id,
      campaignId: campaign.id,
      status: 'abandoned',
      source: 'card',
      giftAidDeclarationId: declaration.id,
      createdAt: old,
      updatedAt: old,
    });
    // Kept: a checkout donor who paid once; one who signed in; a checkout donor abandoned only 10 days ago.
    const payer = await createUser(t.db, { origin: 'checkout', createdAt: old });
    await createDonation(t.db, { donorId: payer.id, campaignId: campaign.id, status: 'succeeded', createdAt: old });
    await createDonation(t.db, {
      donorId: payer.id,
      campaignId: campaign.id,
      status: 'abandoned',
      createdAt: old,
      updatedAt: old,
    });
    const account = await createUser(t.db, { origin: 'account', createdAt: old });
    const recent = await createUser(t.db, { origin: 'checkout', createdAt: old });
    const recentGift = await createDonation(t.db, {
      donorId: recent.id,
      campaignId: campaign.id,
      status: 'abandoned',
      createdAt: old,
      updatedAt: new Date(now.getTime() - 10 * DAY),
    });
    const staff = await createUser(t.db, { origin: 'checkout', type: 'org_admin', createdAt: old });
    const org = await createOrganization(t.db);
    await addOrganizationAdmin(t.db, org.id, staff.id);

    const counts = await runHousekeeping({ db: t.db, payments: demoPayments, now });
    expect(counts).toMatchObject({ abandoned_purged: 2, gift_aid_declarations_purged: 1, checkout_donors_expired: 1 });
    const left = new Set((await t.db.select({ id: schema.users.id }).from(schema.users)).map((u) => u.id));
    expect(left.has(ghost.id)).toBe(false);
    for (const kept of [payer, account, recent, staff]) expect(left.has(kept.id)).toBe(true);
    expect(
      await t.db.select().from(schema.giftAidDeclarations).where(eq(schema.giftAidDeclarations.id, declaration.id)),
    ).toHaveLength(0);
    expect(await t.db.select().from(schema.donations).where(eq(schema.donations.id, recentGift.id))).toHaveLength(1);
    expect(
      await t.db.select().from(schema.organizationAdmins).where(eq(schema.organizationAdmins.userId, staff.id)),
    ).toHaveLength(1);
    expect(Object.values(await runHousekeeping({ db: t.db, payments: demoPayments, now })).every((n) => n === 0)).toBe(
      true,
    );
  });

  it('deletes stored images no record has used for 7 days, and keeps the rest', async () => {
    const t = await setupTestApp();
    const bucket = createEngineBucket();
    const [inCampaign, asLogo, asAvatar, orphan, reused] = [key(), key(), key(), key(), key()];
    for (const k of [inCampaign, asLogo, asAvatar, orphan, reused]) await bucket.put(k, PNG);
    await bucket.put('not-ours/readme.txt', 'x');
    await createCampaign(t.db, { images: [{ Key: inCampaign, name: 'a.png', size: 3, type: 'image/png' }] });
    await createOrganization(t.db, { image: asLogo });
    await createUser(t.db, { avatar: asAvatar });

    const day0 = new Date();
    const first = await runHousekeeping({ db: t.db, bucket, payments: demoPayments, now: day0 });
    expect(first).toMatchObject({ images_unused: 2, images_deleted: 0 });
    expect((await t.db.select().from(schema.unusedImages)).map((r) => r.key).sort()).toEqual([orphan, reused].sort());

    // Used again before the week is out: forgotten, not deleted.
    await createCampaign(t.db, { images: [{ Key: reused, name: 'b.png', size: 3, type: 'image/png' }] });
    const day6 = await runHousekeeping({
      db: t.db,
      bucket,
      payments: demoPayments,
      now: new Date(day0.getTime() + 6 * DAY),
    });
    expect(day6).toMatchObject({ images_unused: 1, images_deleted: 0 });

    const day7 = await runHousekeeping({
      db: t.db,
      bucket,
      payments: demoPayments,
      now: new Date(day0.getTime() + HOUSEKEEPING.unusedImageMs),
    });
    expect(day7.images_deleted).toBe(1);
    expect(await bucket.head(orphan)).toBeNull();
    for (const k of [inCampaign, asLogo, asAvatar, reused]) expect(await bucket.head(k)).not.toBeNull();
    expect(await bucket.head('not-ours/readme.txt')).not.toBeNull();
    expect(await t.db.select().from(schema.unusedImages)).toHaveLength(0);

    const again = await runHousekeeping({
      db: t.db,
      bucket,
      payments: demoPayments,
      now: new Date(day0.getTime() + 8 * DAY),
    });
    expect(again).toMatchObject({ images_unused: 0, images_deleted: 0 });
  });

  it('purges expired sessions and login codes, finished rate-limit windows and outbox rows older than 30 days', async () => {
    const t = await setupTestApp();
    const now = new Date();
    const user = await createUser(t.db);
    const live = await createSession(t.db, user.id, now);
    await createSession(t.db, user.id, new Date(now.getTime() - 40 * DAY));
    const revoked = await createSession(t.db, user.id, now);
    await t.db.update(schema.sessions).set({ revokedAt: now }).where(eq(schema.sessions.userId, user.id));
    await t.db
      .update(schema.sessions)
      .set({ revokedAt: null })
      .where(inArray(schema.sessions.tokenHash, [await hashOf(live)]));
    expect(revoked).toBeTruthy();
    await t.db.insert(schema.loginCodes).values([
      {
        email: 'a@example.org',
        codeHash: 'x',
        expiresAt: new Date(now.getTime() - 1000),
        createdAt: new Date(now.getTime() - 11 * 60_000),
      },
      { email: 'a@example.org', codeHash: 'y', expiresAt: new Date(now.getTime() + 60_000), createdAt: now },
    ]);
    await t.db.insert(schema.rateLimits).values([
      { key: 'send:ip:old', windowStart: new Date(now.getTime() - 25 * HOUR), count: 3 },
      { key: 'send:ip:live', windowStart: new Date(now.getTime() - HOUR), count: 3 },
    ]);
    await t.db.insert(schema.outbox).values([
      { to: 'a@example.org', subject: 'old', text: 't', html: 'h', createdAt: new Date(now.getTime() - 31 * DAY) },
      { to: 'a@example.org', subject: 'new', text: 't', html: 'h', createdAt: now },
    ]);

    const counts = await runHousekeeping({ db: t.db, payments: demoPayments, now });
    expect(counts).toMatchObject({
      sessions_purged: 2,
      login_codes_purged: 1,
      rate_limits_purged: 1,
      outbox_purged: 1,
    });
    expect((await t.client(live).api.auth.$get()).status).toBe(200);
    expect((await t.db.select().from(schema.loginCodes)).map((r) => r.codeHash)).toEqual(['y']);
    expect((await t.db.select().from(schema.rateLimits)).map((r) => r.key)).toEqual(['send:ip:live']);
    // Earlier tests' gifts left receipts in the outbox: only this test's rows are checked.
    expect(
      (await t.db.select().from(schema.outbox).where(eq(schema.outbox.to, 'a@example.org'))).map((r) => r.subject),
    ).toEqual(['new']);
    expect(Object.values(await runHousekeeping({ db: t.db, payments: demoPayments, now })).every((n) => n === 0)).toBe(
      true,
    );
  });
});

describe(`housekeeping of a guest checkout never paid (${engineName})`, () => {
  it('leaves no trace on the account whose email was typed, and deletes the checkout with its details', async () => {
    const t = await setupTestApp();
    const campaign = await createCampaign(t.db);
    const victim = await createUser(t.db, { email: `victim.${crypto.randomUUID().slice(0, 8)}@example.org` });
    const token = await createSession(t.db, victim.id);
    const res = await t.client().api.stripe.client_secret.$post({
      json: {
        email: victim.email,
        amount: 1500,
        campaign_id: campaign.id,
        giftAid: true,
        gift_aid: {
          first_name: 'Mallory',
          last_name: 'Stranger',
          house: '99',
          address: 'Fake Street, Leeds',
          postcode: 'LS1 4AP',
        },
        marketing_consent: true,
        first_name: 'Mallory',
        last_name: 'Stranger',
      },
    });
    expect(res.status).toBe(200);
    const [gift] = await t.db.select().from(schema.donations).where(eq(schema.donations.donorId, victim.id));
    expect(await bodyOf(await t.client(token).api['gift-aid'].me.$get(), 200)).toEqual({
      active: false,
      declarations: [],
    });

    const later = new Date(Date.now() + 25 * HOUR);
    await runHousekeeping({ db: t.db, payments: demoPayments, now: later });
    await runHousekeeping({ db: t.db, payments: demoPayments, now: new Date(later.getTime() + 31 * DAY) });
    expect(await t.db.select().from(schema.donations).where(eq(schema.donations.id, gift.id))).toEqual([]);
    expect(
      await t.db.select().from(schema.checkoutDetails).where(eq(schema.checkoutDetails.donationId, gift.id)),
    ).toEqual([]);
    expect(
      await t.db.select().from(schema.giftAidDeclarations).where(eq(schema.giftAidDeclarations.donorId, victim.id)),
    ).toEqual([]);
    expect(
      await t.db.select().from(schema.marketingConsents).where(eq(schema.marketingConsents.userId, victim.id)),
    ).toEqual([]);
    const [account] = await t.db.select().from(schema.users).where(eq(schema.users.id, victim.id));
    expect(account).toMatchObject({ firstName: victim.firstName, lastName: victim.lastName });
  });
});

async function hashOf(token: string) {
  const { sha256Hex } = await import('../auth/sessions');
  return sha256Hex(token);
}
