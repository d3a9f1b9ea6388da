import { beforeAll, describe, expect, it } from 'vitest';
import { createCampaign, signedIn } from '../../../tests/factories';
import { fileBindings } from '../../../tests/setup/file-bindings.workers';
import { bodyOf, errorOf, type JsonOf, setupTestApp, type TestApp, type TestClient } from '#test-app';

/** What creating a campaign or appeal takes, as the API's schema types it. */
type CampaignBody = JsonOf<TestClient['api']['campaigns']['$post']>;

/** R2 exists only in workerd, so image upload and serving are tested here. */
/** This file's own bucket (vitest.config.ts gives every workerd test file one). */
let bucket: R2Bucket;

const PNG_1PX = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==';
const pngBytes = () => Uint8Array.from(atob(PNG_1PX), (ch) => ch.charCodeAt(0));
const toBase64 = (bytes: Uint8Array) => {
  let binary = '';
  for (let i = 0; i < bytes.length; i += 0x8000) binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return btoa(binary);
};
const JPEG_HEAD = new Uint8Array([0xff, 0xd8, 0xff, 0xe0, 0x00, 0x10, 0x4a, 0x46, 0x49, 0x46, 0x00, 0x01]);

async function storedCount() {
  return (await bucket.list({ prefix: 'campaigns/' })).objects.length;
}

describe('campaign images in R2 (d1 + r2)', () => {
  let t: TestApp;
  let parentId: string;
  let donorToken: string;

  const body = (images: CampaignBody['images'], overrides: Partial<CampaignBody> = {}): CampaignBody => ({
    title: 'Appeal with photos',
    description: 'Photos from the day.',
    goal: 10_000,
    campaign_id: parentId,
    images,
    ...overrides,
  });
  const post = (json: CampaignBody, token: string | undefined = donorToken) =>
    t.client(token).api.campaigns.$post({ json });
  /** A stored image sent back as the form keeps it: by its Key. */
  const kept = ({ Key, name, size, type }: { Key: string; name: string; size: number; type: string }) => ({
    Key,
    name,
    size,
    type,
  });
  const put = (id: string, json: Partial<CampaignBody>) =>
    t.client(donorToken).api.campaigns[':id'].$put({ param: { id }, json });

  beforeAll(async () => {
    bucket = fileBindings().images;
    t = await setupTestApp({ IMAGES: bucket });
    parentId = (await createCampaign(t.db)).id;
    donorToken = (await signedIn(t.db, 'donor')).token;
  });

  it('stores a new PNG under a random key and serves it with long-lived cache headers', async () => {
    const res = await post(
      body([{ base64: `data:image/png;base64,${PNG_1PX}`, name: 'photo.png', size: 1, type: 'image/png' }]),
    );
    const created = await bodyOf(res, 201);
    const [image] = created.images;
    expect(image.Key).toMatch(/^campaigns\/[0-9a-f-]{36}\.png$/);
    expect(image).toMatchObject({
      name: 'photo.png',
      size: pngBytes().length,
      type: 'image/png',
      url: `/api/images/${image.Key}`,
    });

    // Raw: the image's URL as the answer gives it (the route takes the rest of the path as its key).
    const served = await t.request(image.url);
    expect(served.status).toBe(200);
    expect(served.headers.get('content-type')).toBe('image/png');
    expect(served.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    const etag = served.headers.get('etag');
    expect(etag).toBeTruthy();
    expect(new Uint8Array(await served.arrayBuffer())).toEqual(pngBytes());

    const again = await t.request(image.url, { headers: { 'if-none-match': etag! } });
    expect(again.status).toBe(304);
    await again.arrayBuffer();
  });

  it('trusts the bytes, not the name: JPEG content named .png is stored as a JPEG', async () => {
    const res = await post(
      body([{ base64: toBase64(JPEG_HEAD), name: 'really-a-jpeg.png', size: 12, type: 'image/png' }]),
    );
    const [image] = (await bodyOf(res, 201)).images;
    expect(image.Key).toMatch(/\.jpg$/);
    expect(image.type).toBe('image/jpeg');
  });

  it('rejects text content with a .png name and stores nothing', async () => {
    const before = await storedCount();
    const text = toBase64(new TextEncoder().encode('this is not an image at all'));
    const res = await post(body([{ base64: text, name: 'fake.png', size: 27, type: 'image/png' }]));
    expect((await errorOf(res, 415)).message).toMatch(/"fake.png" is not a PNG or JPEG file/);
    expect(await storedCount()).toBe(before);
  });

  it('rejects an image over 5 MB with 413 and stores nothing, even alongside a good one', async () => {
    const before = await storedCount();
    const big = new Uint8Array(5 * 1024 * 1024 + 10);
    big.set(pngBytes());
    const res = await post(
      body([
        { base64: PNG_1PX, name: 'small.png', size: 70, type: 'image/png' },
        { base64: toBase64(big), name: 'huge.png', size: big.length, type: 'image/png' },
      ]),
    );
    expect((await errorOf(res, 413)).message).toMatch(/"huge.png" is 5.0 MB; each image must be 5 MB or smaller/);
    expect(await storedCount()).toBe(before);
  });

  it('rejects ten images and an anonymous upload', async () => {
    const ten = Array.from({ length: 10 }, (_, i) => ({
      base64: PNG_1PX,
      name: `p${i}.png`,
      size: 70,
      type: 'image/png',
    }));
    const tooMany = await post(body(ten));
    expect((await errorOf(tooMany, 400)).message).toMatch(/You can only upload 9 images/);
    const anonymous = await t.client().api.campaigns.$post({ json: body([{ base64: PNG_1PX, name: 'a.png' }]) });
    expect(anonymous.status).toBe(401);
  });

  it("keeps stored images by Key on update, adds new ones, and refuses Keys that are not the item's own", async () => {
    const created = await bodyOf(await post(body([{ base64: PNG_1PX, name: 'first.png' }])), 201);
    const res = await put(created._id, { images: [kept(created.images[0]), { base64: PNG_1PX, name: 'second.png' }] });
    const updated = await bodyOf(res, 200);
    expect(updated.images.map((i) => i.name)).toEqual(['first.png', 'second.png']);
    expect(updated.images[0].Key).toBe(created.images[0].Key);

    const missing = `campaigns/${crypto.randomUUID()}.png`;
    const refused = await put(created._id, {
      images: [{ Key: missing, name: 'ghost.png', size: 1, type: 'image/png' }],
    });
    expect((await errorOf(refused, 400)).message).toMatch(/not one of this item's images; upload the file instead/);

    // Another appeal's stored image cannot be adopted by Key (it could later be deleted through this item).
    const other = await bodyOf(await post(body([{ base64: PNG_1PX, name: 'other.png' }])), 201);
    const adopted = await put(created._id, { images: [kept(other.images[0])] });
    expect(adopted.status).toBe(400);
    expect(await bucket.head(other.images[0].Key)).not.toBeNull();
  });

  it('answers 404 JSON for a missing image and 400 for a key with ..', async () => {
    // Raw: image paths as a visitor types them (the route takes the rest of the path as its key).
    const missing = await t.request(`/api/images/campaigns/${crypto.randomUUID()}.png`);
    expect(missing.status).toBe(404);
    expect(await missing.json()).toEqual({ statusCode: 404, message: 'Image not found' });
    const sneaky = await t.request('/api/images/campaigns/a..b.png');
    expect(sneaky.status).toBe(400);
  });
});
