import { eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { campaigns, donations, organizations, payouts, users } from '../db/schema';
import {
  addOrganizationAdmin,
  createAppeal,
  createCampaign,
  createDonation,
  createDonationBatch,
  createMonthlyGift,
  createOrganization,
  createSession,
  createUser,
} from '../tests/factories';
import { createEngineBucket, engineName, setupTestApp, type TestApp } from '#test-app';
import { createApp } from '.';

/**
 * Every API route against every kind of caller (OWASP API Security Top 10: broken object-level,
 * property-level and function-level authorization). One row per method + path of the real app
 * (`app.routes`): a route added without a row fails the first test. Each row says what status
 * each caller gets; every answer is also checked for other people's data (their email, phone and
 * home address) that this caller may not see.
 *
 * To add a route: add a row with `route` exactly as Hono lists it, a `request` and `expect`.
 */

/** `finance`: a finance user linked to Org X (reads money there, edits no content or accounts). */
type Caller = 'anonymous' | 'donor' | 'otherDonor' | 'orgAdmin' | 'otherOrgAdmin' | 'admin' | 'finance';
const CALLERS: Caller[] = ['anonymous', 'donor', 'otherDonor', 'orgAdmin', 'otherOrgAdmin', 'admin', 'finance'];

type Req = {
  path: string;
  method?: string;
  json?: unknown;
  body?: string;
  headers?: Record<string, string>;
  token?: string | null;
};
type Row = {
  route: string;
  /** What this caller sends; `token` overrides the caller's own (null: none). */
  request: (w: World, caller: Caller) => Req | Promise<Req>;
  /** One status for everyone, or one per caller. */
  expect: number | Record<Caller, number>;
  /** Other people's details this row may show on purpose (e.g. who made a change, in the audit log). */
  alsoVisible?: (w: World, caller: Caller) => string[];
  /** Local-only tools whose answers are not checked for other people's data (with the reason). */
  dataCheckSkipped?: string;
};

const signedIn = (status: number): Record<Caller, number> => ({
  anonymous: 401,
  donor: status,
  otherDonor: status,
  orgAdmin: status,
  otherOrgAdmin: status,
  admin: status,
  finance: status,
});
/** Staff routes: anonymous 401, donors 403, then as given; finance users are refused unless given. */
const staff = (orgAdmin: number, otherOrgAdmin: number, admin: number, finance = 403): Record<Caller, number> => ({
  anonymous: 401,
  donor: 403,
  otherDonor: 403,
  orgAdmin,
  otherOrgAdmin,
  admin,
  finance,
}); /** A donor's own record: the donor and the staff of the organization they gave to; anyone else gets a 404. */
const donorOrTheirStaff: Record<Caller, number> = { ...staff(200, 404, 200, 200), donor: 200, otherDonor: 404 };

/**
 * POST `<base>/:id/<action>` with each action's body, for an id nobody has: a 404 for every staff member (so
 * the bodies must be valid: a bad body is a 400 first).
 */
const postsToUnknownId = (base: string, actions: Record<string, object>): Row[] =>
  Object.entries(actions).map(([name, json]) => ({
    route: `POST ${base}/:id/${name}`,
    request: () => ({ path: `${base}/${crypto.randomUUID()}/${name}`, method: 'POST', json }),
    expect: staff(404, 404, 404, 404),
  }));

type Person = { id: string; email: string; phone: string; address: string };

type World = {
  t: TestApp;
  token: Record<Caller, string | null>;
  /** A second session per caller, for routes that end one (logout). */
  spare: Record<Caller, string | null>;
  people: Record<Exclude<Caller, 'anonymous'>, Person>;
  orgX: string;
  orgY: string;
  campaignX: string;
  campaignY: string;
  draftX: string;
  appealByDonor: string;
  giftByDonor: string;
  cardGiftByDonor: string;
  /** Monthly gifts: the donor's to Org X, the other donor's to Org Y. */
  monthlyByDonor: string;
  monthlyByOtherDonor: string;
  imageKey: string;
};

let seq = 0;
const stamp = () => `${Date.now().toString(36)}${++seq}`;

async function buildWorld(): Promise<World> {
  const bucket = createEngineBucket();
  const t = await setupTestApp({ IMAGES: bucket, STRIPE_WEBHOOK_SECRET: 'whsec_matrix' });
  const person = async (role: Exclude<Caller, 'anonymous'>, type: 'donor' | 'org_admin' | 'admin' | 'finance') => {
    const s = stamp();
    const phone = String(7_000_000_000 + (Number.parseInt(s, 36) % 999_999_999)).slice(0, 10);
    const row = await createUser(t.db, {
      email: `${role.toLowerCase()}-${s}@matrix.example`,
      firstName: `First${role}`,
      lastName: `Last${role}`,
      type,
      phone,
      address: `${s} Private Road of ${role}`,
      city: 'Leeds',
    });
    return { id: row.id, email: row.email, phone, address: row.address! };
  };
  const people = {
    donor: await person('donor', 'donor'),
    otherDonor: await person('otherDonor', 'donor'),
    orgAdmin: await person('orgAdmin', 'org_admin'),
    otherOrgAdmin: await person('otherOrgAdmin', 'org_admin'),
    admin: await person('admin', 'admin'),
    finance: await person('finance', 'finance'),
  };
  const orgX = (await createOrganization(t.db, { name: `Org X ${stamp()}` })).id;
  const orgY = (await createOrganization(t.db, { name: `Org Y ${stamp()}` })).id;
  await addOrganizationAdmin(t.db, orgX, people.orgAdmin.id);
  await addOrganizationAdmin(t.db, orgY, people.otherOrgAdmin.id);
  await addOrganizationAdmin(t.db, orgX, people.finance.id);
  const campaignX = (await createCampaign(t.db, { organizationId: orgX })).id;
  const campaignY = (await createCampaign(t.db, { organizationId: orgY })).id;
  const draftX = (await createCampaign(t.db, { organizationId: orgX, status: 'draft' })).id;
  const appealByDonor = (await createAppeal(t.db, campaignX, { organizationId: orgX, createdBy: people.donor.id })).id;
  // The donor gave to Org X (by hand and by card); the other donor to Org Y.
  const giftByDonor = (
    await createDonation(t.db, {
      donorId: people.donor.id,
      campaignId: campaignX,
      appealId: appealByDonor,
      amount: 1000,
    })
  ).id;
  const cardGiftByDonor = (
    await createDonation(t.db, {
      donorId: people.donor.id,
      campaignId: campaignX,
      amount: 2500,
      source: 'card',
      paymentIntentId: `pi_matrix_${stamp()}`,
    })
  ).id;
  await createDonation(t.db, { donorId: people.otherDonor.id, campaignId: campaignY, amount: 1500 });
  const monthly = async (donorId: string, campaignId: string) =>
    (await createMonthlyGift(t.db, { donorId, campaignId, startedAt: new Date() })).id;
  const monthlyByDonor = await monthly(people.donor.id, campaignX);
  const monthlyByOtherDonor = await monthly(people.otherDonor.id, campaignY);
  const imageKey = `campaigns/${crypto.randomUUID()}.png`;
  await bucket.put(imageKey, new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), {
    httpMetadata: { contentType: 'image/png' },
  });

  const token = { anonymous: null } as Record<Caller, string | null>;
  const spare = { anonymous: null } as Record<Caller, string | null>;
  for (const caller of CALLERS.filter((c): c is Exclude<Caller, 'anonymous'> => c !== 'anonymous')) {
    token[caller] = await createSession(t.db, people[caller].id);
    spare[caller] = await createSession(t.db, people[caller].id);
  }
  return {
    t,
    token,
    spare,
    people,
    orgX,
    orgY,
    campaignX,
    campaignY,
    draftX,
    appealByDonor,
    giftByDonor,
    cardGiftByDonor,
    monthlyByDonor,
    monthlyByOtherDonor,
    imageKey,
  };
}

