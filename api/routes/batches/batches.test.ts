import { and, eq, inArray, sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { auditLog, campaigns, donationBatches, donations, outbox, users } from '../../../db/schema';
import { londonMidnight } from '../../../domain/dates';
import {
  createCharity,
  createGiftAidDeclaration,
  createDonation,
  createUser,
  signedIn,
  type SignedIn,
} from '../../../tests/factories';
import { engineName, setupTestApp, type TestApp } from '../../../tests/setup/test-app';

type Line = {
  _id: string;
  line: number;
  donor_id: string;
  amount: number;
  campaign_id: string;
  general_fund: boolean;
  gift_aid: boolean;
  reference: string | null;
};
type Batch = {
  _id: string;
  organization_id: string;
  method: string;
  expected_total: number;
  gift_count: number;
  gifts: Line[];
};
type Problem = { statusCode: number; message: string };

describe(`batch entry of offline income (${engineName})`, () => {
  let t: TestApp;
  let orgX: string;
  let orgY: string;
  let campaignX: string;
  let appealX: string;
  let campaignY: string;
  let orgAdmin: SignedIn;
  let otherOrgAdmin: SignedIn;
  let finance: SignedIn;
  let donor: SignedIn;
  let knownDonorId: string;
  let run = 0;

  beforeAll(async () => {
    t = await setupTestApp();
    const x = await createCharity(t.db, { organization: { name: 'Batch X' }, appeal: {} });
    const y = await createCharity(t.db, { organization: { name: 'Batch Y' } });
    [orgX, campaignX, appealX] = [x.org.id, x.campaign.id, x.appeal.id];
    [orgY, campaignY] = [y.org.id, y.campaign.id];
    orgAdmin = await signedIn(t.db, 'org_admin', { organizationIds: [orgX] });
    otherOrgAdmin = await signedIn(t.db, 'org_admin', { organizationIds: [orgY] });
    finance = await signedIn(t.db, 'finance', { organizationIds: [orgX] });
    donor = await signedIn(t.db, 'donor');
    knownDonorId = (await createUser(t.db, { firstName: 'Known', lastName: 'Giver' })).id;
    // Org admins pick among their organization's donors: this one gave before.
    await createDonation(t.db, { donorId: knownDonorId, campaignId: campaignX, amount: 1_000, status: 'succeeded' });
  });

  const key = () => `batch-key-${engineName}-${Date.now()}-${++run}`;
  const post = (json: unknown, { token = orgAdmin.token, idempotencyKey = key() as string | null } = {}) =>
    t.request('/api/donations/batches', {
      method: 'POST',
      token,
      json,
      headers: idempotencyKey ? { 'Idempotency-Key': idempotencyKey } : {},
    });
  const threeCheques = (overrides: Record<string, unknown> = {}) => ({
    organization_id: orgX,
    method: 'cheque',
    banked_on: '2026-03-31',
    reference: 'Paying-in slip 104',
    expected_total: 2_500 + 10_000 + 1_234,
    gifts: [
      { donor_id: knownDonorId, amount: 2_500, campaign_id: campaignX, reference: 'chq 000101' },
      {
        donor: {
          first_name: 'Nora',
          last_name: 'New',
          email: `nora-${engineName}-${++run}@example.com`,
          address: '1 High Street',
          postcode: 'AB1 2CD',
        },
        amount: 10_000,
        appeal_id: appealX,
        send_receipt: true,
      },
      { donor: { first_name: 'Cash', last_name: 'Only' }, amount: 1_234 },
    ],
    ...overrides,
  });
  const batchRows = (organizationId: string) =>
    t.db.select().from(donationBatches).where(eq(donationBatches.organizationId, organizationId));

  it('posts a batch of three cheques: three succeeded batch gifts dated the banked day, new donors, one audit row, a receipt', async () => {
    const body = threeCheques();
    const res = await post(body);
    expect(res.status).toBe(201);
    const batch = (await res.json()) as Batch;
    expect(batch).toMatchObject({ organization_id: orgX, method: 'cheque', expected_total: 13_734, gift_count: 3 });
    expect(batch.gifts.map((g) => [g.line, g.amount])).toEqual([
      [1, 2_500],
      [2, 10_000],
      [3, 1_234],
    ]);
    const rows = await t.db.select().from(donations).where(eq(donations.batchId, batch._id));
    expect(rows).toHaveLength(3);
    for (const row of rows) {
      expect(row).toMatchObject({
        status: 'succeeded',
        source: 'batch',
        method: 'cheque',
        type: 'once',
        giftAid: false,
      });
      expect(row.date.getTime()).toBe(londonMidnight('2026-03-31').getTime());
    }
    const byAmount = new Map(rows.map((r) => [r.amount, r]));
    expect(byAmount.get(2_500)).toMatchObject({
      donorId: knownDonorId,
      campaignId: campaignX,
      appealId: null,
      reference: 'chq 000101',
    });
    expect(byAmount.get(10_000)).toMatchObject({ campaignId: campaignX, appealId: appealX });
    // The new donors exist; the one without an email has an address that never delivers.
    const nora = (
      await t.db
        .select()
        .from(users)
        .where(eq(users.id, byAmount.get(10_000)!.donorId))
    )[0];
    expect(nora).toMatchObject({
      firstName: 'Nora',
      lastName: 'New',
      email: body.gifts[1].donor!.email,
      address: '1 High Street',
      postalCode: 'AB1 2CD',
    });
    const cash = (
      await t.db
        .select()
        .from(users)
        .where(eq(users.id, byAmount.get(1_234)!.donorId))
    )[0];
    expect(cash.email).toMatch(/@donors\.invalid$/);
    // No campaign: the organization's general fund, a campaign row of kind general_fund.
    const fund = (
      await t.db
        .select()
        .from(campaigns)
        .where(eq(campaigns.id, byAmount.get(1_234)!.campaignId))
    )[0];
    expect(fund).toMatchObject({
      organizationId: orgX,
      kind: 'general_fund',
      fundRestricted: false,
      status: 'approved',
    });
    expect(batch.gifts[2]).toMatchObject({ general_fund: true });
    const audit = await t.db.select().from(auditLog).where(eq(auditLog.targetId, batch._id));
    expect(audit.map((a) => [a.action, a.actorId, a.organizationId])).toEqual([
      ['batch.create', orgAdmin.user.id, orgX],
    ]);
    const mail = await t.db.select().from(outbox).where(eq(outbox.to, nora.email));
    expect(mail).toHaveLength(1);
    // Read back: the list and the batch with its lines.
    const list = (await (await t.request('/api/donations/batches', { token: finance.token })).json()) as {
      _id: string;
    }[];
    expect(list.map((b) => b._id)).toContain(batch._id);
    const one = await t.request(`/api/donations/batches/${batch._id}`, { token: finance.token });
    expect(one.status).toBe(200);
    expect(((await one.json()) as Batch).gifts.map((g) => g._id)).toEqual(batch.gifts.map((g) => g._id));
    expect((await t.request(`/api/donations/batches/${batch._id}`, { token: otherOrgAdmin.token })).status).toBe(404);
    const othersList = (await (await t.request('/api/donations/batches', { token: otherOrgAdmin.token })).json()) as {
      _id: string;
    }[];
    expect(othersList.map((b) => b._id)).not.toContain(batch._id);
  });

  it('says how a batch gift was paid in the staff list, the donations CSV and its page (Cheque, not Card), and links its batch', async () => {
    const batch = (await (await post(threeCheques({ reference: 'Paying-in slip 105' }))).json()) as Batch;
    const list = await t.request(`/api/donations?campaign_id=${campaignX}&limit=100`, { token: finance.token });
    expect(list.status).toBe(200);
    const ids = new Set(batch.gifts.map((g) => g._id));
    const mine = ((await list.json()) as { _id: string; payment_method: string | null }[]).filter((d) =>
      ids.has(d._id),
    );
    expect(mine.map((d) => d.payment_method)).toEqual(['cheque', 'cheque']);
    const csv = await (await t.request('/api/exports/donations.csv', { token: finance.token })).text();
    const lines = csv.split(/\r?\n/).filter((line) => [...ids].some((id) => line.includes(id)));
    expect(lines).toHaveLength(3);
    for (const line of lines) expect(line).toMatch(/,batch,Cheque,/);
    // The gift's page links back to the batch it was banked in.
    const story = await t.request(`/api/donations/${batch.gifts[0]._id}/story`, { token: finance.token });
    expect(story.status).toBe(200);
    expect(await story.json()).toMatchObject({ batch_id: batch._id, payment_method: 'cheque' });
  });

  it('refuses a batch whose lines do not add up to the expected total, storing nothing', async () => {
    const before = (await batchRows(orgX)).length;
    const body = threeCheques({ expected_total: 13_700 });
    const res = await post(body);
    expect(res.status).toBe(400);
    expect(((await res.json()) as Problem).message).toMatch(/^expected_total: the 3 gifts add up to £137\.34/);
    expect((await batchRows(orgX)).length).toBe(before);
    expect(await t.db.select().from(users).where(eq(users.email, body.gifts[1].donor!.email!))).toEqual([]);
  });

  it('says once, in pounds, which figure is too large or does not add up, storing nothing', async () => {
    const before = (await batchRows(orgX)).length;
    const [line] = threeCheques().gifts;
    const huge = await post(threeCheques({ expected_total: 100_000_001, gifts: [{ ...line, amount: 100_000_001 }] }));
    expect(huge.status).toBe(400);
    expect(((await huge.json()) as Problem).message).toBe(
      'gifts.0.amount: at most £1,000,000.00; check the figure for a typo',
    );
    const one = await post(threeCheques({ expected_total: 2_400, gifts: [line] }));
    expect(one.status).toBe(400);
    expect(((await one.json()) as Problem).message).toMatch(/^expected_total: the 1 gift comes up to £25\.00 /);
    expect((await batchRows(orgX)).length).toBe(before);
  });

  it('posts a batch once per Idempotency-Key: the same key answers the first batch, another batch under it is 409', async () => {
    const idempotencyKey = key();
    const body = threeCheques();
    const first = await post(body, { idempotencyKey });
    expect(first.status).toBe(201);
    const firstBatch = (await first.json()) as Batch;
    const again = await post(body, { idempotencyKey });
    expect(again.status).toBe(200);
    expect(((await again.json()) as Batch)._id).toBe(firstBatch._id);
    expect(
      await t.db.select().from(donationBatches).where(eq(donationBatches.idempotencyKey, idempotencyKey)),
    ).toHaveLength(1);
    expect(await t.db.select().from(donations).where(eq(donations.batchId, firstBatch._id))).toHaveLength(3);
    const different = await post(
      { ...body, expected_total: 13_735, gifts: [...body.gifts.slice(0, 2), { ...body.gifts[2], amount: 1_235 }] },
      { idempotencyKey },
    );
    expect(different.status).toBe(409);
    expect(((await different.json()) as Problem).message).toMatch(/Idempotency-Key/);
    const missing = await post(body, { idempotencyKey: null });
    expect(missing.status).toBe(400);
    // The header is named once, then what to do.
    expect(((await missing.json()) as Problem).message).toBe(
      'idempotency-key: send a header that names this batch, e.g. a UUID made when the form opened',
    );
    const short = await post(body, { idempotencyKey: 'abc' });
    expect(short.status).toBe(400);
    expect(((await short.json()) as Problem).message).toBe('idempotency-key: use at least 8 characters');
  });

  it("refuses another organization's campaign or appeal, naming the line", async () => {
    const before = (await batchRows(orgX)).length;
    const body = threeCheques();
    body.gifts[1] = { ...body.gifts[1], appeal_id: undefined, campaign_id: campaignY } as (typeof body.gifts)[1];
    const res = await post(body);
    expect(res.status).toBe(400);
    expect(((await res.json()) as Problem).message).toMatch(
      /^gifts\[2\]\.campaign_id: not a campaign of this organization/,
    );
    expect((await batchRows(orgX)).length).toBe(before);
  });

  it('matches a new donor by email instead of creating a second one', async () => {
    const existing = await createUser(t.db, { email: `match-${engineName}-${++run}@example.com` });
    const res = await post({
      organization_id: orgX,
      method: 'cash',
      banked_on: '2026-04-01',
      expected_total: 500,
      gifts: [
        {
          donor: { first_name: 'Someone', last_name: 'Else', email: existing.email.toUpperCase() },
          amount: 500,
          campaign_id: campaignX,
        },
      ],
    });
    expect(res.status).toBe(201);
    expect(((await res.json()) as Batch).gifts[0].donor_id).toBe(existing.id);
    expect(await t.db.select().from(users).where(eq(users.email, existing.email))).toHaveLength(1);
  });

  it('keeps the general fund out of every public list and read', async () => {
    const res = await post({
      organization_id: orgX,
      method: 'cash',
      banked_on: '2026-04-02',
      expected_total: 700,
      gifts: [{ donor_id: knownDonorId, amount: 700 }],
    });
    expect(res.status).toBe(201);
    const fundId = ((await res.json()) as Batch).gifts[0].campaign_id;
    const listed = (await (await t.request('/api/campaigns?limit=100')).json()) as
      | { _id: string }[]
      | { data: { _id: string }[] };
    const ids = (Array.isArray(listed) ? listed : listed.data).map((c) => c._id);
    expect(ids).toContain(campaignX);
    expect(ids).not.toContain(fundId);
    expect((await t.request(`/api/campaigns/${fundId}`)).status).toBe(404);
    expect((await t.request(`/api/campaigns/${fundId}`, { token: donor.token })).status).toBe(404);
    // Staff of the organization still see it (it is where their unrestricted gifts are counted).
    expect((await t.request(`/api/campaigns/${fundId}`, { token: orgAdmin.token })).status).toBe(200);
    // One fund per organization: the next batch reuses it.
    const next = await post({
      organization_id: orgX,
      method: 'cash',
      banked_on: '2026-04-02',
      expected_total: 300,
      gifts: [{ donor_id: knownDonorId, amount: 300 }],
    });
    expect(((await next.json()) as Batch).gifts[0].campaign_id).toBe(fundId);
    expect(
      await t.db
        .select()
        .from(campaigns)
        .where(and(eq(campaigns.organizationId, orgX), eq(campaigns.kind, 'general_fund'))),
    ).toHaveLength(1);
  });

  it('refuses org admins of another organization and donors; finance of the organization may post', async () => {
    const other = await post(threeCheques(), { token: otherOrgAdmin.token });
    expect(other.status).toBe(403);
    expect((await post(threeCheques(), { token: donor.token })).status).toBe(403);
    expect((await t.request('/api/donations/batches', { method: 'POST', json: threeCheques() })).status).toBe(401);
    const byFinance = await post(threeCheques(), { token: finance.token });
    expect(byFinance.status).toBe(201);
  });

  it('refuses Gift Aid without a declaration covering the banked day, naming the line; accepts it with one', async () => {
    const body = {
      organization_id: orgX,
      method: 'cheque',
      banked_on: '2026-05-01',
      expected_total: 2_000,
      gifts: [{ donor_id: knownDonorId, amount: 2_000, campaign_id: campaignX, gift_aid: true }],
    };
    const refused = await post(body);
    expect(refused.status).toBe(400);
    expect(((await refused.json()) as Problem).message).toMatch(
      /^gifts\[1\]\.gift_aid: this donor has no Gift Aid declaration/,
    );
    const newDonor = await post({
      ...body,
      gifts: [{ donor: { first_name: 'No', last_name: 'Declaration' }, amount: 2_000, gift_aid: true }],
    });
    expect(newDonor.status).toBe(400);
    const declaration = await createGiftAidDeclaration(t.db, {
      donorId: knownDonorId,
      fullName: 'Known Giver',
      homeAddress: '2 Low Road',
      postcode: 'AB1 2CD',
      declarationText: 'I want to Gift Aid my donation',
      organizationId: orgX,
      method: 'paper',
      declaredAt: new Date('2026-01-10T12:00:00Z'),
    });
    const accepted = await post(body);
    expect(accepted.status).toBe(201);
    const line = ((await accepted.json()) as Batch).gifts[0];
    expect(line.gift_aid).toBe(true);
    expect((await t.db.select().from(donations).where(eq(donations.id, line._id)))[0].giftAidDeclarationId).toBe(
      declaration.id,
    );
    const benefit = await post({ ...body, gifts: [{ ...body.gifts[0], benefit_exceeds_limit: true }] });
    expect(benefit.status).toBe(400);
  });

  it('names bad input: unknown method, non-pence amounts, too many lines', async () => {
    const method = await post(threeCheques({ method: 'bitcoin' }));
    expect(method.status).toBe(400);
    expect(((await method.json()) as Problem).message).toMatch(/method/);
    const body = threeCheques();
    const pounds = await post({ ...body, gifts: [{ ...body.gifts[0], amount: 25.5 }] });
    expect(pounds.status).toBe(400);
    expect(((await pounds.json()) as Problem).message).toMatch(/amount/);
    const many = await post({
      ...body,
      expected_total: 201,
      gifts: Array.from({ length: 201 }, () => ({ donor_id: knownDonorId, amount: 1 })),
    });
    expect(many.status).toBe(400);
    expect(((await many.json()) as Problem).message).toMatch(/at most 200/);
    const day = await post(threeCheques({ banked_on: '2026-02-30' }));
    expect(day.status).toBe(400);
    expect(((await day.json()) as Problem).message).toMatch(/^banked_on/);
  });

  it('stores nothing when a write fails midway through the batch', async () => {
    const reference = `boom-${engineName}-${++run}`;
    await t.db.run(
      sql.raw(
        `create trigger batch_test_fail before insert on donations when new.reference = '${reference}' begin select raise(abort, 'forced failure'); end`,
      ),
    );
    const logged = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    try {
      const body = threeCheques();
      body.gifts[2] = { ...body.gifts[2], reference } as (typeof body.gifts)[2];
      const idempotencyKey = key();
      const res = await post(body, { idempotencyKey });
      expect(res.status).toBe(500);
      expect(String(logged.mock.calls[0]?.[0])).toMatch(/forced failure/);
      expect(
        await t.db.select().from(donationBatches).where(eq(donationBatches.idempotencyKey, idempotencyKey)),
      ).toEqual([]);
      expect(await t.db.select().from(users).where(eq(users.email, body.gifts[1].donor!.email!))).toEqual([]);
      expect(
        await t.db
          .select()
          .from(donations)
          .where(inArray(donations.reference, ['chq 000101', reference])),
      ).toHaveLength(
        // The earlier successful batches' first lines only: none from this one.
        (
          await t.db
            .select({ id: donations.id })
            .from(donations)
            .innerJoin(donationBatches, eq(donationBatches.id, donations.batchId))
            .where(eq(donations.reference, 'chq 000101'))
        ).length,
      );
    } finally {
      logged.mockRestore();
      await t.db.run(sql.raw('drop trigger if exists batch_test_fail'));
    }
  });
});
