import type { InferRequestType } from 'hono/client';
import { beforeAll, describe, expect, it } from 'vitest';
import { donationReversals, payoutLines, payouts } from '../../../db/schema';
import { createCampaign, createDonation, createOrganization, createUser, signedIn } from '../../../tests/factories';
import { bodyOf, engineName, errorOf, setupTestApp, type TestApp, type TestClient } from '#test-app';

const XERO_HEADER = '*Narration,*Date,Description,*AccountCode,*TaxRate,*Amount,TrackingName1,TrackingOption1';

/** Pounds "-12.50" to pence without floating point. */
const toPence = (text: string) => {
  const negative = text.startsWith('-');
  const [pounds, pennies] = text.replace('-', '').split('.');
  const value = Number(pounds) * 100 + Number(pennies);
  return negative ? -value : value;
};

/** One RFC 4180 row (quoted cells with doubled quotes). */
function parseCsvRow(row: string): string[] {
  return [...row.matchAll(/(?:^|,)("(?:[^"]|"")*"|[^,]*)/g)].map(([, cell]) =>
    cell.startsWith('"') ? cell.slice(1, -1).replaceAll('""', '"') : cell,
  );
}

/** One line of the Xero manual journal, in the header's column order; every line tracks the fund. */
function parseXeroLine(row: string) {
  const [narration, date, description, code, tax, amount, trackingName, fund] = parseCsvRow(row);
  expect(trackingName).toBe('Fund');
  return { narration, date, description, code, tax, pence: toPence(amount), fund };
}
type XeroLine = ReturnType<typeof parseXeroLine>;