/** A demo checkout's client secret, as the donation box would hold it. */
async function demoClientSecret(w: World): Promise<string> {
  const res = await w.t.request('/api/stripe/client_secret', {
    method: 'POST',
    json: { email: `checkout-${stamp()}@matrix.example`, amount: 500, campaign_id: w.campaignX },
  });
  return ((await res.json()) as { clientSecret: string }).clientSecret;
}

const ROWS: Row[] = [
  { route: 'GET /api/health', request: () => ({ path: '/api/health' }), expect: 200 },
  { route: 'GET /api/health/mail', request: () => ({ path: '/api/health/mail' }), expect: staff(403, 403, 200) },
  { route: 'GET /api/campaigns', request: () => ({ path: '/api/campaigns?status=all' }), expect: 200 },
  {
    route: 'GET /api/campaigns/:id',
    // A draft campaign of Org X: its admins and admins see it; to everyone else it does not exist.
    request: (w) => ({ path: `/api/campaigns/${w.draftX}` }),
    expect: {
      anonymous: 404,
      donor: 404,
      otherDonor: 404,
      orgAdmin: 200,
      otherOrgAdmin: 404,
      admin: 200,
      finance: 404,
    },
  },
  {
    route: 'GET /api/campaigns/:id/appeals',
    request: (w) => ({ path: `/api/campaigns/${w.campaignX}/appeals` }),
    expect: 200,
  },
  { route: 'GET /api/appeals', request: () => ({ path: '/api/appeals' }), expect: 200 },
  { route: 'GET /api/appeals/:id', request: (w) => ({ path: `/api/appeals/${w.appealByDonor}` }), expect: 200 },
  {
    route: 'POST /api/campaigns',
    request: (w) => ({
      path: '/api/campaigns',
      method: 'POST',
      json: {
        title: 'Matrix campaign',
        description: 'x',
        goal: 1000,
        images: [{ Key: '/images/demo/cause-1.png' }],
        organization_id: w.orgX,
      },
    }),
    expect: staff(201, 403, 201),
  },
  {
    route: 'PUT /api/campaigns/:id',
    // The donor's own appeal: its creator, Org X's admins and admins may edit it.
    request: (w) => ({
      path: `/api/campaigns/${w.appealByDonor}`,
      method: 'PUT',
      json: { description: 'Edited in the matrix' },
    }),
    expect: {
      anonymous: 401,
      donor: 200,
      otherDonor: 403,
      orgAdmin: 200,
      otherOrgAdmin: 403,
      admin: 200,
      finance: 403,
    },
  },
  { route: 'GET /api/images/:key{.+}', request: (w) => ({ path: `/api/images/${w.imageKey}` }), expect: 200 },
  { route: 'GET /api/template-causes', request: () => ({ path: '/api/template-causes' }), expect: 200 },
  // Template causes are the platform's, not an organization's: only admins keep them (decision 074).
  {
    route: 'POST /api/template-causes',
    request: () => ({
      path: '/api/template-causes',
      method: 'POST',
      json: { title: 'Matrix cause', description: 'A cause', story: '[[name]] runs' },
    }),
    expect: staff(403, 403, 201),
  },
  {
    route: 'GET /api/template-causes/:id',
    request: () => ({ path: `/api/template-causes/${crypto.randomUUID()}` }),
    expect: staff(403, 403, 404),
  },
  {
    route: 'PUT /api/template-causes/:id',
    request: () => ({ path: `/api/template-causes/${crypto.randomUUID()}`, method: 'PUT', json: { retired: true } }),
    expect: staff(403, 403, 404),
  },
  {
    route: 'GET /api/donations',
    request: () => ({ path: '/api/donations?limit=100' }),
    expect: staff(200, 200, 200, 200),
  },
  {
    route: 'GET /api/donations/top',
    request: (w) => ({ path: `/api/donations/top?campaign_id=${w.campaignX}` }),
    expect: 200,
  },
  { route: 'GET /api/donations/summary', request: () => ({ path: '/api/donations/summary' }), expect: signedIn(200) },
  {
    route: 'POST /api/donations',
    // A cheque from the donor to Org X's campaign: Org X's admins and admins may record it.
    request: (w) => ({
      path: '/api/donations',
      method: 'POST',
      json: {
        donor: w.people.donor.id,
        amount: 700,
        date: '2026-01-15',
        campaign: w.campaignX,
        appeal: w.appealByDonor,
      },
    }),
    expect: staff(201, 400, 201),
  },
  {
    route: 'GET /api/donations/:id',
    request: (w) => ({ path: `/api/donations/${w.giftByDonor}` }),
    expect: donorOrTheirStaff,
  },
  {
    route: 'PUT /api/donations/:id',
    request: (w) => ({ path: `/api/donations/${w.giftByDonor}`, method: 'PUT', json: { amount: 1000 } }),
    expect: {
      anonymous: 401,
      donor: 403,
      otherDonor: 404,
      orgAdmin: 200,
      otherOrgAdmin: 404,
      admin: 200,
      finance: 403,
    },
  },
  {
    route: 'GET /api/organizations',
    request: () => ({ path: '/api/organizations' }),
    expect: staff(200, 200, 200, 200),
  },
  {
    route: 'POST /api/organizations',
    request: () => ({ path: '/api/organizations', method: 'POST', json: { name: `Matrix org ${stamp()}` } }),
    expect: staff(403, 403, 201),
  },
  {
    route: 'GET /api/organizations/:id',
    request: (w) => ({ path: `/api/organizations/${w.orgX}` }),
    expect: staff(200, 404, 200, 200),
  },
  {
    route: 'PUT /api/organizations/:id',
    request: (w) => ({
      path: `/api/organizations/${w.orgX}`,
      method: 'PUT',
      json: { city: undefined, charity_number: '1187342' },
    }),
    expect: staff(200, 404, 200),
  },
  { route: 'GET /api/users', request: () => ({ path: '/api/users?limit=1000' }), expect: staff(200, 200, 200, 200) },
  {
    route: 'POST /api/users',
    // Org admins add donors to their own organization (one each here, so it may be left out).
    request: () => ({
      path: '/api/users',
      method: 'POST',
      json: { first_name: 'New', last_name: 'Donor', email: `new-${stamp()}@matrix.example` },
    }),
    expect: staff(201, 201, 201),
  },
  {
    route: 'GET /api/users/:id',
    // The donor: themself, Org X's admins (name and email only) and admins.
    request: (w) => ({ path: `/api/users/${w.people.donor.id}` }),
    expect: donorOrTheirStaff,
  },
  {
    route: 'PUT /api/users/:id',
    request: (w) => ({ path: `/api/users/${w.people.donor.id}`, method: 'PUT', json: { first_name: 'Firstdonor' } }),
    expect: {
      anonymous: 401,
      donor: 200,
      otherDonor: 404,
      orgAdmin: 403,
      otherOrgAdmin: 404,
      admin: 200,
      finance: 403,
    },
  },
  {
    route: 'GET /api/users/:id/giving',
    // The donor's gifts to Org X and their totals: money readers of Org X and admins.
    request: (w) => ({ path: `/api/users/${w.people.donor.id}/giving` }),
    expect: staff(200, 404, 200, 200),
  },
  {
    route: 'POST /api/users/:id/merge',
    // Two fresh records of one person who gave to Org X, per caller: admins and Org X's admins merge them; finance may not.
    request: async (w) => {
      const pair = await Promise.all([createUser(w.t.db), createUser(w.t.db)]);
      for (const person of pair)
        await createDonation(w.t.db, { donorId: person.id, campaignId: w.campaignX, amount: 300 });
      return { path: `/api/users/${pair[0].id}/merge`, method: 'POST', json: { into: pair[1].id } };
    },
    expect: staff(200, 404, 200),
  },
  // Before the checkout rows below: every caller's checkout makes them a (pending) donor of Org X.
  // Admin insight: staff only, each scoped to their own organizations.
  ...['gifts-per-week', 'campaigns', 'monthly-recurring', 'donors', 'gift-aid'].map(
    (name): Row => ({
      route: `GET /api/reports/${name}`,
      request: () => ({ path: `/api/reports/${name}` }),
      expect: staff(200, 200, 200, 200),
    }),
  ),
  // CSV exports: the lists' scope; the donors export carries no profile fields for org admins.
  ...['donations', 'donors', 'organizations'].map(
    (name): Row => ({
      route: `GET /api/exports/${name}.csv`,
      request: () => ({ path: `/api/exports/${name}.csv` }),
      expect: staff(200, 200, 200, 200),
    }),
  ),
  // The accounts journal: one organization's, refused for someone else's.
  {
    route: 'GET /api/exports/journal.csv',
    request: (w) => ({ path: `/api/exports/journal.csv?from=2026-01-01&to=2026-01-31&organization_id=${w.orgX}` }),
    expect: staff(200, 403, 200, 200),
  },
  // Payouts: money readers of the organizations whose gifts are in them.
  {
    route: 'GET /api/finance/payouts',
    request: () => ({ path: '/api/finance/payouts?limit=200' }),
    expect: staff(200, 200, 200, 200),
  },
  {
    route: 'GET /api/finance/payouts/:id',
    request: async (w) => {
      const id = `po_matrix_${w.orgX.replace(/-/g, '')}`;
      await w.t.db
        .insert(payouts)
        .values({ id, organizationId: w.orgX, amount: 965, status: 'paid', arrivalDate: new Date() })
        .onConflictDoNothing();
      return { path: `/api/finance/payouts/${id}` };
    },
    expect: staff(200, 403, 200, 200),
  },
  { route: 'GET /api/auth', request: () => ({ path: '/api/auth' }), expect: signedIn(200) },
  {
    route: 'POST /api/auth/login',
    request: () => ({
      path: '/api/auth/login',
      method: 'POST',
      json: { email: `login-${stamp()}@matrix.example` },
      headers: { 'cf-connecting-ip': `192.0.2.${++seq % 250}` },
    }),
    expect: 200,
  },
  {
    route: 'POST /api/auth/logout',
    request: (w, caller) => ({ path: '/api/auth/logout', method: 'POST', token: w.spare[caller] }),
    expect: signedIn(200),
  },
  {
    route: 'GET /api/dev/outbox',
    request: () => ({ path: '/api/dev/outbox' }),
    // APP_ENV=development without a mail provider only; production answers 404 (checked below).
    expect: 200,
    dataCheckSkipped: 'the local outbox shows every email on purpose and does not exist in production',
  },
  {
    route: 'POST /api/dev/direct-debits/settle',
    request: () => ({ path: '/api/dev/direct-debits/settle', method: 'POST' }),
    // Settles demo gifts as housekeeping does; production answers 404 (checked below).
    expect: 200,
  },
  { route: 'GET /api/stripe/subscriptions', request: () => ({ path: '/api/stripe/subscriptions' }), expect: 200 },
  {
    route: 'POST /api/stripe/client_secret',
    request: (w) => ({
      path: '/api/stripe/client_secret',
      method: 'POST',
      json: { email: `give-${stamp()}@matrix.example`, amount: 500, campaign_id: w.campaignX },
    }),
    expect: 200,
  },
  {
    route: 'POST /api/stripe/demo/confirm',
    request: async (w) => ({
      path: '/api/stripe/demo/confirm',
      method: 'POST',
      json: { clientSecret: await demoClientSecret(w), card: 'success' },
    }),
    expect: 200,
  },
  {
    route: 'POST /api/stripe/webhook',
    // Only Stripe's signature counts, whoever calls: no caller's token opens it.
    request: () => ({
      path: '/api/stripe/webhook',
      method: 'POST',
      body: '{"id":"evt_1","type":"payment_intent.succeeded"}',
    }),
    expect: 400,
  },
  {
    route: 'POST /api/csp-report',
    request: () => ({
      path: '/api/csp-report',
      method: 'POST',
      body: JSON.stringify({ 'csp-report': { 'violated-directive': 'script-src' } }),
    }),
    expect: 204,
  },
  { route: 'GET /api/turnstile', request: () => ({ path: '/api/turnstile' }), expect: 200 },
  {
    route: 'GET /api/users/me/notifications',
    request: () => ({ path: '/api/users/me/notifications' }),
    expect: signedIn(200),
  },
  {
    route: 'PUT /api/users/me/notifications',
    request: () => ({ path: '/api/users/me/notifications', method: 'PUT', json: { appeal_gifts: false } }),
    expect: signedIn(200),
  },
  {
    route: 'GET /api/appeals/:id/messages',
    request: (w) => ({ path: `/api/appeals/${w.appealByDonor}/messages` }),
    expect: 200,
  },
  // An appeal's supporters: its fundraiser and the staff who may edit it; to anyone else it does not exist.
  {
    route: 'GET /api/appeals/:id/supporters',
    request: (w) => ({ path: `/api/appeals/${w.appealByDonor}/supporters` }),
    expect: { ...staff(200, 404, 200, 404), donor: 200, otherDonor: 404 },
  },
  { route: 'GET /api/messages', request: () => ({ path: '/api/messages' }), expect: staff(200, 200, 200) },
  {
    route: 'PUT /api/messages/:id',
    // The donor's gift to Org X: its admins and admins may moderate it; Org Y's admin does not see it.
    request: (w) => ({ path: `/api/messages/${w.giftByDonor}`, method: 'PUT', json: { hidden: true } }),
    // No message on it: both find nothing; Org Y's admin would get 404 for one with a message too.
    expect: staff(404, 404, 404),
  },
  // Monthly gifts: the donor's own under /me, staff by organization, and signed links.
  { route: 'GET /api/me/monthly-gifts', request: () => ({ path: '/api/me/monthly-gifts' }), expect: signedIn(200) },
  ...(['cancel', 'change', 'pause', 'resume'] as const).map(
    (action): Row => ({
      route: `POST /api/me/monthly-gifts/:id/${action}`,
      // The donor's monthly gift: nobody else's /me finds it.
      request: (w) => ({
        path: `/api/me/monthly-gifts/${w.monthlyByDonor}/${action}`,
        method: 'POST',
        json: action === 'pause' ? { months: 1 } : action === 'change' ? { price: 'price_unknown' } : {},
      }),
      // cancel runs first (the rows run in order): change, pause and resume then find a cancelled gift.
      expect: {
        anonymous: 401,
        donor: action === 'cancel' ? 200 : 409,
        otherDonor: 404,
        orgAdmin: 404,
        otherOrgAdmin: 404,
        admin: 404,
        finance: 404,
      },
    }),
  ),
  // The office list and its export: each staff member sees their own organizations' gifts.
  {
    route: 'GET /api/monthly-gifts',
    request: () => ({ path: '/api/monthly-gifts' }),
    expect: staff(200, 200, 200, 200),
  },
  {
    route: 'GET /api/exports/monthly-gifts.csv',
    request: () => ({ path: '/api/exports/monthly-gifts.csv' }),
    expect: staff(200, 200, 200, 200),
  },
  {
    route: 'GET /api/monthly-gifts/:id',
    request: (w) => ({ path: `/api/monthly-gifts/${w.monthlyByOtherDonor}` }),
    // The other donor's gift to Org Y: Org Y's admin and admins see it; Org X's admin and Org X's
    // finance user are refused (403: monthlyGiftFor says so without showing the gift; the id is an
    // unguessable sub_ id). A finance user of the gift's organization reads it
    // (monthly-gifts-office.test.ts), and only its administrators cancel it.
    expect: staff(403, 200, 200, 403),
  },
  {
    route: 'POST /api/monthly-gifts/:id/cancel',
    request: (w) => ({ path: `/api/monthly-gifts/${w.monthlyByOtherDonor}/cancel`, method: 'POST', json: {} }),
    // Org Y's admin cancels it; the admin after them finds it already cancelled.
    expect: staff(403, 200, 409),
  },
  // Only the signed token counts, whoever calls: a bad one is `invalid` for everyone.
  {
    route: 'GET /api/monthly-gift-links/cancel',
    request: () => ({ path: '/api/monthly-gift-links/cancel?token=not-a-signed-link' }),
    expect: 200,
  },
  {
    route: 'POST /api/monthly-gift-links/cancel',
    request: () => ({ path: '/api/monthly-gift-links/cancel', method: 'POST', json: { token: 'not-a-signed-link' } }),
    expect: 200,
  },
  // Consent, erasure and statements: the caller's own only.
  { route: 'GET /api/me/consent', request: () => ({ path: '/api/me/consent' }), expect: signedIn(200) },
  {
    route: 'PUT /api/me/consent',
    request: () => ({ path: '/api/me/consent', method: 'PUT', json: { consent: false } }),
    expect: signedIn(200),
  },
  {
    route: 'GET /api/consents/export',
    request: () => ({ path: '/api/consents/export' }),
    expect: staff(403, 403, 200),
  },
  {
    route: 'POST /api/me/erasure',
    // Donors get a code by email; staff accounts must lose their access first.
    request: () => ({ path: '/api/me/erasure', method: 'POST', json: {} }),
    expect: {
      anonymous: 401,
      donor: 200,
      otherDonor: 200,
      orgAdmin: 409,
      otherOrgAdmin: 409,
      admin: 409,
      finance: 409,
    },
  },
  {
    route: 'POST /api/me/erasure/confirm',
    request: () => ({ path: '/api/me/erasure/confirm', method: 'POST', json: { code: '000000' } }),
    expect: signedIn(400),
  },
  {
    route: 'GET /api/me/statement',
    request: () => ({ path: '/api/me/statement?tax_year=2025' }),
    expect: signedIn(200),
  },
  // Gift Aid: claims and review for staff, scoped to their organizations; a donor's own declaration.
  ...['summary', 'eligible', 'claims', 'adjustments', 'declarations/review'].map(
    (name): Row => ({
      route: `GET /api/gift-aid/${name}`,
      request: () => ({ path: `/api/gift-aid/${name}` }),
      expect: staff(200, 200, 200, 200),
    }),
  ),
  {
    route: 'POST /api/gift-aid/claims',
    request: () => ({ path: '/api/gift-aid/claims', method: 'POST', json: {} }),
    expect: staff(400, 400, 400, 400),
  },
  {
    route: 'GET /api/gift-aid/claims/:id',
    request: () => ({ path: `/api/gift-aid/claims/${crypto.randomUUID()}` }),
    expect: staff(404, 404, 404, 404),
  },
  {
    route: 'PUT /api/gift-aid/claims/:id',
    request: () => ({
      path: `/api/gift-aid/claims/${crypto.randomUUID()}`,
      method: 'PUT',
      json: { status: 'submitted' },
    }),
    expect: staff(404, 404, 404, 404),
  },
  {
    route: 'GET /api/gift-aid/claims/:id/schedule.csv',
    request: () => ({ path: `/api/gift-aid/claims/${crypto.randomUUID()}/schedule.csv` }),
    expect: staff(404, 404, 404, 404),
  },
  {
    route: 'PUT /api/gift-aid/declarations/:id',
    request: () => ({ path: `/api/gift-aid/declarations/${crypto.randomUUID()}`, method: 'PUT', json: {} }),
    expect: staff(400, 400, 400, 400),
  },
  {
    route: 'POST /api/gift-aid/declarations',
    request: () => ({ path: '/api/gift-aid/declarations', method: 'POST', json: {} }),
    expect: staff(400, 400, 400, 400),
  },
  // Gift Aid operations: a claim or declaration id nobody has is a 404 for every staff member; bad bodies are 400s first.
  ...['gifts', 'schedule.ods'].map(
    (name): Row => ({
      route: `GET /api/gift-aid/claims/:id/${name}`,
      request: () => ({ path: `/api/gift-aid/claims/${crypto.randomUUID()}/${name}` }),
      expect: staff(404, 404, 404, 404),
    }),
  ),
  ...postsToUnknownId('/api/gift-aid/claims', {
    void: {},
    reject: { reason: 'Wrong reference' },
    resubmit: { hmrc_reference: 'CHR/1' },
    payment: { amount: 100, paid_on: '2026-01-01' },
  }),
  {
    route: 'GET /api/gift-aid/gasds',
    request: (w) => ({ path: `/api/gift-aid/gasds?organization_id=${w.orgX}&tax_year=2025` }),
    expect: staff(200, 403, 200, 200),
  },
  // Nothing to claim in Org X's world: its admins get the 422, Org Y's admin the 403.
  {
    route: 'POST /api/gift-aid/gasds',
    request: (w) => ({
      path: '/api/gift-aid/gasds',
      method: 'POST',
      json: { organization_id: w.orgX, tax_year: 2025 },
    }),
    expect: staff(422, 403, 422, 422),
  },
  {
    route: 'GET /api/gift-aid/declarations',
    request: (w) => ({ path: `/api/gift-aid/declarations?donor_id=${w.people.donor.id}` }),
    expect: staff(200, 400, 200, 200),
  },
  // Org Y's admin asks about Org X: refused before the donor is looked up.
  {
    route: 'GET /api/gift-aid/declarations/covering',
    request: (w) => ({
      path: `/api/gift-aid/declarations/covering?donor_id=${w.people.donor.id}&organization_id=${w.orgX}&date=2026-01-05`,
    }),
    expect: staff(200, 403, 200, 200),
  },
  ...postsToUnknownId('/api/gift-aid/declarations', { cancel: {}, confirmation: {} }),
  {
    route: 'POST /api/gift-aid/donations/:id/verify',
    // The donor's gift to Org X: Org Y's admin does not see it.
    request: (w) => ({ path: `/api/gift-aid/donations/${w.giftByDonor}/verify`, method: 'POST', json: {} }),
    // No declaration covers it: its organization's admins and admins get the 400; Org Y's admin does not see it.
    // Finance users read Gift Aid but verify no gifts: the gift is not theirs to act on.
    expect: staff(400, 404, 400, 404),
  },
  { route: 'GET /api/gift-aid/me', request: () => ({ path: '/api/gift-aid/me' }), expect: signedIn(200) },
  {
    route: 'PUT /api/gift-aid/me',
    request: () => ({ path: '/api/gift-aid/me', method: 'PUT', json: {} }),
    expect: signedIn(400),
  },
  {
    route: 'POST /api/gift-aid/me/cancel',
    request: () => ({ path: '/api/gift-aid/me/cancel', method: 'POST', json: {} }),
    expect: signedIn(200),
  },
  {
    route: 'POST /api/donations/:id/refund',
    // 1p of the donor's cheque to Org X at a time: its admins, its finance user and admins may reverse it.
    request: (w) => ({
      path: `/api/donations/${w.giftByDonor}/refund`,
      method: 'POST',
      json: { amount: 1, reason: 'entered_in_error' },
    }),
    expect: staff(201, 404, 201, 201),
  },
  {
    route: 'GET /api/donations/:id/story',
    request: (w) => ({ path: `/api/donations/${w.giftByDonor}/story` }),
    expect: staff(200, 404, 200, 200),
    // Its history names the staff who acted on it (the refund rows above).
    alsoVisible: (w) => [w.people.admin.email, w.people.orgAdmin.email, w.people.finance.email],
  },
  {
    route: 'POST /api/donations/:id/receipt',
    // A fresh paid gift of the donor's to Org X per caller: one copy per gift per 10 minutes would 429 the next caller.
    request: async (w) => {
      const gift = await createDonation(w.t.db, { donorId: w.people.donor.id, campaignId: w.campaignX, amount: 700 });
      return { path: `/api/donations/${gift.id}/receipt`, method: 'POST' };
    },
    expect: donorOrTheirStaff,
    // The answer names where the copy went: the donor's own address.
    alsoVisible: (w) => [w.people.donor.email],
  },
  // Batches of offline income: admins; org admins and finance in their organizations (Org X here).
  {
    route: 'POST /api/donations/batches',
    request: (w) => ({
      path: '/api/donations/batches',
      method: 'POST',
      headers: { 'Idempotency-Key': crypto.randomUUID() },
      json: {
        organization_id: w.orgX,
        method: 'cash',
        banked_on: '2026-03-02',
        expected_total: 100,
        gifts: [{ donor: { first_name: 'Cash', last_name: 'Giver' }, amount: 100, campaign_id: w.campaignX }],
      },
    }),
    expect: staff(201, 403, 201, 201),
  },
  {
    route: 'GET /api/donations/batches',
    request: () => ({ path: '/api/donations/batches' }),
    expect: staff(200, 200, 200, 200),
  },
  {
    route: 'GET /api/donations/batches/:id',
    request: async (w) => {
      const batch = await createDonationBatch(w.t.db, { organizationId: w.orgX, bankedOn: '2026-03-02' });
      return { path: `/api/donations/batches/${batch.id}` };
    },
    expect: staff(200, 404, 200, 200),
  },
  // The audit log (read only): admins all; org admins and finance their organizations.
  // Each entry names who acted (the staff account's email): that is what an audit log is for.
  ...['/api/audit', '/api/exports/audit.csv'].map(
    (path): Row => ({
      route: `GET ${path}`,
      request: () => ({ path }),
      expect: staff(200, 200, 200, 200),
      alsoVisible: (w) => [w.people.admin.email, w.people.orgAdmin.email, w.people.otherOrgAdmin.email],
    }),
  ),
  // Contact Support: anyone signed in sends; admins read the inbox, others only what they sent.
  {
    route: 'POST /api/support-requests',
    request: () => ({
      path: '/api/support-requests',
      method: 'POST',
      json: { name: 'Matrix Caller', subject: 'Matrix', message: 'A question' },
    }),
    expect: signedIn(201),
  },
  {
    route: 'GET /api/support-requests',
    request: () => ({ path: '/api/support-requests?status=all' }),
    expect: signedIn(200),
  },
  {
    route: 'PUT /api/support-requests/:id',
    request: () => ({ path: `/api/support-requests/${crypto.randomUUID()}`, method: 'PUT', json: { handled: true } }),
    expect: staff(403, 403, 404),
  },
  // The OpenAPI document and its reference page: public, no data.
  { route: 'GET /api/openapi.json', request: () => ({ path: '/api/openapi.json' }), expect: 200 },
  { route: 'GET /api/docs', request: () => ({ path: '/api/docs' }), expect: 200 },
];

