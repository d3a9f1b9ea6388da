import { beforeAll, describe, expect, it } from 'vitest';
import { createCharity, createDonation, createSession, createUser, signedIn } from '../../../tests/factories';
import { engineName, errorOf, setupTestApp, type TestApp } from '#test-app';

const BOM = '\uFEFF';

describe(`CSV exports (${engineName})`, () => {
  let t: TestApp;
  let adminToken: string;
  let orgAdminToken: string;
  let donorToken: string;
  let campaignA: string;
  let giftId: string;

  beforeAll(async () => {
    t = await setupTestApp();
    const a = await createCharity(t.db, {
      organization: { name: 'Wells for Hope', charityNumber: '1234567' },
      campaign: { title: 'Wells, "clean" water' },
      appeal: { title: 'Run for wells' },
    });
    const b = await createCharity(t.db, { organization: { name: '=Evil Org' }, campaign: { title: 'Homes' } });
    campaignA = a.campaign.id;
    const sneaky = await createUser(t.db, {
      firstName: '=HYPERLINK("http://evil.example","Click")',
      lastName: 'Smith',
      email: 'sneaky@example.com',
    });
    const zoe = await createUser(t.db, {
      firstName: 'Zoë',
      lastName: "O'Neil",
      email: 'zoe@example.com',
      phone: '+447700900123',
    });
    giftId = (
      await createDonation(t.db, {
        donorId: sneaky.id,
        campaignId: campaignA,
        appealId: a.appeal.id,
        amount: 123_456,
        refundedAmount: 1_000,
        giftAid: true,
        source: 'card',
        paymentIntentId: 'pi_123',
        date: new Date('2026-06-01T23:30:00Z'), // 2 June in London (BST)
      })
    ).id;
    await createDonation(t.db, {
      donorId: zoe.id,
      campaignId: campaignA,
      amount: 500,
      type: 'monthly',
      invoiceId: 'in_1',
      date: new Date('2026-05-01T12:00:00Z'),
    });
    await createDonation(t.db, {
      donorId: zoe.id,
      campaignId: b.campaign.id,
      amount: 9_900,
      date: new Date('2026-06-03T12:00:00Z'),
    });
    adminToken = (await signedIn(t.db, 'admin')).token;
    orgAdminToken = (await signedIn(t.db, 'org_admin', { organizationIds: [a.org.id] })).token;
    donorToken = await createSession(t.db, zoe.id);
  });

  /** The three CSV downloads as `token`'s caller (none: signed out). */
  const exportsOf = (token?: string) => t.client(token).api.exports;
  // The authorization loop over the three paths and the table of bad filters (query strings as typed,
  // some the schema refuses) use raw requests.
  const get = (path: string, token?: string) => t.request(path, { token });
  /** The body as sent, byte order mark included (Response.text() drops it). */
  const csvText = async (res: { arrayBuffer(): Promise<ArrayBuffer> }) =>
    new TextDecoder('utf-8', { ignoreBOM: true }).decode(await res.arrayBuffer());

  it('streams the filtered donations with UK dates, pounds, Gift Aid, payment reference, campaign and appeal', async () => {
    const res = await exportsOf(adminToken)['donations.csv'].$get({
      query: { campaign_id: campaignA, date_from: '2026-06-02', date_to: '2026-06-02' },
    });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/csv; charset=utf-8');
    expect(res.headers.get('content-disposition')).toMatch(/^attachment; filename="donations-\d{4}-\d{2}-\d{2}\.csv"$/);
    const bytes = new Uint8Array(await res.arrayBuffer());
    expect([...bytes.slice(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    const text = new TextDecoder('utf-8', { ignoreBOM: true }).decode(bytes);
    expect(text).toBe(
      BOM +
        'Date,Amount (GBP),Refunded (GBP),Net (GBP),Gift Aid,Type,Status,Source,Payment method,Payment reference,Donor name,Donor email,Campaign,Appeal,Donation ID,Fee (GBP)\r\n' +
        // Stripe has not reported this card gift's fee yet: the Fee cell is empty, never an estimate.
        `02/06/2026,1234.56,10.00,1224.56,Yes,One-off,succeeded,card,Card,pi_123,"'=HYPERLINK(""http://evil.example"",""Click"") Smith",sneaky@example.com,"Wells, ""clean"" water",Run for wells,${giftId},\r\n`,
    );
  });

  it('exports exactly the org admin’s scope, whatever the filters', async () => {
    const text = await csvText(
      await exportsOf(orgAdminToken)['donations.csv'].$get({ query: { sort: 'amount', order: 'asc' } }),
    );
    const lines = text.trim().split('\r\n');
    expect(lines).toHaveLength(3);
    expect(lines[1]).toMatch(/^01\/05\/2026,5\.00,0\.00,5\.00,No,Monthly,succeeded,manual,,in_1,Zoë O'Neil,/);
    expect(text).not.toContain('Homes');
    const donors = await csvText(await exportsOf(orgAdminToken)['donors.csv'].$get({ query: { sort: 'email' } }));
    expect(donors.split('\r\n')[0]).toBe(
      `${BOM}First name,Last name,Email,Phone,Address,City,County,Postcode,Country,Type,Joined`,
    );
    // An org admin gets its donors' names and emails, never their phone or address.
    expect(donors).toContain("Zoë,O'Neil,zoe@example.com,,,,,,,donor,");
    expect(donors).not.toContain('447700900123');
    const full = await csvText(await exportsOf(adminToken)['donors.csv'].$get({ query: { sort: 'email' } }));
    expect(full).toContain("Zoë,O'Neil,zoe@example.com,'+447700900123,");
    const orgs = await (await exportsOf(orgAdminToken)['organizations.csv'].$get({ query: {} })).text();
    expect(orgs.split('\r\n')[0]).toBe(
      `Name,Legal name,Charity number,Regulator,HMRC reference,Email,Phone,Address,City,County,Postcode,Country,Created`,
    );
    expect(orgs).toContain('Wells for Hope,,1234567,ccew,');
    expect(orgs).not.toContain('Evil');
    const all = await (await exportsOf(adminToken)['organizations.csv'].$get({ query: { search: 'evil' } })).text();
    expect(all.split('\r\n')[1]).toMatch(/^'=Evil Org,/);
  });

  // Last: its gifts would add rows to the tests above.
  it("gives each gift Stripe's fee, so a finance person can tie gifts to payouts; offline gifts carry none", async () => {
    const donor = await createUser(t.db, { firstName: 'Fee', lastName: 'Reader', email: 'fee-reader@example.com' });
    const day = new Date('2026-08-10T12:00:00Z');
    const base = { donorId: donor.id, campaignId: campaignA, date: day };
    const card = await createDonation(t.db, { ...base, amount: 2_500, method: 'card', source: 'card', feePence: 58 });
    const cheque = await createDonation(t.db, { ...base, amount: 4_000, method: 'cheque', source: 'batch' });
    const text = await csvText(
      await exportsOf(adminToken)['donations.csv'].$get({
        query: { date_from: '2026-08-10', date_to: '2026-08-10', sort: 'amount', order: 'asc' },
      }),
    );
    const lines = text.trim().split('\r\n');
    expect(lines).toHaveLength(3);
    expect(lines[0].endsWith(',Donation ID,Fee (GBP)')).toBe(true);
    expect(lines[1]).toMatch(new RegExp(`^10/08/2026,25\\.00,0\\.00,25\\.00,.*,${card.id},0\\.58$`));
    expect(lines[2]).toMatch(new RegExp(`^10/08/2026,40\\.00,0\\.00,40\\.00,.*,Cheque,.*,${cheque.id},0\\.00$`));
  });

  it('counts no money in for a gift that never came in: Net is 0 for failed, pending, abandoned and processing', async () => {
    const donor = await createUser(t.db, { firstName: 'Net', lastName: 'Reader', email: 'net-reader@example.com' });
    const day = new Date('2026-09-10T12:00:00Z');
    const statuses = ['failed', 'pending', 'abandoned', 'processing', 'succeeded'] as const;
    for (const [i, status] of statuses.entries())
      await createDonation(t.db, { donorId: donor.id, campaignId: campaignA, date: day, amount: 1_000 + i, status });
    const text = await csvText(
      await exportsOf(adminToken)['donations.csv'].$get({
        query: { date_from: '2026-09-10', date_to: '2026-09-10', sort: 'amount', order: 'asc' },
      }),
    );
    const cells = text
      .trim()
      .split('\r\n')
      .slice(1)
      .map((line) => line.split(','));
    // Amount, Net, Status: the amount asked for stays, the net is what came in.
    expect(cells.map((c) => [c[1], c[3], c[6]])).toEqual([
      ['10.00', '0.00', 'failed'],
      ['10.01', '0.00', 'pending'],
      ['10.02', '0.00', 'abandoned'],
      ['10.03', '0.00', 'processing'],
      ['10.04', '10.04', 'succeeded'],
    ]);
  });

  it('refuses donors, anonymous callers and bad filters with a message naming the field', async () => {
    expect((await exportsOf()['donations.csv'].$get({ query: {} })).status).toBe(401);
    for (const list of ['donations', 'donors', 'organizations']) {
      const res = await get(`/api/exports/${list}.csv`, donorToken);
      expect(res.status).toBe(403);
      expect(await res.json()).toMatchObject({ statusCode: 403 });
    }
    const cases: [string, string][] = [
      ['/api/exports/donations.csv?sort=password', 'sort'],
      ['/api/exports/donations.csv?date_from=2026-06-05&date_to=2026-06-01', 'date_to'],
      ['/api/exports/donations.csv?amount_min=500&amount_max=100', 'amount_max'],
      ['/api/exports/donations.csv?date_from=2026-02-31', 'date_from'],
      ['/api/exports/donations.csv?campaign_id=nope', 'campaign_id'],
      ['/api/exports/donors.csv?sort=secret', 'sort'],
      // Searches use instr(), not LIKE: only the 40-character cap applies.
      [`/api/exports/donors.csv?search=${'%'.repeat(41)}`, 'search'],
      ['/api/exports/organizations.csv?order=sideways', 'order'],
    ];
    for (const [path, field] of cases) {
      const res = await get(path, adminToken);
      expect((await errorOf(res, 400)).message, path).toContain(field);
    }
  });
});
