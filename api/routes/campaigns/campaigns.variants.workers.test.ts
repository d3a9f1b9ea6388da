import { beforeAll, describe, expect, it } from 'vitest';
import { createCampaign, signedIn } from '../../../tests/factories';
import { fileBindings } from '../../../tests/setup/file-bindings.workers';
import { bodyOf, errorOf, type JsonOf, setupTestApp, type TestApp, type TestClient } from '#test-app';
import { responsiveSources } from '../../../src/lib/images';

/** Responsive copies of uploads: WebP sizes made in the browser, stored in R2 beside the original. */
/** This file's own bucket (vitest.config.ts gives every workerd test file one). */
let bucket: R2Bucket;

const PNG_1PX = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==';
/** A 1x1 lossless WebP. */
const WEBP_1PX = 'UklGRhoAAABXRUJQVlA4TA0AAAAvAAAAEAcQERGIiP4HAA==';
const bytesOf = (b64: string) => Uint8Array.from(atob(b64), (ch) => ch.charCodeAt(0));

describe('campaign image variants in R2 (d1 + r2)', () => {
  let t: TestApp;
  let parentId: string;
  let token: string;
  const post = (images: JsonOf<TestClient['api']['campaigns']['$post']>['images']) =>
    t.client(token).api.campaigns.$post({
      json: {
        title: 'Appeal with sizes',
        description: 'Responsive photos.',
        goal: 10_000,
        campaign_id: parentId,
        images,
      },
    });

  beforeAll(async () => {
    bucket = fileBindings().images;
    t = await setupTestApp({ IMAGES: bucket });
    parentId = (await createCampaign(t.db)).id;
    token = (await signedIn(t.db, 'donor')).token;
  });

  it('stores the WebP copies beside the original, lists their widths and serves them', async () => {
    const res = await post([
      {
        base64: PNG_1PX,
        name: 'photo.png',
        variants: [
          { width: 800, base64: `data:image/webp;base64,${WEBP_1PX}` },
          { width: 480, base64: WEBP_1PX },
        ],
      },
    ]);
    const [image] = (await bodyOf(res, 201)).images;
    expect(image.variants).toEqual([480, 800]);
    for (const width of [480, 800]) {
      // Raw: the copies' URLs as pages build them from the answer.
      const served = await t.request(`${image.url}@${width}.webp`);
      expect(served.status).toBe(200);
      expect(served.headers.get('content-type')).toBe('image/webp');
      expect(served.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
      expect(new Uint8Array(await served.arrayBuffer())).toEqual(bytesOf(WEBP_1PX));
    }
    expect((await t.request(`${image.url}@1200.webp`)).status).toBe(404);
    // Pages list them in the srcset.
    expect(responsiveSources(image).webp).toBe(`${image.url}@480.webp 480w, ${image.url}@800.webp 800w`);
  });

  it.each([
    [[{ width: 640, base64: WEBP_1PX }], 400, /must be 480, 800, 1200 px wide/],
    [[{ width: 480, base64: PNG_1PX }], 415, /480 px copy is not a WebP image/],
    [
      [
        { width: 480, base64: WEBP_1PX },
        { width: 480, base64: WEBP_1PX },
      ],
      400,
      /two resized copies are 480 px wide/,
    ],
    [[{ width: 480, base64: 'not base64!' }], 400, /not valid base64/],
  ])('refuses bad copies %j with %i and stores nothing', async (variants, status, message) => {
    const before = (await bucket.list({ prefix: 'campaigns/' })).objects.length;
    const res = await post([{ base64: PNG_1PX, name: 'photo.png', variants }]);
    expect((await errorOf(res, status)).message).toMatch(message);
    expect((await bucket.list({ prefix: 'campaigns/' })).objects.length).toBe(before);
  });

  it('refuses copies sent with a stored Key instead of new data', async () => {
    const res = await post([{ Key: '/images/demo/cause-1.png', variants: [{ width: 480, base64: WEBP_1PX }] }]);
    expect((await errorOf(res, 400)).message).toMatch(/variants/);
  });
});
