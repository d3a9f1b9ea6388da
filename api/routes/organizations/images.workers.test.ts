import { eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { organizations, users } from '../../../db/schema';
import { createUser, signedIn } from '../../../tests/factories';
import { fileBindings } from '../../../tests/setup/file-bindings.workers';
import { bodyOf, setupTestApp, type TestApp } from '#test-app';

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
    const organizations = t.client(adminToken).api.organizations;
    const res = await organizations.$post({ json: { name: 'Logo Trust', image: dataUrl } });
    const org = await bodyOf(res, 201);
    const image = org.image!;
    expect(image).toMatch(/^campaigns\/[0-9a-f-]{36}\.png$/);
    expect(org.image_url).toBe(`/api/images/${image}`);
    expect(await bucket.head(image)).not.toBeNull();
    // The address exactly as the answer gives it, as a browser would fetch it: raw.
    expect((await t.request(org.image_url!)).status).toBe(200);

    const same = await organizations[':id'].$put({ param: { id: org._id }, json: { name: 'Logo Trust', image } });
    expect((await bodyOf(same, 200)).image).toBe(image);
    expect(await bucket.head(image)).not.toBeNull();
  });

  it("replaces a donor's photo and deletes the old one; removing it clears the field", async () => {
    const { user: donor, token } = await signedIn(t.db, 'donor');
    const me = t.client(token).api.users[':id'];
    const save = async (image: string) => bodyOf(await me.$put({ param: { id: 'me' }, json: { image } }), 200);
    const first = (await save(dataUrl)).image!;
    const second = (await save(dataUrl)).image!;
    expect(second).not.toBe(first);
    expect(await bucket.head(first)).toBeNull();
    expect(await bucket.head(second)).not.toBeNull();
    expect((await save('')).image).toBeNull();
    expect(await bucket.head(second)).toBeNull();
    const [row] = await t.db.select().from(users).where(eq(users.id, donor.id));
    expect(row.avatar).toBeNull();
  });

  it('deletes the upload again when the write is refused (duplicate email)', async () => {
    const existing = await createUser(t.db);
    const before = (await bucket.list({ prefix: 'campaigns/' })).objects.length;
    const res = await t.client(adminToken).api.users.$post({
      json: { first_name: 'Dup', last_name: 'Licate', email: existing.email, image: dataUrl },
    });
    expect(res.status).toBe(409);
    expect((await bucket.list({ prefix: 'campaigns/' })).objects.length).toBe(before);
    expect(await t.db.select().from(organizations).where(eq(organizations.name, 'Dup'))).toHaveLength(0);
  });
});
