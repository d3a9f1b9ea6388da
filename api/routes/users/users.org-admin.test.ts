import { describe, expect, it } from 'vitest';
import { createOrganization, signedIn } from '../../../tests/factories';
import { engineName, setupTestApp } from '../../../tests/setup/test-app';

type Donor = { _id: string; email: string; name: { first_name: string; last_name: string }; phone: string | null };

const stamp = () => crypto.randomUUID().slice(0, 8);

describe(`organization admins add donors to their organization (${engineName})`, () => {
  it('adds a donor linked to its organization, who then shows in its list (read-only) and not in another organization’s', async () => {
    const t = await setupTestApp();
    const org = await createOrganization(t.db);
    const otherOrg = await createOrganization(t.db);
    const orgAdmin = await signedIn(t.db, 'org_admin', { organizationIds: [org.id] });
    const otherOrgAdmin = await signedIn(t.db, 'org_admin', { organizationIds: [otherOrg.id] });
    const email = `walk-in-${stamp()}@example.com`;

    const res = await t.request('/api/users', {
      method: 'POST',
      token: orgAdmin.token,
      json: { name: { first_name: 'Wendy', last_name: 'Walkin' }, email },
    });
    expect(res.status).toBe(201);
    const created = (await res.json()) as Donor;
    expect(created).toMatchObject({ email, name: { first_name: 'Wendy', last_name: 'Walkin' } });

    const list = (await (
      await t.request(`/api/users?search=${encodeURIComponent(email)}`, { token: orgAdmin.token })
    ).json()) as Donor[];
    expect(list.map((d) => d._id)).toEqual([created._id]);
    expect((await t.request(`/api/users/${created._id}`, { token: orgAdmin.token })).status).toBe(200);
    // Read-only for the organization admin, like donors who gave online.
    const edit = await t.request(`/api/users/${created._id}`, {
      method: 'PUT',
      token: orgAdmin.token,
      json: { first_name: 'Changed' },
    });
    expect(edit.status).toBe(403);
    expect(((await edit.json()) as { message: string }).message).toBe(
      'Organization admins can view their donors but not edit them',
    );

    // Another organization's admin does not see them.
    expect((await t.request(`/api/users/${created._id}`, { token: otherOrgAdmin.token })).status).toBe(404);
    const theirs = (await (
      await t.request(`/api/users?search=${encodeURIComponent(email)}`, { token: otherOrgAdmin.token })
    ).json()) as Donor[];
    expect(theirs).toEqual([]);
  });

  it('refuses profile fields, a user type, another organization, duplicates and donors (nothing stored)', async () => {
    const t = await setupTestApp();
    const org = await createOrganization(t.db);
    const otherOrg = await createOrganization(t.db);
    const orgAdmin = await signedIn(t.db, 'org_admin', { organizationIds: [org.id] });
    const donor = await signedIn(t.db, 'donor');
    const admin = await signedIn(t.db, 'admin');
    const add = (token: string, json: Record<string, unknown>) =>
      t.request('/api/users', { method: 'POST', token, json: { first_name: 'Pat', last_name: 'Smith', ...json } });
    const message = async (res: Response) => ((await res.json()) as { message: string }).message;

    const withPhone = await add(orgAdmin.token, { email: `p-${stamp()}@example.com`, phone: '07911 123456' });
    expect(withPhone.status).toBe(403);
    expect(await message(withPhone)).toMatch(/name and email only; leave out phone/);
    const asAdmin = await add(orgAdmin.token, { email: `a-${stamp()}@example.com`, type: 'admin' });
    expect(asAdmin.status).toBe(403);
    expect(await message(asAdmin)).toBe('Only admins can choose a user type');
    const elsewhere = await add(orgAdmin.token, { email: `e-${stamp()}@example.com`, organization_id: otherOrg.id });
    expect(elsewhere.status).toBe(403);
    expect(await message(elsewhere)).toBe('You can add donors only to organizations you administer');
    const byDonor = await add(donor.token, { email: `d-${stamp()}@example.com` });
    expect(byDonor.status).toBe(403);
    // An existing address is a 409 for everyone, and the existing account is not linked or shown.
    const taken = await add(orgAdmin.token, { email: donor.user.email });
    expect(taken.status).toBe(409);
    expect((await t.request(`/api/users/${donor.user.id}`, { token: orgAdmin.token })).status).toBe(404);

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
    expect(full.status).toBe(201);
    const added = (await full.json()) as Donor;
    expect(added.phone).toBe('+447911123456');
    expect((await t.request(`/api/users/${added._id}`, { token: orgAdmin.token })).status).toBe(200);
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
    const unsure = await t.request('/api/users', {
      method: 'POST',
      token: orgAdmin.token,
      json: { first_name: 'Two', last_name: 'Orgs', email },
    });
    expect(unsure.status).toBe(400);
    expect(((await unsure.json()) as { message: string }).message).toMatch(
      /^organization_id: choose which of your organizations/,
    );
    const chosen = await t.request('/api/users', {
      method: 'POST',
      token: orgAdmin.token,
      json: { first_name: 'Two', last_name: 'Orgs', email, organization_id: b.id },
    });
    expect(chosen.status).toBe(201);
  });
});
