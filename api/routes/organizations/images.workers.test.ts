import { eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { organizations, users } from '../../../db/schema';
import { createUser, signedIn } from '../../../tests/factories';
import { fileBindings } from '../../../tests/setup/file-bindings.workers';
import { setupTestApp, type TestApp } from '../../../tests/setup/test-app';

/** R2 exists only in workerd: organization logos and donor photos sent as data URLs. */
/** This file's own bucket (vitest.config.ts gives every workerd test file one). */
let bucket: R2Bucket;
const PNG_1PX = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==';
const dataUrl = `data:image/png;base64,${PNG_1PX}`;

describe('organization logos and donor photos in R2 (d1 + r2)', () => {
  let t: TestApp;
  let adminToken: string;

  beforeAll(async () => {
    bucket = fileBindings().images;
    t = await setupTestApp({ IMAGES: bucket });
    adminToken = (await signedIn(t.db, 'admin')).token;
  });

  it('stores a new logo, serves it, and keeps the key on an unchanged save', async () => {
    const res = await t.request('/api/organizations', {
      method: 'POST',
      token: adminToken,
      json: { name: 'Logo Trust', image: dataUrl },
    });
    expect(res.status).toBe(201);
    const org = (await res.json()) as { _id: string; image: string; image_url: string };
    expect(org.image).toMatch(/^campaigns\/[0-9a-f-]{36}\.png$/);
    expect(org.image_url).toBe(`/api/images/${org.image}`);
    expect(await bucket.head(org.image)).not.toBeNull();
    expect((await t.request(org.image_url)).status).toBe(200);

    const same = await t.request(`/api/organizations/${org._id}`, {
      method: 'PUT',
      token: adminToken,
      json: { name: 'Logo Trust', image: org.image },
    });
    expect(same.status).toBe(200);
    expect(((await same.json()) as { image: string }).image).toBe(org.image);
    expect(await bucket.head(org.image)).not.toBeNull();
  });

  it("replaces a donor's photo and deletes the old one; removing it clears the field", async () => {
    const { user: donor, token } = await signedIn(t.db, 'donor');
    const first = (await (
      await t.request('/api/users/me', { method: 'PUT', token, json: { image: dataUrl } })
    ).json()) as { image: string };
    const second = (await (
      await t.request('/api/users/me', { method: 'PUT', token, json: { image: dataUrl } })
    ).json()) as { image: string };
    expect(second.image).not.toBe(first.image);
    expect(await bucket.head(first.image)).toBeNull();
    expect(await bucket.head(second.image)).not.toBeNull();
    const cleared = await t.request('/api/users/me', { method: 'PUT', token, json: { image: '' } });
    expect(((await cleared.json()) as { image: string | null }).image).toBeNull();
    expect(await bucket.head(second.image)).toBeNull();
    const [row] = await t.db.select().from(users).where(eq(users.id, donor.id));
    expect(row.avatar).toBeNull();
  });

  it('deletes the upload again when the write is refused (duplicate email)', async () => {
    const existing = await createUser(t.db);
    const before = (await bucket.list({ prefix: 'campaigns/' })).objects.length;
    const res = await t.request('/api/users', {
      method: 'POST',
      token: adminToken,
      json: { first_name: 'Dup', last_name: 'Licate', email: existing.email, image: dataUrl },
    });
    expect(res.status).toBe(409);
    expect((await bucket.list({ prefix: 'campaigns/' })).objects.length).toBe(before);
    expect(await t.db.select().from(organizations).where(eq(organizations.name, 'Dup'))).toHaveLength(0);
  });
});
