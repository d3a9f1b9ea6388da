import { and, eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { auditLog, outbox, rateLimits } from '../../../db/schema';
import { createCampaign, createDonation, createOrganization, createUser, signedIn } from '../../../tests/factories';
import { engineName, errorOf, setupTestApp, type TestApp } from '#test-app';

let t: TestApp;
beforeAll(async () => {
  t = await setupTestApp();
});

/** A donor's paid £25 gift to an organization with an org admin, a finance user and an outsider org admin. */
async function world() {
  const org = await createOrganization(t.db);
  const other = await createOrganization(t.db);
  const campaign = await createCampaign(t.db, { organizationId: org.id, title: 'Clean water for Kibera' });
  const donor = await signedIn(t.db, 'donor', { overrides: { firstName: 'Ada' } });
  const gift = await createDonation(t.db, { donorId: donor.user.id, campaignId: campaign.id, amount: 2500 });
  return {
    org,
    campaign,
    donor,
    gift,
    orgAdmin: await signedIn(t.db, 'org_admin', { organizationIds: [org.id] }),
    finance: await signedIn(t.db, 'finance', { organizationIds: [org.id] }),
    outsider: await signedIn(t.db, 'org_admin', { organizationIds: [other.id] }),
    otherDonor: await signedIn(t.db, 'donor'),
  };
}

const resend = (id: string, token?: string) => t.client(token).api.donations[':id'].receipt.$post({ param: { id } });
// Filtered here: D1 refuses LIKE patterns longer than 50 bytes.
const copies = async (id: string) =>
  (await t.db.select().from(outbox)).filter((row) => row.key?.startsWith(`receipt-copy:${id}:`));
/** Lets the next copy go, as if 10 minutes had passed. */
const windowPassed = (id: string) => t.db.delete(rateLimits).where(eq(rateLimits.key, `receipt-resend:${id}`));

describe(`POST /api/donations/{id}/receipt (${engineName})`, () => {
  it('emails the donor their own receipt again, once per 10 minutes per gift, without an audit row', async () => {
    const w = await world();
    const res = await resend(w.gift.id, w.donor.token);
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({ sent_to: w.donor.user.email });
    const [copy] = await copies(w.gift.id);
    expect(copy).toMatchObject({ to: w.donor.user.email });
    expect(copy.subject).toMatch(/^Your receipt: £25\.00 to /);
    expect(copy.text).toContain('Clean water for Kibera');

    // At once again, by the donor or their charity's staff: 429 with when to try, and no second email.
    const again = await resend(w.gift.id, w.orgAdmin.token);
    expect(again.status).toBe(429);
    expect(Number(again.headers.get('retry-after'))).toBeGreaterThan(500);
    expect((await errorOf(again, 429)).message).toMatch(/emailed a few minutes ago.*try again in 10 minutes/);
    expect(await copies(w.gift.id)).toHaveLength(1);
    expect(
      await t.db.select().from(auditLog).where(eq(auditLog.targetId, w.gift.id)),
      'a donor asking for their own receipt is not a staff action',
    ).toHaveLength(0);
  });

  it('lets the gift’s organization staff send it, audited; others get a 404 and nothing is sent', async () => {
    const w = await world();
    for (const who of [w.otherDonor, w.outsider]) {
      const res = await resend(w.gift.id, who.token);
      expect((await errorOf(res, 404)).message).toBe('Donation Not Found');
    }
    expect((await resend(w.gift.id)).status).toBe(401);
    expect(await copies(w.gift.id)).toHaveLength(0);

    expect((await resend(w.gift.id, w.orgAdmin.token)).status).toBe(200);
    await windowPassed(w.gift.id);
    expect((await resend(w.gift.id, w.finance.token)).status).toBe(200);
    expect(await copies(w.gift.id)).toHaveLength(2);
    const audit = await t.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.targetId, w.gift.id), eq(auditLog.action, 'donation.receipt_resent')));
    expect(audit.map((a) => a.actorId).sort()).toEqual([w.orgAdmin.user.id, w.finance.user.id].sort());
    expect(audit[0]).toMatchObject({ targetType: 'donation', organizationId: w.org.id });
  });

  it('answers 409 for a gift with no receipt or a donor with no email, and 404 for an unknown id', async () => {
    const w = await world();
    for (const status of ['pending', 'failed', 'refunded'] as const) {
      const gift = await createDonation(t.db, { donorId: w.donor.user.id, campaignId: w.campaign.id, status });
      const res = await resend(gift.id, w.donor.token);
      expect(res.status, status).toBe(409);
      expect((await errorOf(res, 409)).message).toMatch(/no receipt to send/);
    }
    const noEmail = await createUser(t.db, { email: `cash-${crypto.randomUUID()}@no-email.invalid` });
    const cash = await createDonation(t.db, { donorId: noEmail.id, campaignId: w.campaign.id });
    const res = await resend(cash.id, w.orgAdmin.token);
    expect((await errorOf(res, 409)).message).toMatch(/no email address/);
    expect((await resend(crypto.randomUUID(), w.orgAdmin.token)).status).toBe(404);
    expect((await resend('not-an-id', w.donor.token)).status).toBe(404);
  });

  it('sends one copy when the same gift is asked for twice at once', async () => {
    const w = await world();
    const answers = await Promise.all([resend(w.gift.id, w.donor.token), resend(w.gift.id, w.orgAdmin.token)]);
    expect(answers.map((r) => r.status).sort()).toEqual([200, 429]);
    expect(await copies(w.gift.id)).toHaveLength(1);
  });
});
