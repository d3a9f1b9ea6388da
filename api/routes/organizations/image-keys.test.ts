import { describe, expect, it } from 'vitest';
import { signedIn } from '../../../tests/factories';
import { bodyOf, errorOf, setupTestApp, type TestApp } from '#test-app';

const PNG_1PX = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==';
const dataUrl = `data:image/png;base64,${PNG_1PX}`;

/** Records puts and deletes, so the test runs on both engines without R2. */
function fakeBucket() {
  const objects = new Map<string, Uint8Array>();
  const deleted: string[] = [];
  const bucket = {
    async put(key: string, bytes: Uint8Array) {
      objects.set(key, bytes);
      return {};
    },
    async head(key: string) {
      return objects.has(key) ? { size: objects.get(key)!.length } : null;
    },
    async get() {
      return null;
    },
    async delete(keys: string | string[]) {
      for (const key of [keys].flat()) {
        deleted.push(key);
        objects.delete(key);
      }
    },
  };
  return { objects, deleted, binding: bucket as unknown as R2Bucket };
}

/** Saves the signed-in donor's own record (PUT /api/users/me). */
const saveMe = (t: TestApp, token: string, json: { image: string | null; first_name?: string }) =>
  t.client(token).api.users[':id'].$put({ param: { id: 'me' }, json });

describe('image Keys belong to the record that uploaded them', () => {
  it("a donor cannot take another record's stored Key and then delete it by clearing the field", async () => {
    const bucket = fakeBucket();
    const t = await setupTestApp({ IMAGES: bucket.binding });
    const ownerToken = (await signedIn(t.db, 'donor')).token;
    const uploaded = await saveMe(t, ownerToken, { image: dataUrl });
    const victimKey = (await bodyOf(uploaded, 200)).image!;
    expect(bucket.objects.has(victimKey)).toBe(true);

    const token = (await signedIn(t.db, 'donor')).token; // the attacker's
    const hijack = await saveMe(t, token, { image: victimKey });
    expect(await errorOf(hijack, 400)).toEqual({
      statusCode: 400,
      message: 'image: Upload a PNG or JPEG image, or keep the current one',
    });
    const cleared = await saveMe(t, token, { image: null });
    expect(cleared.status).toBe(200);
    expect(bucket.deleted).not.toContain(victimKey);
    expect(bucket.objects.has(victimKey)).toBe(true);

    // The owner still keeps their own Key, and a static demo image is fine for anyone.
    const kept = await saveMe(t, ownerToken, { image: victimKey, first_name: 'Kept' });
    expect(kept.status).toBe(200);
    const demo = await saveMe(t, token, { image: '/images/demo/cause-2.png' });
    expect(demo.status).toBe(200);
    expect(bucket.deleted).toEqual([]);
  });

  it("an organization cannot adopt a donor's photo by Key", async () => {
    const bucket = fakeBucket();
    const t = await setupTestApp({ IMAGES: bucket.binding });
    const donorToken = (await signedIn(t.db, 'donor')).token;
    const photo = (await bodyOf(await saveMe(t, donorToken, { image: dataUrl }), 200)).image!;
    const adminToken = (await signedIn(t.db, 'admin')).token;
    const res = await t.client(adminToken).api.organizations.$post({ json: { name: 'Adopter', image: photo } });
    expect(res.status).toBe(400);
    expect(bucket.objects.has(photo)).toBe(true);
  });
});