/** The other people's details this caller may see in an answer. */
function allowed(w: World, caller: Caller): Set<string> {
  const out = new Set<string>();
  if (caller === 'anonymous') return out;
  const me = w.people[caller];
  out.add(me.email).add(me.phone).add(me.address);
  if (caller === 'admin') for (const p of Object.values(w.people)) out.add(p.email).add(p.phone).add(p.address);
  // Organization admins see the name and email of their organization's donors, never the profile.
  if (caller === 'orgAdmin' || caller === 'finance') out.add(w.people.donor.email);
  // Org X's admin and its finance user are both linked to Org X: its admins list names each of them.
  if (caller === 'orgAdmin') out.add(w.people.finance.email);
  if (caller === 'finance') out.add(w.people.orgAdmin.email);
  if (caller === 'otherOrgAdmin') out.add(w.people.otherDonor.email);
  return out;
}

function leaked(w: World, caller: Caller, text: string, also: string[] = []): string[] {
  const visible = allowed(w, caller);
  for (const extra of also) visible.add(extra);
  return Object.values(w.people)
    .flatMap((p) => [p.email, p.phone, p.address])
    .filter((secret) => !visible.has(secret) && text.includes(secret));
}

async function call(w: World, caller: Caller, req: Req): Promise<Response> {
  const token = req.token === undefined ? w.token[caller] : req.token;
  return w.t.request(req.path, {
    method: req.method ?? 'GET',
    json: req.json,
    body: req.body,
    headers: req.headers,
    token: token ?? undefined,
  });
}

