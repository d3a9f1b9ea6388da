import { describe, expect, it } from 'vitest';
import { createOrganization, createSession, createUser } from '../../../tests/factories';
import { engineName, setupTestApp } from '../../../tests/setup/test-app';

describe(`staff search terms of any allowed length (${engineName})`, () => {
  it('answers searches of 49 to 100 characters (D1 refuses LIKE patterns over 50 bytes), wildcards taken literally', async () => {
    const t = await setupTestApp();
    const adminToken = await createSession(t.db, (await createUser(t.db, { type: 'admin' })).id);
    const longName = `The ${'Very '.repeat(12)}Long Charity Trust`;
    const org = await createOrganization(t.db, { name: longName });
    const donor = await createUser(t.db, { firstName: 'Percy', lastName: `${'Smith'.repeat(10)}`, email: `percent%_under-${crypto.randomUUID().slice(0, 6)}@example.org` });
    for (const length of [49, 50, 51, 64, 100]) {
      const term = 'x'.repeat(length);
      for (const path of ['/api/users', '/api/organizations']) {
        const res = await t.request(`${path}?search=${term}`, { token: adminToken });
        expect(res.status, `${path} ${length}`).toBe(200);
        expect(await res.json()).toEqual([]);
      }
    }
    const orgHit = await t.request(`/api/organizations?search=${encodeURIComponent(longName.slice(0, 60).toUpperCase())}`, { token: adminToken });
    expect(((await orgHit.json()) as { _id: string }[]).map((o) => o._id)).toEqual([org.id]);
    const userHit = await t.request(`/api/users?search=${encodeURIComponent(`Percy ${'smith'.repeat(10)}`)}`, { token: adminToken });
    expect(((await userHit.json()) as { _id: string }[]).map((u) => u._id)).toEqual([donor.id]);
    // % and _ are ordinary characters, not wildcards.
    const literal = await t.request(`/api/users?search=${encodeURIComponent('%_under')}`, { token: adminToken });
    expect(((await literal.json()) as { _id: string }[]).map((u) => u._id)).toEqual([donor.id]);
    expect(((await (await t.request('/api/organizations?search=%25', { token: adminToken })).json()) as unknown[])).toEqual([]);
    // Over 100 characters is refused as before.
    expect((await t.request(`/api/users?search=${'y'.repeat(101)}`, { token: adminToken })).status).toBe(400);
  });
});
