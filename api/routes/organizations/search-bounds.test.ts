import { describe, expect, it } from 'vitest';
import { createOrganization, createUser, signedIn } from '../../../tests/factories';
import { engineName, setupTestApp } from '#test-app';

describe(`staff search terms of any allowed length (${engineName})`, () => {
  // The lists search with instr(), not LIKE (D1 refuses LIKE patterns over 50 bytes): every term up
  // to the shared 40-character cap (domain/limits.ts) answers, even one that would escape to a long
  // LIKE pattern; longer terms are a 400, never a 500.
  it('answers every search up to the 40-character cap (D1 refuses LIKE patterns over 50 bytes), wildcards taken literally', async () => {
    const t = await setupTestApp();
    const adminToken = (await signedIn(t.db, 'admin')).token;
    const longName = `The ${'Very '.repeat(12)}Long Charity Trust`;
    const org = await createOrganization(t.db, { name: longName });
    const donor = await createUser(t.db, {
      firstName: 'Percy',
      lastName: `${'Smith'.repeat(10)}`,
      email: `percent%_under-${crypto.randomUUID().slice(0, 6)}@example.org`,
    });
    for (const term of ['x'.repeat(40), '%'.repeat(40), '_\\'.repeat(20), 'é'.repeat(40)]) {
      const length = term.length;
      for (const path of ['/api/users', '/api/organizations']) {
        const res = await t.request(`${path}?search=${encodeURIComponent(term)}`, { token: adminToken });
        expect(res.status, `${path} ${length}`).toBe(200);
        expect(await res.json()).toEqual([]);
      }
    }
    const orgHit = await t.request(
      `/api/organizations?search=${encodeURIComponent(longName.slice(0, 40).toUpperCase())}`,
      { token: adminToken },
    );
    expect(((await orgHit.json()) as { _id: string }[]).map((o) => o._id)).toEqual([org.id]);
    const userHit = await t.request(`/api/users?search=${encodeURIComponent(`Percy ${'smith'.repeat(6)}`)}`, {
      token: adminToken,
    });
    expect(((await userHit.json()) as { _id: string }[]).map((u) => u._id)).toEqual([donor.id]);
    // % and _ are ordinary characters, not wildcards.
    const literal = await t.request(`/api/users?search=${encodeURIComponent('%_under')}`, { token: adminToken });
    expect(((await literal.json()) as { _id: string }[]).map((u) => u._id)).toEqual([donor.id]);
    expect(
      (await (await t.request('/api/organizations?search=%25', { token: adminToken })).json()) as unknown[],
    ).toEqual([]);
    // Longer terms are refused with a 400 naming the cap.
    for (const length of [41, 49, 100]) {
      for (const path of ['/api/users', '/api/organizations', '/api/donations']) {
        expect(
          (await t.request(`${path}?search=${'y'.repeat(length)}`, { token: adminToken })).status,
          `${path} ${length}`,
        ).toBe(400);
      }
    }
  });
});