describe(`authorization matrix: every route × every caller (${engineName})`, () => {
  let w: World;
  beforeAll(async () => {
    w = await buildWorld();
  });

  it('has exactly one row for every route the app serves', () => {
    const served = new Set(
      createApp()
        .routes.filter((r) => r.method !== 'ALL')
        .map((r) => `${r.method} ${r.path}`),
    );
    const rows = ROWS.map((r) => r.route);
    expect(new Set(rows).size, 'duplicate rows').toBe(rows.length);
    const missing = [...served].filter((route) => !rows.includes(route));
    const stale = rows.filter((route) => !served.has(route));
    expect({ missing, stale }).toEqual({ missing: [], stale: [] });
  });

  for (const row of ROWS) {
    it(row.route, { timeout: 20_000 }, async () => {
      for (const caller of CALLERS) {
        const req = await row.request(w, caller);
        const res = await call(w, caller, req);
        const expected = typeof row.expect === 'number' ? row.expect : row.expect[caller];
        const text = await res.text();
        expect(res.status, `${row.route} as ${caller}: ${text.slice(0, 200)}`).toBe(expected);
        if (res.status >= 400) {
          expect(JSON.parse(text), `${row.route} as ${caller}`).toEqual({
            statusCode: res.status,
            message: expect.any(String),
          });
        }
        if (!row.dataCheckSkipped)
          expect(
            leaked(w, caller, text, row.alsoVisible?.(w, caller)),
            `${row.route} as ${caller} shows someone else's data`,
          ).toEqual([]);
      }
    });
  }

  it('has no local tools in production: the outbox and demo payments answer 404 to everyone', async () => {
    const prod = await setupTestApp({
      APP_ENV: 'production',
      AUTH_SECRET: 'x'.repeat(32),
      PUBLIC_ORIGIN: 'https://give.example',
      MAIL_API_KEY: 'k',
    });
    const donor = await createUser(prod.db);
    const token = await createSession(prod.db, donor.id);
    for (const t of [undefined, token]) {
      expect((await prod.request('/api/dev/outbox', { token: t })).status).toBe(404);
      expect((await prod.request('/api/dev/direct-debits/settle', { method: 'POST', token: t })).status).toBe(404);
      expect(
        (
          await prod.request('/api/stripe/demo/confirm', {
            method: 'POST',
            token: t,
            json: { clientSecret: 'pi_demo1_secret_x' },
          })
        ).status,
      ).toBe(404);
    }
  });
});

