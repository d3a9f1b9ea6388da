import { describe, expect, it } from 'vitest';
import { createOrganization, signedIn } from '../../../tests/factories';
import { bodyOf, engineName, errorOf, messageOf, setupTestApp } from '#test-app';

/** A new donor's details, as POST /api/users takes them. */
type DonorInput = {
  email: string;
  phone?: string;
  type?: 'admin';
  organization_id?: string;
  address?: { address?: string; city?: string };
};

const stamp = () => crypto.randomUUID().slice(0, 8);

describe(`organization admins add donors to their organization (${engineName})`, () => {
  it('adds a donor linked to its organization, who then shows in its list (read-only) and not in another organization’s', async () => {
    const t = await setupTestApp();
    const org = await createOrganization(t.db);
    const otherOrg = await createOrganization(t.db);
    const orgAdmin = await signedIn(t.db, 'org_admin', { organizationIds: [org.id] });
    const otherOrgAdmin = await signedIn(t.db, 'org_admin', { organizationIds: [otherOrg.id] });
    const email = `walk-in-${stamp()}@example.com`;

    const users = (token: string) => t.client(token).api.users;
    const res = await users(orgAdmin.token).$post({
      json: { name: { first_name: 'Wendy', last_name: 'Walkin' }, email },
    });
    const created = await bodyOf(res, 201);
    expect(created).toMatchObject({ email, name: { first_name: 'Wendy', last_name: 'Walkin' } });

    const list = await bodyOf(await users(orgAdmin.token).$get({ query: { search: email } }), 200);
    expect(list.map((d) => d._id)).toEqual([created._id]);
    expect((await users(orgAdmin.token)[':id'].$get({ param: { id: created._id } })).status).toBe(200);
    // Read-only for the organization admin, like donors who gave online.
    const edit = await users(orgAdmin.token)[':id'].$put({
      param: { id: created._id },
      json: { first_name: 'Changed' },
    });
    expect((await errorOf(edit, 403)).message).toBe('Organization admins can view their donors but not edit them');

    // Another organization's admin does not see them.
    expect((await users(otherOrgAdmin.token)[':id'].$get({ param: { id: created._id } })).status).toBe(404);
    const theirs = await bodyOf(await users(otherOrgAdmin.token).$get({ query: { search: email } }), 200);
    expect(theirs).toEqual([]);
  });

  it('refuses profile fields, a user type, another organization, duplicates and donors (nothing stored)', async () => {
    const t = await setupTestApp();
    const org = await createOrganization(t.db);
    const otherOrg = await createOrganization(t.db);
    const orgAdmin = await signedIn(t.db, 'org_admin', { organizationIds: [org.id] });
    const donor = await signedIn(t.db, 'donor');
    const admin = await signedIn(t.db, 'admin');
    const add = (token: string, json: DonorInput) =>
      t.client(token).api.users.$post({ json: { first_name: 'Pat', last_name: 'Smith', ...json } });
    const donorOf = (token: string, id: string) => t.client(token).api.users[':id'].$get({ param: { id } });

    const withPhone = await add(orgAdmin.token, { email: `p-${stamp()}@example.com`, phone: '07911 123456' });
    expect(withPhone.status).toBe(403);
    expect(await messageOf(withPhone)).toMatch(/name and email only; leave out phone/);
    const asAdmin = await add(orgAdmin.token, { email: `a-${stamp()}@example.com`, type: 'admin' });
    expect(asAdmin.status).toBe(403);
    expect(await messageOf(asAdmin)).toBe('Only admins can choose a user type');
    const elsewhere = await add(orgAdmin.token, { email: `e-${stamp()}@example.com`, organization_id: otherOrg.id });
    expect(elsewhere.status).toBe(403);
    expect(await messageOf(elsewhere)).toBe('You can add donors only to organizations you administer');
    const byDonor = await add(donor.token, { email: `d-${stamp()}@example.com` });
    expect(byDonor.status).toBe(403);
    // An existing address is a 409 for everyone, and the existing account is not linked or shown.
    const taken = await add(orgAdmin.token, { email: donor.user.email });
    expect(taken.status).toBe(409);
    expect((await donorOf(orgAdmin.token, donor.user.id)).status).toBe(404);

    // An empty address group and phone are not "profile fields"; the blank form may send them.
    const blank = await add(orgAdmin.token, {
      email: `b-${stamp()}@example.com`,
      phone: '',
      address: { address: '', city: '' },
    });
    expect(blank.status).toBe(201);

    // Admins still add with every detail, and may link an organization.
    const full = await add(admin.token, {
      email: `f-${stamp()}@example.com`,
      phone: '07911 123456',
      organization_id: org.id,
    });
    const added = await bodyOf(full, 201);
    expect(added.phone).toBe('+447911123456');
    expect((await donorOf(orgAdmin.token, added._id)).status).toBe(200);
    const unknownOrg = await add(admin.token, {
      email: `u-${stamp()}@example.com`,
      organization_id: crypto.randomUUID(),
    });
    expect(unknownOrg.status).toBe(400);
  });

  it('asks an admin of several organizations which one', async () => {
    const t = await setupTestApp();
    const a = await createOrganization(t.db);
    const b = await createOrganization(t.db);
    const orgAdmin = await signedIn(t.db, 'org_admin', { organizationIds: [a.id, b.id] });
    const email = `two-${stamp()}@example.com`;
    const users = t.client(orgAdmin.token).api.users;
    const unsure = await users.$post({ json: { first_name: 'Two', last_name: 'Orgs', email } });
    expect((await errorOf(unsure, 400)).message).toMatch(/^organization_id: choose which of your organizations/);
    const chosen = await users.$post({ json: { first_name: 'Two', last_name: 'Orgs', email, organization_id: b.id } });
    expect(chosen.status).toBe(201);
  });
});
