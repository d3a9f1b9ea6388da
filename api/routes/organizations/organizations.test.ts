import type { InferResponseType } from 'hono/client';
import { eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { toShortId } from '../../../domain/ids';
import { organizationAdmins, organizations, users } from '../../../db/schema';
import {
  addOrganizationAdmin,
  createOrganization,
  createSession,
  createUser,
  type OrganizationRow,
  signedIn,
  type UserRow,
} from '../../../tests/factories';
import { bodyOf, engineName, errorOf, messageOf, setupTestApp, type TestApp, type TestClient } from '#test-app';

/** The organization an answer carries, as the route declares it (for the one raw create below). */
type Org = InferResponseType<TestClient['api']['organizations']['$post'], 201>;

describe(`organizations API (${engineName})`, () => {
  let t: TestApp;
  let orgA: OrganizationRow;
  let orgB: OrganizationRow;
  let orgAdmin: UserRow;
  let adminToken: string;
  let orgAdminToken: string;
  let donorToken: string;

  beforeAll(async () => {
    t = await setupTestApp();
    orgA = await createOrganization(t.db, { name: 'Aardvark Aid', city: 'Leeds', charityNumber: '1187342' });
    orgB = await createOrganization(t.db, { name: 'Badger Trust' });
    adminToken = (await signedIn(t.db, 'admin')).token;
    ({ user: orgAdmin, token: orgAdminToken } = await signedIn(t.db, 'org_admin', {
      organizationIds: [orgA.id],
      overrides: { firstName: 'Sam', lastName: 'Okafor', email: `sam-${Date.now()}@example.com` },
    }));
    donorToken = (await signedIn(t.db, 'donor')).token;
  });

  const api = (token: string) => t.client(token).api.organizations;
  const one = (token: string) => api(token)[':id'];
  const list = async (token: string, query: { limit?: string; offset?: string; search?: string } = {}) => {
    const res = await api(token).$get({ query });
    return { res, body: await bodyOf(res, 200) };
  };

  it('lists every organization to an admin, with admins and a total count', async () => {
    const { res, body } = await list(adminToken, { limit: '100' });
    expect(Number(res.headers.get('x-total-count'))).toBe(body.length);
    const a = body.find((o) => o._id === orgA.id)!;
    expect(a).toMatchObject({
      name: 'Aardvark Aid',
      charity_number: '1187342',
      address: { address: null, city: 'Leeds', province: null, postal_code: null, country: null },
      admins: [{ label: `Sam Okafor (${orgAdmin.email})`, value: orgAdmin.id }],
    });
    expect(body.some((o) => o._id === orgB.id)).toBe(true);
  });

  it('shows an org_admin only its own organizations', async () => {
    const { res, body } = await list(orgAdminToken);
    expect(body.map((o) => o._id)).toEqual([orgA.id]);
    expect(res.headers.get('x-total-count')).toBe('1');
    expect((await one(orgAdminToken).$get({ param: { id: orgB.id } })).status).toBe(404);
  });

  // Authorization tables ([method, path] lists), visitor-typed ids, deliberately invalid or unknown
  // fields and malformed JSON are the point of some requests below: those stay raw t.request calls.
  it('refuses anonymous callers (401) and donors (403)', async () => {
    for (const [method, path] of [
      ['GET', '/api/organizations'],
      ['POST', '/api/organizations'],
      ['GET', `/api/organizations/${orgA.id}`],
      ['PUT', `/api/organizations/${orgA.id}`],
    ]) {
      const anon = await t.request(path, { method, json: method === 'GET' ? undefined : { name: 'X' } });
      expect(anon.status, `${method} ${path}`).toBe(401);
      await errorOf(anon, 401);
      const donor = await t.request(path, {
        method,
        token: donorToken,
        json: method === 'GET' ? undefined : { name: 'X' },
      });
      expect(donor.status, `${method} ${path}`).toBe(403);
    }
    const [row] = await t.db.select().from(organizations).where(eq(organizations.id, orgA.id));
    expect(row.name).toBe('Aardvark Aid');
  });

  it('reads one organization by UUID or short id, and 404s unknown or malformed ids', async () => {
    for (const id of [orgA.id, toShortId(orgA.id)]) {
      const res = await one(orgAdminToken).$get({ param: { id } });
      expect((await bodyOf(res, 200))._id).toBe(orgA.id);
    }
    for (const id of ['00000000-0000-0000-0000-000000000000', 'not-an-id', "1'%20or%201=1"]) {
      const res = await t.request(`/api/organizations/${id}`, { token: adminToken });
      expect(res.status).toBe(404);
      expect(await res.json()).toEqual({ statusCode: 404, message: 'Organization Not Found' });
    }
  });

  it('lets an admin create an organization whose admins become org_admins', async () => {
    const newAdmin = await createUser(t.db, { firstName: 'Nia', lastName: 'Jones' });
    const res = await t.request('/api/organizations', {
      method: 'POST',
      token: adminToken,
      json: {
        name: '  Curlew Care  ',
        email: 'Hello@Curlew.org.uk',
        phone: '0113 496 0101',
        charity_number: 'SC051234',
        address: {
          address: '1 High St',
          city: 'York',
          postal_code: 'YO1 7HH',
          country: 'United Kingdom',
          province: '',
        },
        admins: [newAdmin.id],
        unknown_field: 'ignored',
      },
    });
    expect(res.status).toBe(201);
    const body: Org = await res.json();
    expect(body).toMatchObject({
      name: 'Curlew Care',
      email: 'hello@curlew.org.uk',
      phone: '0113 496 0101',
      address: {
        address: '1 High St',
        city: 'York',
        province: null,
        postal_code: 'YO1 7HH',
        country: 'United Kingdom',
      },
      admins: [{ label: `Nia Jones (${newAdmin.email})`, value: newAdmin.id }],
    });
    expect(body).not.toHaveProperty('unknown_field');
    const [user] = await t.db.select().from(users).where(eq(users.id, newAdmin.id));
    expect(user.type).toBe('org_admin');
    // The new org_admin now sees exactly that organization.
    const token = await createSession(t.db, newAdmin.id);
    expect((await list(token)).body.map((o) => o._id)).toEqual([body._id]);
  });

  it('does not let an org_admin create organizations', async () => {
    const res = await api(orgAdminToken).$post({ json: { name: 'Sneaky Org' } });
    expect(res.status).toBe(403);
    const rows = await t.db.select().from(organizations).where(eq(organizations.name, 'Sneaky Org'));
    expect(rows).toHaveLength(0);
  });

  it.each([
    [{}, /name: Name is required/],
    [{ name: '   ' }, /name: Name is required/],
    [{ name: 'X'.repeat(201) }, /name: Use at most 200 characters/],
    [{ name: 'Ok', email: 'not-an-email' }, /email: Enter a valid email address/],
    [{ name: 'Ok', phone: 'call me' }, /phone: Use digits/],
    [{ name: 'Ok', admins: 'abc' }, /admins/],
    [{ name: 'Ok', admins: ['not-an-id'] }, /admins: "not-an-id" is not a user id/],
    [{ name: 'Ok', admins: ['00000000-0000-0000-0000-000000000000'] }, /admins: no user with id/],
    [{ name: 'Ok', image: 'javascript:alert(1)' }, /image: Upload a PNG or JPEG image/],
    [{ name: 'Ok', image: '../../etc/passwd' }, /image: Upload a PNG or JPEG image/],
  ])('rejects invalid organization %j with a 400 and stores nothing', async (json, message) => {
    const before = (await t.db.select().from(organizations)).length;
    const res = await t.request('/api/organizations', { method: 'POST', token: adminToken, json });
    const body = await errorOf(res, 400);
    expect(body.message).toMatch(message);
    expect((await t.db.select().from(organizations)).length).toBe(before);
  });

  it('checks an uploaded logo by its content (415) and caps the body (413), storing nothing', async () => {
    const before = (await t.db.select().from(organizations)).length;
    const notImage = `data:image/png;base64,${btoa('x'.repeat(150_000))}`;
    const res = await api(adminToken).$post({ json: { name: 'Logo Org', image: notImage } });
    expect(res.status).toBe(415);
    expect(await messageOf(res)).toMatch(/not a PNG or JPEG/);
    const huge = await api(adminToken).$post({ json: { name: 'Logo Org', image: 'A'.repeat(8 * 1024 * 1024) } });
    await errorOf(huge, 413);
    const bigPut = await one(adminToken).$put({ param: { id: orgB.id }, json: { name: 'x'.repeat(150_000) } });
    expect(bigPut.status).toBe(400);
    expect((await t.db.select().from(organizations)).length).toBe(before);
  });

  it('rejects a malformed JSON body with 400', async () => {
    const res = await t.request('/api/organizations', {
      method: 'POST',
      token: adminToken,
      body: '{"name":',
      headers: { 'content-type': 'application/json' },
    });
    expect(res.status).toBe(400);
  });

  it('lets an org_admin update its own organization but not its admins', async () => {
    // The admins as the dashboard's select sends them ({label, value}; the schema types only value): raw.
    const res = await t.request(`/api/organizations/${orgA.id}`, {
      method: 'PUT',
      token: orgAdminToken,
      json: { phone: '0113 496 0999', address: { city: 'Bradford' }, admins: [{ label: 'me', value: orgAdmin.id }] },
    });
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({
      name: 'Aardvark Aid',
      phone: '0113 496 0999',
      address: { city: 'Bradford' },
    });

    const other = await createUser(t.db);
    const denied = await one(orgAdminToken).$put({
      param: { id: orgA.id },
      json: { name: 'Renamed', admins: [orgAdmin.id, other.id] },
    });
    expect(denied.status).toBe(403);
    expect(await messageOf(denied)).toBe('Only admins can change the admins of an organization');
    const [row] = await t.db.select().from(organizations).where(eq(organizations.id, orgA.id));
    expect(row.name).toBe('Aardvark Aid');
    const links = await t.db.select().from(organizationAdmins).where(eq(organizationAdmins.organizationId, orgA.id));
    expect(links.map((l) => l.userId)).toEqual([orgAdmin.id]);
  });

  it("hides another organization from an org_admin's PUT (404) and changes nothing", async () => {
    const res = await one(orgAdminToken).$put({ param: { id: orgB.id }, json: { name: 'Hijacked' } });
    expect(res.status).toBe(404);
    const [row] = await t.db.select().from(organizations).where(eq(organizations.id, orgB.id));
    expect(row.name).toBe('Badger Trust');
  });

  it('lets an admin replace the admins: added donors are promoted, orphaned org_admins demoted', async () => {
    const org = await createOrganization(t.db, { name: 'Dipper Fund' });
    const oldAdmin = await createUser(t.db, { type: 'org_admin' });
    const multiAdmin = await createUser(t.db, { type: 'org_admin' });
    await addOrganizationAdmin(t.db, org.id, oldAdmin.id);
    await addOrganizationAdmin(t.db, org.id, multiAdmin.id);
    await addOrganizationAdmin(t.db, orgB.id, multiAdmin.id);
    const newcomer = await createUser(t.db);

    const res = await one(adminToken).$put({
      param: { id: org.id },
      json: { name: 'Dipper Fund Ltd', admins: [newcomer.id] },
    });
    const body = await bodyOf(res, 200);
    expect(body.name).toBe('Dipper Fund Ltd');
    expect(body.admins.map((a) => a.value)).toEqual([newcomer.id]);
    const typeOf = async (id: string) => (await t.db.select().from(users).where(eq(users.id, id)))[0].type;
    expect(await typeOf(newcomer.id)).toBe('org_admin');
    expect(await typeOf(oldAdmin.id)).toBe('donor');
    expect(await typeOf(multiAdmin.id)).toBe('org_admin');
  });

  it('refuses a second organization of the same name (any case or spacing) with a 409, creating or renaming', async () => {
    const post = (name: string) => api(adminToken).$post({ json: { name } });
    const first = await post('Heron Relief');
    expect(first.status).toBe(201);
    const before = await t.db.select().from(organizations);
    for (const name of ['Heron Relief', '  heron RELIEF ']) {
      const again = await post(name);
      expect(again.status).toBe(409);
      expect(await messageOf(again)).toBe(
        'name: an organization called "Heron Relief" already exists; choose another name'.replace(
          'Heron Relief',
          name.trim(),
        ),
      );
    }
    const rename = await one(adminToken).$put({ param: { id: orgB.id }, json: { name: 'Aardvark aid' } });
    expect(rename.status).toBe(409);
    expect(await t.db.select().from(organizations)).toEqual(before);
    // Its own name again (the dashboard sends the whole form back) is fine.
    const same = await one(adminToken).$put({ param: { id: orgB.id }, json: { name: 'Badger Trust' } });
    expect(same.status).toBe(200);
  });

  it('validates updates and leaves the row alone on a 400', async () => {
    const res = await one(adminToken).$put({ param: { id: orgB.id }, json: { name: '', email: 'x' } });
    expect(res.status).toBe(400);
    expect(await messageOf(res)).toMatch(/name: Name is required; email: Enter a valid email address/);
    const [row] = await t.db.select().from(organizations).where(eq(organizations.id, orgB.id));
    expect(row.name).toBe('Badger Trust');
  });

  it('searches by name and bounds paging', async () => {
    const { body } = await list(adminToken, { search: 'badger' });
    expect(body.map((o) => o._id)).toEqual([orgB.id]);
    // % is an ordinary character, not a wildcard (other suites sharing the D1 database may hold a name with one).
    expect((await list(adminToken, { search: '%' })).body.filter((o) => !o.name.includes('%'))).toEqual([]);
    expect((await api(adminToken).$get({ query: { limit: '1000' } })).status).toBe(400);
    const page = await list(adminToken, { limit: '1', offset: '1' });
    expect(page.body).toHaveLength(1);
  });

  it('stores the charity identity: legal name, regulator, a number that fits the regulator, and the HMRC reference', async () => {
    const created = await api(adminToken).$post({
      json: {
        name: 'Loch Aid',
        legal_name: 'Loch Aid SCIO',
        regulator: 'oscr',
        charity_number: 'sc012345',
        hmrc_reference: 'sc12345',
      },
    });
    const org = await bodyOf(created, 201);
    const identity = {
      legal_name: 'Loch Aid SCIO',
      regulator: 'oscr',
      charity_number: 'SC012345',
      hmrc_reference: 'SC12345',
    };
    expect(org).toMatchObject(identity);

    // A Charity Commission number under OSCR, an unknown regulator and a malformed HMRC reference are 400s naming the field.
    const cases: [Record<string, unknown>, RegExp][] = [
      [{ charity_number: '1234567' }, /^charity_number: A Scottish charity number is SC/],
      [{ regulator: 'ccni' }, /^charity_number: A Northern Ireland charity number/],
      [{ regulator: 'fca' }, /^regulator must be one of: ccew, oscr, ccni/],
      [{ hmrc_reference: '12-34' }, /^hmrc_reference: Use letters then digits/],
    ];
    for (const [json, message] of cases) {
      const res = await t.request(`/api/organizations/${org._id}`, { method: 'PUT', token: adminToken, json });
      expect((await errorOf(res, 400)).message, JSON.stringify(json)).toMatch(message);
    }
    // Moving to CCNI with a number that fits is fine; nothing else was changed by the refusals.
    const moved = await one(adminToken).$put({
      param: { id: org._id },
      json: { regulator: 'ccni', charity_number: 'NIC100001' },
    });
    const answer = await bodyOf(moved, 200);
    expect(answer).toMatchObject({ ...identity, regulator: 'ccni', charity_number: 'NIC100001' });
    // Stored as answered: a fresh read gives the same organization.
    expect(await bodyOf(await one(adminToken).$get({ param: { id: org._id } }), 200)).toEqual(answer);
  });
});
