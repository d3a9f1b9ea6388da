import type { InferRequestType } from 'hono/client';
import { and, eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { auditLog, campaigns, organizations } from '../../../db/schema';
import { DEFAULT_NOMINAL_CODES } from '../../../domain/finance';
import {
  createAppeal,
  createCampaign,
  createDonation,
  createOrganization,
  createUser,
  signedIn,
} from '../../../tests/factories';
import { bodyOf, engineName, errorOf, setupTestApp, type TestApp, type TestClient } from '#test-app';

/** The accounts journal's nominal codes, set through the organization and campaign resources (decision 035). */

type Codes = {
  income_code: string | null;
  fee_code: string | null;
  clearing_code: string | null;
  bank_code: string | null;
};
const NO_CODES: Codes = { income_code: null, fee_code: null, clearing_code: null, bank_code: null };
type OrganizationUpdate = InferRequestType<TestClient['api']['organizations'][':id']['$put']>['json'];
type CampaignUpdate = InferRequestType<TestClient['api']['campaigns'][':id']['$put']>['json'];

/** One RFC 4180 row (quoted cells with doubled quotes). */
const cells = (row: string) =>
  [...row.matchAll(/(?:^|,)("(?:[^"]|"")*"|[^,]*)/g)].map(([, cell]) =>
    cell.startsWith('"') ? cell.slice(1, -1).replaceAll('""', '"') : cell,
  );

describe(`nominal codes of organizations and campaigns (${engineName})`, () => {
  let t: TestApp;
  let orgA: string;
  let orgB: string;
  /** Restricted fund of Org A with no code of its own, and one that gets its own. */
  let water: string;
  let schools: string;
  let appeal: string;
  let adminToken: string;
  let orgAdminToken: string;
  let financeToken: string;
  let financeId: string;
  let otherFinanceToken: string;
  let otherOrgAdminToken: string;
  let donorToken: string;
  let fundraiserToken: string;

  beforeAll(async () => {
    t = await setupTestApp();
    orgA = (await createOrganization(t.db, { name: 'Ledger Wells' })).id;
    orgB = (await createOrganization(t.db, { name: 'Ledger Homes' })).id;
    water = (await createCampaign(t.db, { title: 'Water fund', organizationId: orgA })).id;
    schools = (await createCampaign(t.db, { title: 'Schools fund', organizationId: orgA })).id;
    const donor = await createUser(t.db, { email: `codes-donor-${engineName}@example.com` });
    // 2 June 2026 in London: a card gift with Stripe's fee to each fund, a cheque to Water.
    const gift = (campaignId: string, amount: number, method: 'card' | 'cheque', feePence: number | null) =>
      createDonation(t.db, {
        donorId: donor.id,
        campaignId,
        amount,
        feePence,
        method,
        source: method === 'card' ? 'card' : 'batch',
        date: new Date('2026-06-02T10:00:00Z'),
      });
    await gift(water, 10_000, 'card', 170);
    await gift(water, 5_000, 'cheque', null);
    await gift(schools, 2_000, 'card', 50);
    adminToken = (await signedIn(t.db, 'admin')).token;
    orgAdminToken = (await signedIn(t.db, 'org_admin', { organizationIds: [orgA] })).token;
    const finance = await signedIn(t.db, 'finance', { organizationIds: [orgA] });
    financeToken = finance.token;
    financeId = finance.user.id;
    otherFinanceToken = (await signedIn(t.db, 'finance', { organizationIds: [orgB] })).token;
    otherOrgAdminToken = (await signedIn(t.db, 'org_admin', { organizationIds: [orgB] })).token;
    donorToken = (await signedIn(t.db, 'donor')).token;
    const fundraiser = await signedIn(t.db, 'donor');
    fundraiserToken = fundraiser.token;
    appeal = (await createAppeal(t.db, water, { organizationId: orgA, createdBy: fundraiser.user.id })).id;
  });

  /** `token: undefined` saves signed out. */
  const putOrg = (token: string | undefined, json: OrganizationUpdate, id = orgA) =>
    t.client(token).api.organizations[':id'].$put({ param: { id }, json });
  const putCampaign = (token: string, id: string, json: CampaignUpdate) =>
    t.client(token).api.campaigns[':id'].$put({ param: { id }, json });
  const campaignAs = (token: string | undefined, id: string) =>
    t.client(token).api.campaigns[':id'].$get({ param: { id } });
  const orgRow = async (id = orgA) => (await t.db.select().from(organizations).where(eq(organizations.id, id)))[0];
  const campaignRow = async (id: string) => (await t.db.select().from(campaigns).where(eq(campaigns.id, id)))[0];
  const auditRows = (targetId: string) => t.db.select().from(auditLog).where(eq(auditLog.targetId, targetId));

  /** Org A's journal for 2 June as [code, pence, fund] (Xero), and the same lines from the Sage layout. */
  async function journals(token = financeToken) {
    const journal = t.client(token).api.exports['journal.csv'];
    const day = { from: '2026-06-02', to: '2026-06-02' };
    const xero = await journal.$get({ query: day });
    expect(xero.status).toBe(200);
    const xeroRows = (await xero.text())
      .replace(/^\uFEFF/, '')
      .split('\r\n')
      .filter(Boolean)
      .slice(1);
    const sage = await journal.$get({ query: { ...day, format: 'sage' } });
    expect(sage.status).toBe(200);
    const sageRows = (await sage.text())
      .replace(/^\uFEFF/, '')
      .split('\r\n')
      .filter(Boolean)
      .slice(1);
    const sorted = (lines: string[]) => lines.sort();
    return {
      xero: sorted(
        xeroRows.map((row) => {
          const [, , , code, , amount, , fund] = cells(row);
          return `${code} ${amount} ${fund}`;
        }),
      ),
      // Date, Reference, Nominal code, Details, Debit, Credit, Fund: debits positive as in Xero.
      sage: sorted(
        sageRows.map((row) => {
          const [, , code, , debit, credit, fund] = cells(row);
          return `${code} ${debit ? debit : `-${credit}`} ${fund}`;
        }),
      ),
    };
  }

  const expectJournal = async (codes: {
    water: string;
    schools: string;
    fee: string;
    clearing: string;
    bank: string;
  }) => {
    // A line per fund and channel: Water's card gift and its cheque are two income lines.
    const expected = [
      `${codes.water} -100.00 Water fund`,
      `${codes.fee} 1.70 Water fund`,
      `${codes.clearing} 98.30 Water fund`,
      `${codes.water} -50.00 Water fund`,
      `${codes.bank} 50.00 Water fund`,
      `${codes.schools} -20.00 Schools fund`,
      `${codes.fee} 0.50 Schools fund`,
      `${codes.clearing} 19.50 Schools fund`,
    ].sort();
    const { xero, sage } = await journals();
    expect(xero).toEqual(expected);
    expect(sage).toEqual(expected);
  };

  it('answers null codes by default, and the journal uses the defaults of domain/finance.ts', async () => {
    const res = await t.client(financeToken).api.organizations[':id'].$get({ param: { id: orgA } });
    expect(await bodyOf(res, 200)).toMatchObject(NO_CODES);
    await expectJournal({
      water: DEFAULT_NOMINAL_CODES.restrictedIncome,
      schools: DEFAULT_NOMINAL_CODES.restrictedIncome,
      fee: DEFAULT_NOMINAL_CODES.fees,
      clearing: DEFAULT_NOMINAL_CODES.clearing,
      bank: DEFAULT_NOMINAL_CODES.bank,
    });
  });

  it("lets the organization's finance user set its four codes, audited, and the journal (Xero and Sage) uses them", async () => {
    const res = await putOrg(financeToken, {
      income_code: ' 200 ',
      fee_code: '404',
      clearing_code: 'STRIPE-1',
      bank_code: '1215.1',
    });
    const body = await bodyOf(res, 200);
    expect(body).toMatchObject({ income_code: '200', fee_code: '404', clearing_code: 'STRIPE-1', bank_code: '1215.1' });
    expect(body.name).toBe('Ledger Wells');
    const audits = (await auditRows(orgA)).filter((a) => a.action === 'organization.update');
    expect(audits).toHaveLength(1);
    expect(audits[0]).toMatchObject({ actorId: financeId, actorType: 'finance', organizationId: orgA });
    expect(audits[0].changes).toEqual({
      incomeCode: [null, '200'],
      feeCode: [null, '404'],
      clearingCode: [null, 'STRIPE-1'],
      bankCode: [null, '1215.1'],
    });
    await expectJournal({ water: '200', schools: '200', fee: '404', clearing: 'STRIPE-1', bank: '1215.1' });
  });

  it("lets a finance user give one fund its own income code, which beats the organization's", async () => {
    const res = await putCampaign(financeToken, water, { income_code: '4100' });
    expect(await bodyOf(res, 200)).toMatchObject({ _id: water, income_code: '4100' });
    expect((await campaignRow(water)).incomeCode).toBe('4100');
    const [audit] = (await auditRows(water)).filter((a) => a.action === 'campaign.income_code');
    expect(audit).toMatchObject({ actorType: 'finance', changes: { income_code: [null, '4100'] } });
    await expectJournal({ water: '4100', schools: '200', fee: '404', clearing: 'STRIPE-1', bank: '1215.1' });
    // Those who may set it read it; the public and the fundraiser do not.
    const staff = await campaignAs(orgAdminToken, water);
    expect(await bodyOf(staff, 200)).toMatchObject({ income_code: '4100' });
    const anonymous = await campaignAs(undefined, water);
    expect(await bodyOf(anonymous, 200)).not.toHaveProperty('income_code');
    const fundraiser = await campaignAs(fundraiserToken, appeal);
    expect(await bodyOf(fundraiser, 200)).not.toHaveProperty('income_code');
  });

  it('clears codes back to the defaults with an empty string or null', async () => {
    const res = await putOrg(orgAdminToken, { income_code: '', fee_code: null, clearing_code: '  ', bank_code: null });
    expect(await bodyOf(res, 200)).toMatchObject(NO_CODES);
    expect((await putCampaign(orgAdminToken, water, { income_code: '' })).status).toBe(200);
    expect((await campaignRow(water)).incomeCode).toBeNull();
    await expectJournal({ water: '4000', schools: '4000', fee: '7900', clearing: '1210', bank: '1200' });
  });

  it('lets an admin set any organization’s codes, and staff give a new campaign its code', async () => {
    const res = await putOrg(adminToken, { bank_code: '1250' }, orgB);
    expect(await bodyOf(res, 200)).toMatchObject({ ...NO_CODES, bank_code: '1250' });
    const created = await t.client(orgAdminToken).api.campaigns.$post({
      json: {
        title: 'Coded fund',
        description: 'A restricted fund with its own income account',
        goal: 10_000,
        images: [{ Key: '/images/demo/cause-1.png', name: 'cause-1.png', size: 1234, type: 'image/png' }],
        organization_id: orgA,
        income_code: '4200',
      },
    });
    const { _id } = await bodyOf(created, 201);
    expect((await campaignRow(_id)).incomeCode).toBe('4200');
  });

  // Codes of the wrong type (a number, a list) are in this table: its saves are sent raw, as the typed
  // client would refuse them.
  it.each([
    ['too long', { income_code: 'ABCDEFGHIJK' }, /^income_code: Use at most 10 characters/],
    ['with spaces', { fee_code: '40 00' }, /^fee_code: Use letters, digits/],
    ['formula-looking', { clearing_code: '=1+1' }, /^clearing_code: Use letters, digits/],
    ['a leading minus', { bank_code: '-1200' }, /^bank_code: Use letters, digits/],
    ['a number', { bank_code: 1200 }, /^bank_code: Must be text/],
    ['a list', { income_code: ['4000'] }, /^income_code: Must be text/],
  ])('refuses a code %s with a 400 naming the field, storing nothing', async (_, json, message) => {
    await putOrg(adminToken, { income_code: '300', fee_code: '310', clearing_code: '320', bank_code: '330' });
    const before = await orgRow();
    const audits = (await auditRows(orgA)).length;
    // Every other field of the save is good: the bad code alone refuses it.
    const res = await t.request(`/api/organizations/${orgA}`, {
      method: 'PUT',
      token: financeToken,
      json: { income_code: '999', ...json },
    });
    const body = await errorOf(res, 400);
    expect(body.message).toMatch(message);
    expect(await orgRow()).toEqual(before);
    expect((await auditRows(orgA)).length).toBe(audits);
    const campaign = await t.request(`/api/campaigns/${schools}`, {
      method: 'PUT',
      token: orgAdminToken,
      json: { income_code: Object.values(json)[0] },
    });
    expect((await errorOf(campaign, 400)).message).toMatch(/^income_code: /);
    expect((await campaignRow(schools)).incomeCode).toBeNull();
  });

  it('refuses everyone else, and a finance user anything but the codes, changing nothing', async () => {
    await putOrg(adminToken, {
      income_code: '300',
      fee_code: '310',
      clearing_code: '320',
      bank_code: '330',
      name: 'Ledger Wells',
    });
    const before = await orgRow();
    const audits = (await auditRows(orgA)).length;
    const codes = { income_code: '9999' };
    expect((await putOrg(donorToken, codes)).status).toBe(403);
    expect((await putOrg(fundraiserToken, codes)).status).toBe(403);
    // Another organization's finance user and admin do not see this one at all.
    expect((await putOrg(otherFinanceToken, codes)).status).toBe(404);
    expect((await putOrg(otherOrgAdminToken, codes)).status).toBe(404);
    expect((await putOrg(undefined, codes)).status).toBe(401);
    // Finance owns the chart of accounts, not the charity's registration, name or logo.
    const renamed = await putOrg(financeToken, { ...codes, name: 'Finance rename' });
    expect((await errorOf(renamed, 403)).message).toMatch(
      /^Finance users can change only the accounts journal codes .* not name$/,
    );
    expect((await putOrg(financeToken, { charity_number: '1187342' })).status).toBe(403);
    expect(await orgRow()).toEqual(before);
    expect((await auditRows(orgA)).length).toBe(audits);

    // An appeal is not a fund of its own: its gifts are its campaign's income.
    const onAppeal = await putCampaign(orgAdminToken, appeal, { income_code: '4300' });
    expect(onAppeal.status).toBe(400);
    expect(await onAppeal.json()).toEqual({
      statusCode: 400,
      message: "income_code: an appeal's gifts post to its campaign's fund; set the code on the campaign",
    });
    // A fund's code: the fundraiser who started an appeal, another organization's finance user, a donor.
    expect((await putCampaign(fundraiserToken, appeal, { income_code: '4300' })).status).toBe(403);
    expect((await putCampaign(fundraiserToken, appeal, { title: 'Renamed', income_code: '4300' })).status).toBe(403);
    expect((await putCampaign(otherFinanceToken, schools, { income_code: '4300' })).status).toBe(403);
    expect((await putCampaign(donorToken, schools, { income_code: '4300' })).status).toBe(403);
    // A finance user edits no content, even alongside a code.
    expect((await putCampaign(financeToken, schools, { title: 'Renamed', income_code: '4300' })).status).toBe(403);
    for (const id of [appeal, schools]) {
      const row = await campaignRow(id);
      expect(row.incomeCode).toBeNull();
      expect(row.title).not.toBe('Renamed');
      const refused = await t.db
        .select()
        .from(auditLog)
        .where(and(eq(auditLog.targetId, id), eq(auditLog.action, 'campaign.income_code')));
      expect(refused).toHaveLength(0);
    }
  });
});
