import { and, eq, inArray, sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { auditLog, campaigns, donationBatches, donations, organizations, outbox, users } from '../../../db/schema';
import { londonMidnight } from '../../../domain/dates';
import {
  createCharity,
  createGiftAidDeclaration,
  createDonation,
  createUser,
  signedIn,
  type SignedIn,
} from '../../../tests/factories';
import { bodyOf, engineName, errorOf, setupTestApp, type TestApp } from '#test-app';
import type { BatchBody } from '../../schemas/batches';

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
  /** `token: null` posts signed out. */
  const post = (
    json: BatchBody,
    { token = orgAdmin.token, idempotencyKey = key() }: { token?: string | null; idempotencyKey?: string } = {},
  ) =>
    t.client(token ?? undefined).api.donations.batches.$post({ json, header: { 'idempotency-key': idempotencyKey } });
  /** Without the Idempotency-Key header, or with a method the schema does not know: raw, as the client refuses both. */
  const postRaw = (json: unknown, headers: Record<string, string> = { 'Idempotency-Key': key() }) =>
    t.request('/api/donations/batches', { method: 'POST', token: orgAdmin.token, json, headers });
  const threeCheques = (overrides: Partial<BatchBody> = {}): BatchBody => ({
    organization_id: orgX,
    method: 'cheque',
    banked_on: '2026-03-31',
    // One slip per deposit: each batch of these tests its own.
    reference: `Paying-in slip ${engineName}-${++run}`,
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
    const batch = await bodyOf(await post(body), 201);
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
    const batches = (token: string) => t.client(token).api.donations.batches;
    const list = await bodyOf(await batches(finance.token).$get({ query: {} }), 200);
    expect(list.map((b) => b._id)).toContain(batch._id);
    const one = await bodyOf(await batches(finance.token)[':id'].$get({ param: { id: batch._id } }), 200);
    expect(one.gifts.map((g) => g._id)).toEqual(batch.gifts.map((g) => g._id));
    expect((await batches(otherOrgAdmin.token)[':id'].$get({ param: { id: batch._id } })).status).toBe(404);
    const othersList = await bodyOf(await batches(otherOrgAdmin.token).$get({ query: {} }), 200);
    expect(othersList.map((b) => b._id)).not.toContain(batch._id);
  });

  it('says how a batch gift was paid in the staff list, the donations CSV and its page (Cheque, not Card), and links its batch', async () => {
    const batch = await bodyOf(await post(threeCheques({ reference: 'Paying-in slip 105' })), 201);
    const api = t.client(finance.token).api;
    const list = await bodyOf(await api.donations.$get({ query: { campaign_id: campaignX, limit: '100' } }), 200);
    const ids = new Set(batch.gifts.map((g) => g._id));
    const mine = list.filter((d) => ids.has(d._id));
    expect(mine.map((d) => d.payment_method)).toEqual(['cheque', 'cheque']);
    const csv = await (await api.exports['donations.csv'].$get({ query: {} })).text();
    const lines = csv.split(/\r?\n/).filter((line) => [...ids].some((id) => line.includes(id)));
    expect(lines).toHaveLength(3);
    for (const line of lines) expect(line).toMatch(/,batch,Cheque,/);
    // The gift's page links back to the batch it was banked in.
    const story = await api.donations[':id'].story.$get({ param: { id: batch.gifts[0]._id } });
    expect(await bodyOf(story, 200)).toMatchObject({ batch_id: batch._id, payment_method: 'cheque' });
  });

  it('posts a slip that mixes cheques and cash: each gift keeps how it was paid, and the batch lists both', async () => {
    const body = threeCheques({ reference: `Mixed slip ${engineName}` });
    body.gifts[2] = { ...body.gifts[2], method: 'cash' };
    const batch = await bodyOf(await post(body), 201);
    expect(batch.gifts.map((g) => g.method)).toEqual(['cheque', 'cheque', 'cash']);
    expect(batch).toMatchObject({ method: 'cheque', methods: ['cheque', 'cash'] });
    const stored = await t.db.select().from(donations).where(eq(donations.batchId, batch._id));
    expect(stored.map((d) => d.method).sort()).toEqual(['cash', 'cheque', 'cheque']);
    const listed = await bodyOf(await t.client(orgAdmin.token).api.donations.batches.$get({ query: {} }), 200);
    expect(listed.find((b) => b._id === batch._id)?.methods).toEqual(['cheque', 'cash']);
    const [audit] = await t.db.select().from(auditLog).where(eq(auditLog.targetId, batch._id));
    expect(audit.changes.methods).toEqual([null, ['cheque', 'cash']]);
    // A batch of one method lists that one; a cheque slip whose gifts were all cash lists cash only.
    const plain = await bodyOf(await post(threeCheques()), 201);
    expect(plain.methods).toEqual(['cheque']);
    const allCash = threeCheques();
    const cash = await bodyOf(
      await post({ ...allCash, gifts: allCash.gifts.map((g) => ({ ...g, method: 'cash' as const })) }),
      201,
    );
    expect(cash.methods).toEqual(['cash']);
    // The same key with a line paid another way is another batch: 409.
    const idempotencyKey = key();
    const again = threeCheques();
    await bodyOf(await post(again, { idempotencyKey }), 201);
    const changed = { ...again, gifts: again.gifts.map((g, i) => (i === 0 ? { ...g, method: 'cash' as const } : g)) };
    expect((await errorOf(await post(changed, { idempotencyKey }), 409)).message).toMatch(/Idempotency-Key/);
    // A line's method the schema does not know names the line.
    const bad = await postRaw({
      ...body,
      reference: 'Bad method slip',
      gifts: [{ ...body.gifts[0], method: 'bitcoin' }],
    });
    expect((await errorOf(bad, 400)).message).toMatch(/^gifts\.0\.method: must be one of cheque/);
  });

  it('posts a tin collection as one line with no donor, counted whole for the Small Donations Scheme', async () => {
    const gasds = async () =>
      bodyOf(
        await t
          .client(orgAdmin.token)
          .api['gift-aid'].gasds.$get({ query: { organization_id: orgX, tax_year: '2025' } }),
        200,
      );
    const before = await gasds();
    const slip = (gifts: BatchBody['gifts'], reference: string): BatchBody => ({
      organization_id: orgX,
      method: 'cash',
      banked_on: '2026-03-31',
      reference,
      expected_total: gifts.reduce((sum, g) => sum + g.amount, 0),
      gifts,
    });
    // £143.20 from the shop's tin, and one named donor's £50 note (not a small donation).
    const body = slip(
      [
        { collection: true, amount: 14_320, campaign_id: campaignX, reference: 'Shop counter tin, March' },
        { donor_id: knownDonorId, amount: 5_000 },
      ],
      `Tin slip ${engineName}`,
    );
    const batch = await bodyOf(await post(body), 201);
    expect(batch.gifts.map((g) => [g.collection, g.donor_name])).toEqual([
      [true, 'Tin and bucket collections'],
      [false, 'Known Giver'],
    ]);
    const after = await gasds();
    expect(after.small_gifts - before.small_gifts).toBe(1);
    expect(after.small_donations - before.small_donations).toBe(14_320);
    // The next collection is recorded under the same collections donor.
    const second = await bodyOf(
      await post(slip([{ collection: true, amount: 2_000 }], `Tin slip 2 ${engineName}`)),
      201,
    );
    expect(second.gifts[0].donor_id).toBe(batch.gifts[0].donor_id);
    const [collectionsDonor] = await t.db.select().from(users).where(eq(users.id, batch.gifts[0].donor_id));
    expect(collectionsDonor.email).toMatch(/@donors\.invalid$/);
    // Kept on the organization, under an address no one can guess from it, type at a checkout or sign in with.
    const [org] = await t.db.select().from(organizations).where(eq(organizations.id, orgX));
    expect(org.collectionsDonorId).toBe(collectionsDonor.id);
    expect(collectionsDonor.email).not.toContain(orgX);
    const login = await t.client().api.auth.login.$post({ json: { email: collectionsDonor.email } });
    expect((await errorOf(login, 400)).message).toMatch(/email/i);
    const checkout = await t.request('/api/stripe/client_secret', {
      method: 'POST',
      json: { amount: 1_000, campaign_id: campaignX, email: collectionsDonor.email, first_name: 'A', last_name: 'B' },
    });
    expect((await errorOf(checkout, 400)).message).toMatch(/^email: /);
    // Many people's coins are no one's: never a Top Donor, never merged into a person (or a person into them).
    const leaders = await bodyOf(await t.client().api.donations.top.$get({ query: { campaign_id: campaignX } }), 200);
    expect(leaders.length).toBeGreaterThan(0);
    expect(leaders.map((l) => l.total)).not.toContain(14_320);
    const merge = (id: string, into: string) =>
      t.client(orgAdmin.token).api.users[':id'].merge.$post({ param: { id }, json: { into } });
    expect((await errorOf(await merge(collectionsDonor.id, knownDonorId), 400)).message).toMatch(
      /^id: this is an organization's tin and bucket collections record/,
    );
    expect((await errorOf(await merge(knownDonorId, collectionsDonor.id), 400)).message).toMatch(/^into: /);
    // Once in a GASDS claim made to HMRC, a collection is not reversed behind HMRC's back.
    await t.db
      .update(donations)
      .set({ gasdsClaimId: `gasds-${engineName}` })
      .where(eq(donations.id, second.gifts[0]._id));
    const reversal = await t.client(orgAdmin.token).api.donations[':id'].refund.$post({
      param: { id: second.gifts[0]._id },
      json: { reason: 'entered_in_error' },
      header: {},
    });
    expect((await errorOf(reversal, 409)).message).toMatch(/Small Donations Scheme \(GASDS\) claim/);
    const [unreversed] = await t.db.select().from(donations).where(eq(donations.id, second.gifts[0]._id));
    expect(unreversed.refundedAmount).toBe(0);

    // What a collection cannot be: each refused, naming the line and field, storing nothing.
    const count = (await batchRows(orgX)).length;
    const refused = async (gift: BatchBody['gifts'][number], method: BatchBody['method'], message: RegExp) => {
      const res = await post({ ...slip([gift], `Refused tin ${++run}`), method });
      expect((await errorOf(res, 400)).message).toMatch(message);
    };
    await refused(
      { collection: true, amount: 500, donor_id: knownDonorId },
      'cash',
      /^gifts\[1\]\.collection: a collection has no donor/,
    );
    await refused(
      { collection: true, amount: 500, gift_aid: true },
      'cash',
      /^gifts\[1\]\.gift_aid: a collection carries no Gift Aid/,
    );
    await refused({ collection: true, amount: 500, send_receipt: true }, 'cash', /^gifts\[1\]\.send_receipt: /);
    await refused(
      { collection: true, amount: 500 },
      'cheque',
      /^gifts\[1\]\.collection: a collection is cash or contactless, and this line is paid by cheque/,
    );
    // A contactless collection on a cheque slip is fine.
    expect(
      (
        await post({
          ...slip([{ collection: true, amount: 500, method: 'contactless' }], `Card reader ${engineName}`),
          method: 'cheque',
        })
      ).status,
    ).toBe(201);
    expect(await batchRows(orgX)).toHaveLength(count + 1);
  });

  it('refuses a batch whose lines do not add up to the expected total, storing nothing', async () => {
    const before = (await batchRows(orgX)).length;
    const body = threeCheques({ expected_total: 13_700 });
    const res = await post(body);
    expect((await errorOf(res, 400)).message).toMatch(/^expected_total: the 3 gifts add up to £137\.34/);
    expect((await batchRows(orgX)).length).toBe(before);
    expect(await t.db.select().from(users).where(eq(users.email, body.gifts[1].donor!.email!))).toEqual([]);
  });

  it('says once, in pounds, which figure is too large or does not add up, storing nothing', async () => {
    const before = (await batchRows(orgX)).length;
    const [line] = threeCheques().gifts;
    const huge = await post(threeCheques({ expected_total: 100_000_001, gifts: [{ ...line, amount: 100_000_001 }] }));
    expect((await errorOf(huge, 400)).message).toBe(
      'gifts.0.amount: at most £1,000,000.00; check the figure for a typo',
    );
    const one = await post(threeCheques({ expected_total: 2_400, gifts: [line] }));
    expect((await errorOf(one, 400)).message).toMatch(/^expected_total: the 1 gift comes up to £25\.00 /);
    expect((await batchRows(orgX)).length).toBe(before);
  });

  it('posts a batch once per Idempotency-Key: the same key answers the first batch, another batch under it is 409', async () => {
    const idempotencyKey = key();
    const body = threeCheques();
    const firstBatch = await bodyOf(await post(body, { idempotencyKey }), 201);
    const again = await post(body, { idempotencyKey });
    expect((await bodyOf(again, 200))._id).toBe(firstBatch._id);
    expect(
      await t.db.select().from(donationBatches).where(eq(donationBatches.idempotencyKey, idempotencyKey)),
    ).toHaveLength(1);
    expect(await t.db.select().from(donations).where(eq(donations.batchId, firstBatch._id))).toHaveLength(3);
    const different = await post(
      { ...body, expected_total: 13_735, gifts: [...body.gifts.slice(0, 2), { ...body.gifts[2], amount: 1_235 }] },
      { idempotencyKey },
    );
    expect((await errorOf(different, 409)).message).toMatch(/Idempotency-Key/);
    const missing = await postRaw(body, {});
    // The header is named once, then what to do.
    expect((await errorOf(missing, 400)).message).toBe(
      'idempotency-key: send a header that names this batch, e.g. a UUID made when the form opened',
    );
    const short = await post(body, { idempotencyKey: 'abc' });
    expect((await errorOf(short, 400)).message).toBe('idempotency-key: use at least 8 characters');
  });

  it('refuses a paying-in slip already entered for the organization, whatever its spelling, storing nothing', async () => {
    await bodyOf(await post(threeCheques({ reference: 'PIS-0043' })), 201);
    const before = (await batchRows(orgX)).length;
    const again = await post(threeCheques({ reference: ' pis-0043 ' }));
    expect((await errorOf(again, 409)).message).toBe(
      'reference: paying-in slip pis-0043 is already entered (banked on 2026-03-31, £137.34); a second batch would count that money twice. If this is another deposit, give its own slip reference',
    );
    expect(await batchRows(orgX)).toHaveLength(before);
    // Another slip is another deposit.
    expect((await post(threeCheques({ reference: 'PIS-0044' }))).status).toBe(201);
  });

  it("refuses another organization's campaign or appeal, naming the line", async () => {
    const before = (await batchRows(orgX)).length;
    const body = threeCheques();
    body.gifts[1] = { ...body.gifts[1], appeal_id: undefined, campaign_id: campaignY };
    const res = await post(body);
    expect((await errorOf(res, 400)).message).toMatch(/^gifts\[2\]\.campaign_id: not a campaign of this organization/);
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
    expect((await bodyOf(res, 201)).gifts[0].donor_id).toBe(existing.id);
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
    const fundId = (await bodyOf(res, 201)).gifts[0].campaign_id;
    const listed = await bodyOf(await t.client().api.campaigns.$get({ query: { limit: '100' } }), 200);
    const ids = listed.map((c) => c._id);
    expect(ids).toContain(campaignX);
    expect(ids).not.toContain(fundId);
    const campaign = (token?: string) => t.client(token).api.campaigns[':id'].$get({ param: { id: fundId } });
    expect((await campaign()).status).toBe(404);
    expect((await campaign(donor.token)).status).toBe(404);
    // Staff of the organization still see it (it is where their unrestricted gifts are counted).
    expect((await campaign(orgAdmin.token)).status).toBe(200);
    // One fund per organization: the next batch reuses it.
    const next = await post({
      organization_id: orgX,
      method: 'cash',
      banked_on: '2026-04-02',
      expected_total: 300,
      gifts: [{ donor_id: knownDonorId, amount: 300 }],
    });
    expect((await bodyOf(next, 201)).gifts[0].campaign_id).toBe(fundId);
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
    expect((await post(threeCheques(), { token: null })).status).toBe(401);
    const byFinance = await post(threeCheques(), { token: finance.token });
    expect(byFinance.status).toBe(201);
  });

  it('refuses Gift Aid without a declaration covering the banked day, naming the line; accepts it with one', async () => {
    const body: BatchBody = {
      organization_id: orgX,
      method: 'cheque',
      banked_on: '2026-05-01',
      expected_total: 2_000,
      gifts: [{ donor_id: knownDonorId, amount: 2_000, campaign_id: campaignX, gift_aid: true }],
    };
    const refused = await post(body);
    expect((await errorOf(refused, 400)).message).toMatch(
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
    const line = (await bodyOf(accepted, 201)).gifts[0];
    expect(line.gift_aid).toBe(true);
    expect((await t.db.select().from(donations).where(eq(donations.id, line._id)))[0].giftAidDeclarationId).toBe(
      declaration.id,
    );
    const benefit = await post({ ...body, gifts: [{ ...body.gifts[0], benefit_exceeds_limit: true }] });
    expect(benefit.status).toBe(400);
  });

  it('names bad input: unknown method, non-pence amounts, too many lines', async () => {
    const method = await postRaw({ ...threeCheques(), method: 'bitcoin' });
    expect((await errorOf(method, 400)).message).toMatch(/method/);
    const body = threeCheques();
    const pounds = await post({ ...body, gifts: [{ ...body.gifts[0], amount: 25.5 }] });
    expect((await errorOf(pounds, 400)).message).toMatch(/amount/);
    const many = await post({
      ...body,
      expected_total: 201,
      gifts: Array.from({ length: 201 }, () => ({ donor_id: knownDonorId, amount: 1 })),
    });
    expect((await errorOf(many, 400)).message).toMatch(/at most 200/);
    const day = await post(threeCheques({ banked_on: '2026-02-30' }));
    expect((await errorOf(day, 400)).message).toMatch(/^banked_on/);
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
      body.gifts[2] = { ...body.gifts[2], reference };
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
