import { describe, expect, it } from 'vitest';
import { users } from '../../../db/schema';
import { signedIn } from '../../../tests/factories';
import { engineName, setupTestApp } from '#test-app';

/** D1 refuses statements with more than 100 bound parameters; libSQL has no such limit. */
describe(`lists and admin links beyond 100 bound parameters (${engineName})`, () => {
  it('lists 1000 donors with their org ids and saves organizations with 40 and then 50 admins', async () => {
    const t = await setupTestApp();
    const token = (await signedIn(t.db, 'admin')).token;
    const stamp = crypto.randomUUID().slice(0, 8);
    const bulk = Array.from({ length: 120 }, (_, i) => ({
      email: `bulk-${stamp}-${i}@example.com`,
      firstName: 'Bulk',
      lastName: String(i),
    }));
    for (let i = 0; i < bulk.length; i += 10) await t.db.insert(users).values(bulk.slice(i, i + 10));
    const ids = (await t.db.select({ id: users.id, email: users.email }).from(users))
      .filter((u) => u.email.startsWith(`bulk-${stamp}-`))
      .map((u) => u.id);
    expect(ids).toHaveLength(120);

    const created = await t.request('/api/organizations', {
      method: 'POST',
      token,
      json: { name: `Big org ${stamp}`, admins: ids.slice(0, 40) },
    });
    expect(created.status).toBe(201);
    const org = (await created.json()) as { _id: string; admins: { value: string }[] };
    expect(org.admins).toHaveLength(40);

    const updated = await t.request(`/api/organizations/${org._id}`, {
      method: 'PUT',
      token,
      json: { admins: ids.slice(5, 55) },
    });
    expect(updated.status).toBe(200);
    expect(((await updated.json()) as { admins: { value: string }[] }).admins.map((a) => a.value).sort()).toEqual(
      ids.slice(5, 55).sort(),
    );

    const list = await t.request('/api/users?limit=1000', { token });
    expect(list.status).toBe(200);
    const donors = (await list.json()) as { _id: string; org_ids: string[]; type: string }[];
    expect(donors.length).toBeGreaterThan(100);
    const byId = new Map(donors.map((d) => [d._id, d]));
    expect(byId.get(ids[10])).toMatchObject({ org_ids: [org._id], type: 'org_admin' });
    expect(byId.get(ids[0])).toMatchObject({ org_ids: [], type: 'donor' });
    expect(byId.get(ids[100])!.org_ids).toEqual([]);

    const orgs = await t.request('/api/organizations?limit=100', { token });
    expect(orgs.status).toBe(200);
  });
});
