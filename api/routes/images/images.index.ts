import { createRouter, errorBody } from '../../lib/create-app';
import { isServableKey } from '../../services/images';

const IMMUTABLE = 'public, max-age=31536000, immutable';

/** Stored images by Key. Keys are random and never reused, so responses are cached for a year. */
export const imagesRouter = createRouter().get('/images/:key{.+}', async (c) => {
  const key = c.req.param('key');
  if (!isServableKey(key)) return c.json(errorBody(400, 'Image key is not valid'), 400);
  const bucket = c.env?.IMAGES;
  if (!bucket) return c.json(errorBody(404, 'Image not found (image storage is not configured)'), 404);
  const object = await bucket.get(key, { onlyIf: c.req.raw.headers });
  if (!object) return c.json(errorBody(404, 'Image not found'), 404);
  const headers = new Headers();
  object.writeHttpMetadata(headers);
  headers.set('ETag', object.httpEtag);
  headers.set('Cache-Control', IMMUTABLE);
  headers.set('X-Content-Type-Options', 'nosniff');
  if (!headers.has('content-type')) headers.set('content-type', 'application/octet-stream');
  // onlyIf matched If-None-Match: the object comes back without a body.
  if (!('body' in object) || !object.body) return new Response(null, { status: 304, headers });
  headers.set('Content-Length', String(object.size));
  return new Response(object.body, { status: 200, headers });
});