describe(`accounts journal CSV (${engineName})`, () => {
  let t: TestApp;
  let adminToken: string;
  let orgAdminToken: string;
  let donorToken: string;
  let orgA: string;
  let orgB: string;

  beforeAll(async () => {
    t = await setupTestApp();
    orgA = (await createOrganization(t.db, { name: 'Wells for Hope', feeCode: '7901', bankCode: '1201' })).id;
    orgB = (await createOrganization(t.db, { name: 'Homes Trust' })).id;
    const wells = (await createCampaign(t.db, { title: 'Clean water', organizationId: orgA, incomeCode: '4100' })).id;
    const general = (
      await createCampaign(t.db, {
        title: 'Wells general',
        organizationId: orgA,
        kind: 'general_fund',
        fundRestricted: false,
      })
    ).id;
    const schools = (await createCampaign(t.db, { title: 'School wells', organizationId: orgA })).id;
    const homes = (await createCampaign(t.db, { title: 'Homes', organizationId: orgB })).id;
    const donor = await createUser(t.db, {
      firstName: 'Ada',
      lastName: 'Giver',
      email: `ada-journal-${engineName}@example.com`,
    });
    const gift = (o: Parameters<typeof createDonation>[1]) => createDonation(t.db, o);
    const base = { donorId: donor.id };
    // 2 June in London (BST): a card gift with Stripe's fee, a card gift with no fee known, a cheque.
    await gift({
      ...base,
      campaignId: wells,
      amount: 10_000,
      feePence: 170,
      method: 'card',
      source: 'card',
      date: new Date('2026-06-01T23:30:00Z'),
    });
    await gift({ ...base, campaignId: general, amount: 2_500, source: 'card', date: new Date('2026-06-02T10:00:00Z') });
    await gift({
      ...base,
      campaignId: schools,
      amount: 5_000,
      method: 'cheque',
      source: 'batch',
      date: new Date('2026-06-02T11:00:00Z'),
    });
    // 1 June 00:30 London: inside the month; 1 July 00:30 London: outside it.
    await gift({
      ...base,
      campaignId: schools,
      amount: 700,
      method: 'cash',
      source: 'manual',
      date: new Date('2026-05-31T23:30:00Z'),
    });
    await gift({
      ...base,
      campaignId: schools,
      amount: 999,
      method: 'cash',
      source: 'manual',
      date: new Date('2026-06-30T23:30:00Z'),
    });
    // Partly refunded on 6 June; a bounced cheque reversed on 7 June.
    const refunded = await gift({
      ...base,
      campaignId: wells,
      amount: 3_000,
      feePence: 65,
      method: 'card',
      source: 'card',
      refundedAmount: 1_000,
      date: new Date('2026-06-05T09:00:00Z'),
    });
    const bounced = await gift({
      ...base,
      campaignId: schools,
      amount: 2_000,
      method: 'cheque',
      source: 'batch',
      status: 'refunded',
      refundedAmount: 2_000,
      date: new Date('2026-06-03T09:00:00Z'),
    });
    await t.db.insert(donationReversals).values([
      {
        donationId: refunded.id,
        kind: 'refund',
        amount: 1_000,
        reason: 'requested_by_customer',
        status: 'succeeded',
        providerId: `re_journal_${engineName}`,
        succeededAt: new Date('2026-06-06T10:00:00Z'),
      },
      {
        donationId: bounced.id,
        kind: 'reversal',
        amount: 2_000,
        reason: 'bounced_cheque',
        status: 'succeeded',
        succeededAt: new Date('2026-06-07T10:00:00Z'),
      },
      // Not yet confirmed by Stripe: not in the accounts.
      {
        donationId: refunded.id,
        kind: 'refund',
        amount: 500,
        reason: 'requested_by_customer',
        status: 'pending',
        succeededAt: null,
      },
    ]);
    // Never paid: in no journal.
    await gift({
      ...base,
      campaignId: wells,
      amount: 9_999,
      status: 'pending',
      date: new Date('2026-06-02T12:00:00Z'),
    });
    await gift({
      ...base,
      campaignId: homes,
      amount: 4_000,
      method: 'card',
      source: 'card',
      date: new Date('2026-06-02T12:00:00Z'),
    });
    adminToken = (await signedIn(t.db, 'admin')).token;
    orgAdminToken = (await signedIn(t.db, 'org_admin', { organizationIds: [orgA] })).token;
    donorToken = (await signedIn(t.db, 'donor')).token;
  });

  type JournalQuery = InferRequestType<TestClient['api']['exports']['journal.csv']['$get']>['query'];
  /** GET /api/exports/journal.csv as `token`'s caller (none: signed out). */
  const download = (query: JournalQuery, token?: string) => t.client(token).api.exports['journal.csv'].$get({ query });

  async function journal(query: JournalQuery, token = orgAdminToken) {
    const res = await download(query, token);
    expect(res.status).toBe(200);
    const text = (await res.text()).replace(/^\uFEFF/, '');
    const rows = text.split('\r\n').filter(Boolean);
    expect(rows[0]).toBe(XERO_HEADER);
    return { res, text, lines: rows.slice(1).map(parseXeroLine) };
  }

  const sum = (lines: XeroLine[]) => lines.reduce((total, l) => total + l.pence, 0);

  it('balances every journal (same narration and date) to the penny, and the whole file', async () => {
    const { lines, res } = await journal({ from: '2026-06-01', to: '2026-06-30' });
    expect(res.headers.get('content-disposition')).toMatch(/^attachment; filename="journal-\d{4}-\d{2}-\d{2}\.csv"$/);
    const journals = new Map<string, XeroLine[]>();
    for (const l of lines)
      journals.set(`${l.narration}|${l.date}`, [...(journals.get(`${l.narration}|${l.date}`) ?? []), l]);
    expect([...journals.keys()].map((k) => k.split('|')[1])).toEqual([
      '01/06/2026',
      '02/06/2026',
      '03/06/2026',
      '05/06/2026',
      '06/06/2026',
      '07/06/2026',
    ]);
    for (const [, group] of journals) expect(sum(group)).toBe(0);
    expect(sum(lines)).toBe(0);
    expect(lines.every((l) => l.tax === 'No VAT' && l.pence !== 0)).toBe(true);
    expect(lines.some((l) => l.narration.includes('Homes') || l.fund === 'Homes')).toBe(false);
  });

  it('credits gross to the fund code, debits the fee and the net to Stripe clearing or the bank', async () => {
    const { lines } = await journal({ from: '2026-06-02', to: '2026-06-02' });
    const brief = lines.map((l) => [l.code, l.pence, l.fund]);
    expect(new Set(brief.map((b) => JSON.stringify(b)))).toEqual(
      new Set(
        [
          ['4000', -5_000, 'School wells'],
          ['1201', 5_000, 'School wells'],
          ['4100', -10_000, 'Clean water'],
          ['7901', 170, 'Clean water'],
          ['1210', 9_830, 'Clean water'],
          ['4010', -2_500, 'General fund'],
          ['1210', 2_500, 'General fund'],
        ].map((b) => JSON.stringify(b)),
      ),
    );
    expect(lines[0].narration).toMatch(/^Donations Wells for Hope 02\/06\/2026 DON-20260602-/);
  });

  it('reverses a refund and a bounced cheque on the day they succeeded', async () => {
    const refund = await journal({ from: '2026-06-06', to: '2026-06-06' });
    expect(refund.lines.map((l) => [l.code, l.pence])).toEqual([
      ['4100', 1_000],
      ['1210', -1_000],
    ]);
    const bounced = await journal({ from: '2026-06-07', to: '2026-06-07' });
    expect(bounced.lines.map((l) => [l.code, l.pence])).toEqual([
      ['4000', 2_000],
      ['1201', -2_000],
    ]);
  });

  it('keeps a refund that later failed on the day it succeeded, and posts the money back on the day it failed', async () => {
    const donor = await createUser(t.db);
    const wells = (await createCampaign(t.db, { title: 'July wells', organizationId: orgA, incomeCode: '4100' })).id;
    const gift = await createDonation(t.db, {
      donorId: donor.id,
      campaignId: wells,
      amount: 3_000,
      source: 'card',
      method: 'card',
      date: new Date('2026-07-01T10:00:00Z'),
    });
    await t.db.insert(donationReversals).values({
      donationId: gift.id,
      kind: 'refund',
      amount: 1_200,
      reason: 'requested_by_customer',
      status: 'failed',
      providerId: `re_failed_later_${engineName}`,
      succeededAt: new Date('2026-07-09T10:00:00Z'),
      failedAt: new Date('2026-07-12T10:00:00Z'),
    });
    const succeeded = await journal({ from: '2026-07-09', to: '2026-07-09' });
    expect(succeeded.lines.map((l) => [l.code, l.pence, l.description])).toEqual([
      ['4100', 1_200, 'Refunds and reversals of donations to July wells'],
      ['1210', -1_200, 'Refunds and reversals of donations to July wells, from Stripe clearing'],
    ]);
    const failed = await journal({ from: '2026-07-12', to: '2026-07-12' });
    expect(failed.lines.map((l) => [l.code, l.pence, l.description])).toEqual([
      ['4100', -1_200, 'Failed refunds of donations to July wells, back as income'],
      ['1210', 1_200, 'Failed refunds of donations to July wells, back to Stripe clearing'],
    ]);
    // Over the month, the refund and its return cancel: income is the gift.
    const july = await journal({ from: '2026-07-01', to: '2026-07-31' });
    expect(-sum(july.lines.filter((l) => l.fund === 'July wells' && l.code.startsWith('4')))).toBe(3_000);
  });

  it("posts what Stripe took in a payout and no gift holds as that payout's journal, so clearing empties by the payouts", async () => {
    const donor = await createUser(t.db);
    const water = (await createCampaign(t.db, { title: 'August water', organizationId: orgA, incomeCode: '4100' })).id;
    const general = (
      await createCampaign(t.db, {
        title: 'Wells August',
        organizationId: orgA,
        kind: 'general_fund',
        fundRestricted: false,
      })
    ).id;
    const homes = (await createCampaign(t.db, { title: 'August homes', organizationId: orgB })).id;
    const card = {
      donorId: donor.id,
      source: 'card' as const,
      method: 'card' as const,
      date: new Date('2026-08-03T10:00:00Z'),
    };
    const waterGift = await createDonation(t.db, { ...card, campaignId: water, amount: 10_000, feePence: 170 });
    const generalGift = await createDonation(t.db, { ...card, campaignId: general, amount: 2_500, feePence: 58 });
    const homesGift = await createDonation(t.db, { ...card, campaignId: homes, amount: 4_000, feePence: 80 });
    const homesGift2 = await createDonation(t.db, { ...card, campaignId: homes, amount: 20_000, feePence: 320 });
    const payout = (
      id: string,
      amount: number,
      status: 'paid' | 'failed' | 'in_transit',
      organizationId: string,
      day: number,
    ) =>
      t.db.insert(payouts).values({
        id: `${id}_${engineName}`,
        organizationId,
        amount,
        status,
        arrivalDate: new Date(Date.UTC(2026, 7, day, 6)),
      });
    const line = (payoutId: string, n: number, donationId: string | null, type: string, net: number, fee = 0) =>
      t.db.insert(payoutLines).values({
        payoutId: `${payoutId}_${engineName}`,
        balanceTransactionId: `txn_${payoutId}_${n}_${engineName}`,
        type,
        donationId,
        amount: net + fee,
        fee,
        net,
      });
    // 10 August: the bank refused Wells for Hope's payout of the general fund's gift, less Stripe's own fee.
    await payout('po_aug_failed', 2_442 - 150, 'failed', orgA, 10);
    await line('po_aug_failed', 1, generalGift.id, 'charge', 2_442, 58);
    await line('po_aug_failed', 2, null, 'stripe_fee', -150);
    // 12 August: the next payout carries the water gift, its refund, the failed payout's money coming
    // back (a movement, not a charge) and a payment made outside the app (matched to no gift).
    await payout('po_aug', 9_830 - 1_000 + 2_292 + 500, 'paid', orgA, 12);
    await line('po_aug', 1, waterGift.id, 'charge', 9_830, 170);
    await line('po_aug', 2, waterGift.id, 'refund', -1_000);
    await line('po_aug', 3, null, 'payout_failure', 2_292);
    await line('po_aug', 4, null, 'charge', 500, 15);
    await t.db.insert(donationReversals).values({
      donationId: waterGift.id,
      kind: 'refund',
      amount: 1_000,
      reason: 'requested_by_customer',
      status: 'succeeded',
      providerId: `re_aug_${engineName}`,
      succeededAt: new Date('2026-08-05T10:00:00Z'),
    });
    // Not settled yet: nothing of it is posted until it is.
    await payout('po_aug_transit', -40, 'in_transit', orgA, 14);
    await line('po_aug_transit', 1, null, 'stripe_fee', -40);
    // Another organization's payout, which takes a lost dispute: the gift's £40 back (journaled as
    // the dispute's reversal) and Stripe's £15 dispute fee (journaled with the payout).
    await payout('po_aug_homes', 3_920 + 19_680 - 5_500, 'paid', orgB, 10);
    await line('po_aug_homes', 1, homesGift.id, 'charge', 3_920, 80);
    await line('po_aug_homes', 2, homesGift.id, 'adjustment', -5_500, 1_500);
    await line('po_aug_homes', 3, homesGift2.id, 'charge', 19_680, 320);
    await t.db.insert(donationReversals).values({
      donationId: homesGift.id,
      kind: 'dispute',
      amount: 4_000,
      reason: 'dispute_lost',
      status: 'succeeded',
      succeededAt: new Date('2026-08-20T10:00:00Z'),
    });

    // The failed payout's fee was taken all the same: a journal of that payout, with its own reference.
    const failedId = `po_aug_failed_${engineName}`;
    const tenth = await journal({ from: '2026-08-10', to: '2026-08-10' });
    expect(tenth.lines.map((l) => [l.code, l.pence, l.fund, l.description])).toEqual([
      ['7901', 150, 'General fund', `Stripe fees and adjustments in payout ${failedId}`],
      ['1210', -150, 'General fund', `Stripe fees and adjustments in payout ${failedId}, from Stripe clearing`],
    ]);
    expect(tenth.lines[0].narration).toBe(
      `Stripe charges in payout ${failedId} Wells for Hope 10/08/2026 STR-20260810-${failedId.slice(-8)}-${orgA.slice(0, 8)}`,
    );
    // The paid payout holds no charge of Stripe's that no gift holds: no journal for it.
    expect((await journal({ from: '2026-08-12', to: '2026-08-12' })).lines).toEqual([]);

    // Over the month, Stripe clearing holds exactly what reached the bank (the bank feed codes the
    // paid payout there, decision 054) less what the journal does not guess: the payment matched to
    // no gift. The fees are the gifts' and Stripe's own.
    const august = await journal({ from: '2026-08-01', to: '2026-08-31' });
    const total = (code: string) => sum(august.lines.filter((l) => l.code === code));
    expect(total('1210')).toBe(9_830 - 1_000 + 2_292 + 500 - 500);
    expect(total('7901')).toBe(170 + 58 + 150);
    expect(august.lines.some((l) => l.description.includes('po_aug_transit'))).toBe(false);

    // The other organization: the lost dispute's fee, on the gift's own fund. Clearing holds its payout.
    const other = await journal({ from: '2026-08-10', to: '2026-08-10', organization_id: orgB }, adminToken);
    expect(other.lines.map((l) => [l.code, l.pence, l.fund])).toEqual([
      ['7900', 1_500, 'August homes'],
      ['1210', -1_500, 'August homes'],
    ]);
    const homesAugust = await journal({ from: '2026-08-01', to: '2026-08-31', organization_id: orgB }, adminToken);
    expect(sum(homesAugust.lines.filter((l) => l.code === '1210'))).toBe(3_920 + 19_680 - 5_500);
    expect(sum(homesAugust.lines.filter((l) => l.code.startsWith('4')))).toBe(-20_000);
  });

  it('income lines total the donations list (net of refunds) for the same period and scope', async () => {
    const { lines } = await journal({ from: '2026-06-01', to: '2026-06-30' });
    const income = -sum(lines.filter((l) => l.code.startsWith('4')));
    const res = await t
      .client(orgAdminToken)
      .api.donations.$get({ query: { date_from: '2026-06-01', date_to: '2026-06-30', limit: '100' } });
    const list = await bodyOf(res, 200);
    const paid = list.filter((d) => d.status === 'succeeded' || d.status === 'refunded');
    const listTotal = paid.reduce((total, d) => total + d.amount - d.refunded_amount, 0);
    expect(listTotal).toBe(10_000 + 2_500 + 5_000 + 700 + 3_000 - 1_000);
    expect(income).toBe(listTotal);
  });

  it('gives admins one organization on request, Sage users debit and credit columns', async () => {
    const { lines } = await journal({ from: '2026-06-02', to: '2026-06-02', organization_id: orgB }, adminToken);
    expect(lines.map((l) => [l.code, l.pence, l.fund])).toEqual([
      ['4000', -4_000, 'Homes'],
      ['1210', 4_000, 'Homes'],
    ]);
    const sage = await download(
      { from: '2026-06-02', to: '2026-06-02', organization_id: orgB, format: 'sage' },
      adminToken,
    );
    const text = (await sage.text()).replace(/^\uFEFF/, '');
    const rows = text.split('\r\n').filter(Boolean);
    expect(rows[0]).toBe('Date,Reference,Nominal code,Details,Debit,Credit,Fund');
    expect(rows[1]).toMatch(/^02\/06\/2026,DON-20260602-\w+,4000,Donations to Homes \(card\),,40\.00,Homes$/);
    expect(rows[2]).toMatch(
      /^02\/06\/2026,DON-20260602-\w+,1210,"?Donations to Homes, net, to Stripe clearing"?,40\.00,,Homes$/,
    );
  });

  it('is an empty file with its header for a period without gifts', async () => {
    const { text } = await journal({ from: '2020-01-01', to: '2020-01-31' });
    expect(text).toBe(`${XERO_HEADER}\r\n`);
  });

  it('refuses other organizations and donors', async () => {
    const june = { from: '2026-06-01', to: '2026-06-30' };
    const other = await download({ ...june, organization_id: orgB }, orgAdminToken);
    expect((await errorOf(other, 403)).message).toMatch(/organization_id/);
    expect((await download(june, donorToken)).status).toBe(403);
    expect((await download(june)).status).toBe(401);
  });

  it("refuses a Xero file beyond Xero's 300 lines, naming the count; Sage's layout has no such limit", async () => {
    const org = (await createOrganization(t.db, { name: 'Busy Charity' })).id;
    const fund = (await createCampaign(t.db, { title: 'Busy fund', organizationId: org })).id;
    const donor = await createUser(t.db, { email: `busy-journal-${engineName}@example.com` });
    // 101 London days of one card gift with its fee: 3 lines a day, 303 lines.
    for (let day = 0; day < 101; day += 1) {
      await createDonation(t.db, {
        donorId: donor.id,
        campaignId: fund,
        amount: 1_000,
        feePence: 35,
        method: 'card',
        source: 'card',
        date: new Date(Date.UTC(2027, 0, 1 + day, 12)),
      });
    }
    const long = await download({ from: '2027-01-01', to: '2027-04-11', organization_id: org }, adminToken);
    const body = await errorOf(long, 400);
    expect(body.message).toBe(
      'to: the journal from 01/01/2027 to 11/04/2027 has 303 lines, and Xero imports at most 300 in one file; export fewer days at a time (or one organization)',
    );
    // 100 days make 300 lines: exactly Xero's limit, exported.
    const { lines } = await journal({ from: '2027-01-01', to: '2027-04-10', organization_id: org }, adminToken);
    expect(lines).toHaveLength(300);
    const sage = await download(
      { from: '2027-01-01', to: '2027-04-11', organization_id: org, format: 'sage' },
      adminToken,
    );
    expect(sage.status).toBe(200);
    expect((await sage.text()).trim().split('\r\n')).toHaveLength(304);
  });

  // A table of query strings as typed, some the schema refuses (no from, an unknown format): raw requests.
  it.each([
    ['from=2026-06-30&to=2026-06-01', /^to: Must be on or after from/],
    ['from=2026-13-01&to=2026-06-30', /^from: Enter a date like/],
    ['from=2026-06-01&to=30/06/2026', /^to: Enter a date like/],
    ['to=2026-06-30', /^from: /],
    ['from=2026-06-01&to=2026-06-30&organization_id=nope', /^organization_id: Must be an organization id/],
    [
      'from=2026-06-01&to=2026-06-30&organization_id=00000000-0000-4000-8000-000000000000',
      /^organization_id: no such organization/,
    ],
    ['from=2026-06-01&to=2026-06-30&format=quickbooks', /^format: Must be one of: xero, sage/],
  ])('answers 400 naming the field for %s', async (query, message) => {
    const res = await t.request(`/api/exports/journal.csv?${query}`, { token: adminToken });
    expect((await errorOf(res, 400)).message).toMatch(message);
  });
});
