/// <reference types="vite/client" />
import type { InferRequestType } from 'hono/client';
import { eq, sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import migration from '../../../db/migrations/0005_gift_aid.sql?raw';
import { auditLog, giftAidDeclarations } from '../../../db/schema';
import { createGiftAidDeclaration, createOrganization, createUser, signedIn } from '../../../tests/factories';
import { bodyOf, engineName, errorOf, setupTestApp, type TestApp, type TestClient } from '#test-app';

/** The backfill statements of migration 0005, run again over rows shaped like before it. */
type GiftAidDetailsInput = InferRequestType<TestClient['api']['gift-aid']['declarations'][':id']['$put']>['json'];

const backfill = migration
  .split('--> statement-breakpoint')
  .map((s) => s.trim())
  .filter((s) => s.startsWith('UPDATE `gift_aid_declarations`'));

const LEGACY = [
  {
    id: 'a0000000-0000-4000-8000-000000000001',
    fullName: 'Ann Lee',
    homeAddress: '12 High Street, Leeds',
    postcode: 'LS1 4AP',
  },
  {
    id: 'a0000000-0000-4000-8000-000000000002',
    fullName: 'Mary Ann Smith-Jones',
    homeAddress: '4, Mill Lane',
    postcode: 'M1 1AE',
  },
  {
    id: 'a0000000-0000-4000-8000-000000000003',
    fullName: 'Dr Raj Patel',
    homeAddress: 'Rose Cottage, Church Road, York',
    postcode: 'YO1 7HH',
  },
  { id: 'a0000000-0000-4000-8000-000000000004', fullName: 'Cher', homeAddress: 'The Old Mill', postcode: 'EH1 1YZ' },
];

describe(`Gift Aid migration backfill and review (${engineName})`, () => {
  let t: TestApp;
  let admin: string;
  let orgAdmin: string;

  beforeAll(async () => {
    t = await setupTestApp();
    admin = (await signedIn(t.db, 'admin')).token;
    orgAdmin = (await signedIn(t.db, 'org_admin')).token;
    const donor = await createUser(t.db);
    for (const row of LEGACY) {
      await createGiftAidDeclaration(t.db, {
        ...row,
        donorId: donor.id,
        declarationText: 'old wording',
        createdAt: new Date('2024-05-01T10:00:00Z'),
      });
      // Before 0005 these columns did not exist: blank them as the ALTERs' defaults left them.
      await t.db.run(
        sql`update gift_aid_declarations set first_name = '', last_name = '', house = '', address = '', declared_at = 0 where id = ${row.id}`,
      );
    }
    expect(backfill).toHaveLength(2);
    for (const statement of backfill) await t.db.run(sql.raw(statement));
  });

  const review = async (token: string) => bodyOf(await t.client(token).api['gift-aid'].declarations.review.$get(), 200);
  const correct = (token: string, id: string, json: GiftAidDetailsInput) =>
    t.client(token).api['gift-aid'].declarations[':id'].$put({ param: { id }, json });

  it('splits names and addresses where it can be sure, and flags the rest for review', async () => {
    const rows = new Map((await t.db.select().from(giftAidDeclarations)).map((r) => [r.id, r]));
    expect(rows.get(LEGACY[0].id)).toMatchObject({
      firstName: 'Ann',
      lastName: 'Lee',
      house: '12',
      address: 'High Street, Leeds',
      needsReview: false,
    });
    expect(rows.get(LEGACY[0].id)?.declaredAt.toISOString()).toBe('2024-05-01T10:00:00.000Z');
    expect(rows.get(LEGACY[1].id)).toMatchObject({
      firstName: 'Mary',
      lastName: 'Ann Smith-Jones',
      house: '4',
      address: 'Mill Lane',
      needsReview: true,
    });
    expect(rows.get(LEGACY[2].id)).toMatchObject({
      firstName: 'Dr',
      house: 'Rose Cottage',
      address: 'Church Road, York',
      needsReview: true,
    });
    expect(rows.get(LEGACY[3].id)).toMatchObject({ firstName: 'Cher', lastName: '', house: '', needsReview: true });
  });

  it('lists flagged declarations for admins; an admin correction clears the flag, bad input changes nothing', async () => {
    const flagged = await review(admin);
    expect(flagged.map((d) => d._id).sort()).toEqual([LEGACY[1].id, LEGACY[2].id, LEGACY[3].id].sort());

    const id = LEGACY[2].id;
    const fix = {
      title: 'Dr',
      first_name: 'Raj',
      last_name: 'Patel',
      house: 'Rose Cottage',
      address: 'Church Road, York',
      postcode: 'YO1 7HH',
    };
    // A migrated declaration names no organization: only admins may correct it.
    expect((await correct(orgAdmin, id, fix)).status).toBe(404);
    const bad = await correct(admin, id, { ...fix, title: 'Doctor' });
    expect((await errorOf(bad, 400)).message).toMatch(/^title:/);
    const [unchanged] = await t.db.select().from(giftAidDeclarations).where(eq(giftAidDeclarations.id, LEGACY[2].id));
    expect(unchanged).toMatchObject({ firstName: 'Dr', needsReview: true });

    const ok = await correct(admin, id, fix);
    expect(await bodyOf(ok, 200)).toMatchObject({
      title: 'Dr',
      first_name: 'Raj',
      last_name: 'Patel',
      needs_review: false,
    });
    const after = await review(admin);
    expect(after.map((d) => d._id)).not.toContain(LEGACY[2].id);
  });

  it("lets an organization admin review and correct its own organization's flagged declarations only", async () => {
    const org = await createOrganization(t.db);
    const other = await createOrganization(t.db);
    const mine = (await signedIn(t.db, 'org_admin', { organizationIds: [org.id] })).token;
    const theirs = (await signedIn(t.db, 'org_admin', { organizationIds: [other.id] })).token;
    const donor = await createUser(t.db);
    const flagged = await createGiftAidDeclaration(t.db, {
      donorId: donor.id,
      fullName: 'Jo Bloggs',
      homeAddress: '5 Hill Road',
      declarationText: 'old wording',
      organizationId: org.id,
      needsReview: true,
    });
    const listed = async (token: string) => (await review(token)).map((d) => d._id);
    expect(await listed(mine)).toEqual([flagged.id]);
    expect(await listed(theirs)).toEqual([]);
    const fix = { first_name: 'Jo', last_name: 'Bloggs', house: '5', address: 'Hill Road', postcode: 'LS1 4AP' };
    expect((await correct(theirs, flagged.id, fix)).status).toBe(404);
    const ok = await correct(mine, flagged.id, fix);
    expect(await bodyOf(ok, 200)).toMatchObject({ first_name: 'Jo', house: '5', needs_review: false });
    // The one-line name and address follow, and the correction is in the audit log with both sides.
    const [row] = await t.db.select().from(giftAidDeclarations).where(eq(giftAidDeclarations.id, flagged.id));
    expect(row).toMatchObject({ fullName: 'Jo Bloggs', homeAddress: '5, Hill Road', postcode: 'LS1 4AP' });
    const [audit] = await t.db.select().from(auditLog).where(eq(auditLog.targetId, flagged.id));
    expect(audit).toMatchObject({ action: 'declaration.correct', organizationId: org.id });
    expect(audit.changes).toMatchObject({ homeAddress: ['5 Hill Road', '5, Hill Road'], needsReview: [true, false] });

    // Once corrected (or never flagged), a declaration is what the donor declared: not rewritten here.
    const again = await correct(mine, flagged.id, { ...fix, first_name: 'Someone', last_name: 'Else' });
    expect((await errorOf(again, 409)).message).toMatch(/Only a declaration flagged for review/);
    const unflagged = await createGiftAidDeclaration(t.db, {
      donorId: donor.id,
      fullName: 'Jo Bloggs',
      homeAddress: '5 Hill Road',
      declarationText: 'I want to Gift Aid',
      organizationId: org.id,
    });
    const finance = (await signedIn(t.db, 'finance', { organizationIds: [org.id] })).token;
    for (const token of [mine, finance]) {
      const rewrite = await correct(token, unflagged.id, { ...fix, first_name: 'Someone', last_name: 'Else' });
      expect((await errorOf(rewrite, 409)).message).toMatch(/new version/);
    }
    const [kept] = await t.db.select().from(giftAidDeclarations).where(eq(giftAidDeclarations.id, unflagged.id));
    expect(kept).toMatchObject({ fullName: 'Jo Bloggs' });
    expect(await t.db.select().from(auditLog).where(eq(auditLog.targetId, unflagged.id))).toEqual([]);
  });
});