describe(`mass assignment: fields callers may not set are refused or ignored (${engineName})`, () => {
  let w: World;
  beforeAll(async () => {
    w = await buildWorld();
  });
  const as = (caller: Caller, req: Req) => call(w, caller, req);
  const readUser = async (id: string) => (await w.t.db.select().from(users).where(eq(users.id, id)))[0];

  it('`type`, `org_ids`, `_id`, email and payment references on a user', async () => {
    const before = await readUser(w.people.donor.id);
    const res = await as('donor', {
      path: '/api/users/me',
      method: 'PUT',
      json: {
        type: 'admin',
        org_ids: [w.orgX],
        _id: w.people.admin.id,
        stripe_customer_id: 'cus_evil',
        stripeCustomerId: 'cus_evil',
        origin: 'checkout',
      },
    });
    expect(res.status).toBe(403);
    const ignored = await as('donor', {
      path: '/api/users/me',
      method: 'PUT',
      json: { org_ids: [w.orgX], _id: w.people.admin.id, stripe_customer_id: 'cus_evil' },
    });
    expect(ignored.status).toBe(200);
    expect((await ignored.json()) as { _id: string; org_ids: string[] }).toMatchObject({
      _id: w.people.donor.id,
      org_ids: [],
    });
    const email = await as('donor', { path: '/api/users/me', method: 'PUT', json: { email: w.people.admin.email } });
    expect(email.status).toBe(400);
    // An org admin cannot make a donor (or themself) an admin either.
    expect(
      (await as('orgAdmin', { path: `/api/users/${w.people.orgAdmin.id}`, method: 'PUT', json: { type: 'admin' } }))
        .status,
    ).toBe(403);
    const after = await readUser(w.people.donor.id);
    expect(after).toEqual({ ...before, updatedAt: after.updatedAt });
    expect((await readUser(w.people.orgAdmin.id)).type).toBe('org_admin');
    const me = (await (await as('donor', { path: '/api/auth' })).json()) as { type: string; org_ids: string[] };
    expect(me).toMatchObject({ type: 'donor', org_ids: [] });
  });

  it('`status`, `created_by`, `_id` and totals on a campaign or appeal', async () => {
    const [before] = await w.t.db.select().from(campaigns).where(eq(campaigns.id, w.appealByDonor));
    const refused = await as('donor', {
      path: `/api/campaigns/${w.appealByDonor}`,
      method: 'PUT',
      json: { status: 'deleted' },
    });
    expect(refused.status).toBe(403);
    const res = await as('donor', {
      path: `/api/campaigns/${w.appealByDonor}`,
      method: 'PUT',
      json: {
        _id: w.campaignY,
        created_by: w.people.admin.id,
        createdBy: w.people.admin.id,
        organization_id: w.orgY,
        summary: { total_donations: 99_999_999, donation_count: 999 },
        total_donations: 99_999_999,
      },
    });
    expect(res.status).toBe(200);
    const [after] = await w.t.db.select().from(campaigns).where(eq(campaigns.id, w.appealByDonor));
    expect(after).toEqual({ ...before, updatedAt: after.updatedAt });
    const dto = (await (await as('anonymous', { path: `/api/appeals/${w.appealByDonor}` })).json()) as {
      summary: { total_donations: number };
    };
    expect(dto.summary.total_donations).toBe(1000);
    // A new appeal cannot be created pre-approved by a donor when its organization reviews appeals.
    await w.t.db.update(organizations).set({ appealsNeedApproval: true }).where(eq(organizations.id, w.orgX));
    const created = await as('donor', {
      path: '/api/campaigns',
      method: 'POST',
      json: {
        title: 'Sneaky',
        description: 'x',
        goal: 1000,
        images: [{ Key: '/images/demo/cause-1.png' }],
        campaign_id: w.campaignX,
        status: 'approved',
        created_by: w.people.admin.id,
      },
    });
    const body = (await created.json()) as { status: string; _id: string };
    expect(body.status).toBe('draft');
    const [row] = await w.t.db.select().from(campaigns).where(eq(campaigns.id, body._id));
    expect(row.createdBy).toBe(w.people.donor.id);
  });

  it('`status`, `amount` after payment, payment references, `_id` and refunds on a donation', async () => {
    const read = async (id: string) => (await w.t.db.select().from(donations).where(eq(donations.id, id)))[0];
    const card = await read(w.cardGiftByDonor);
    const manual = await read(w.giftByDonor);
    // A card gift's amount comes from Stripe: nobody changes it by hand.
    for (const caller of ['orgAdmin', 'admin'] as const) {
      const res = await as(caller, { path: `/api/donations/${w.cardGiftByDonor}`, method: 'PUT', json: { amount: 1 } });
      expect(res.status).toBe(400);
    }
    const ignored = await as('admin', {
      path: `/api/donations/${w.giftByDonor}`,
      method: 'PUT',
      json: {
        _id: w.cardGiftByDonor,
        status: 'refunded',
        refunded_amount: 1000,
        source: 'card',
        payment_intent_id: 'pi_evil',
        paymentIntentId: 'pi_evil',
        invoice_id: 'in_evil',
        subscription_id: 'sub_evil',
        gift_aid: true,
      },
    });
    expect(ignored.status).toBe(200);
    expect(await read(w.cardGiftByDonor)).toEqual(card);
    const afterManual = await read(w.giftByDonor);
    expect(afterManual).toEqual({ ...manual, updatedAt: afterManual.updatedAt });
    // A donor cannot touch even their own gift.
    expect(
      (await as('donor', { path: `/api/donations/${w.giftByDonor}`, method: 'PUT', json: { amount: 1 } })).status,
    ).toBe(403);
    // A checkout cannot choose its status, reference, donor or amount source.
    const started = await as('anonymous', {
      path: '/api/stripe/client_secret',
      method: 'POST',
      json: {
        email: `mass-${stamp()}@matrix.example`,
        amount: 500,
        campaign_id: w.campaignX,
        status: 'succeeded',
        donor_id: w.people.admin.id,
        payment_intent_id: 'pi_evil',
        donation_id: w.giftByDonor,
        source: 'manual',
      },
    });
    expect(started.status).toBe(200);
    const rows = await w.t.db.select().from(donations).where(eq(donations.paymentIntentId, 'pi_evil'));
    expect(rows).toHaveLength(0);
    const [pending] = await w.t.db
      .select()
      .from(donations)
      .where(
        eq(
          donations.paymentIntentId,
          ((await started.json()) as { clientSecret: string }).clientSecret.split('_secret_')[0],
        ),
      );
    expect(pending).toMatchObject({ status: 'pending', source: 'demo', amount: 500 });
    expect(pending.donorId).not.toBe(w.people.admin.id);
    expect(await read(w.giftByDonor)).toEqual(afterManual);
  });

  it("admin lists and an organization's admins on an organization", async () => {
    const [before] = await w.t.db.select().from(organizations).where(eq(organizations.id, w.orgX));
    const res = await as('orgAdmin', {
      path: `/api/organizations/${w.orgX}`,
      method: 'PUT',
      json: { admins: [w.people.orgAdmin.id, w.people.donor.id] },
    });
    expect(res.status).toBe(403);
    const ignored = await as('orgAdmin', {
      path: `/api/organizations/${w.orgX}`,
      method: 'PUT',
      json: { _id: w.orgY, id: w.orgY },
    });
    expect(ignored.status).toBe(200);
    const [after] = await w.t.db.select().from(organizations).where(eq(organizations.id, w.orgX));
    expect(after).toEqual({ ...before, updatedAt: after.updatedAt });
    expect((await readUser(w.people.donor.id)).type).toBe('donor');
  });
});
