import type { StoredImage } from '../../db/schema';
import { HttpError } from '../lib/errors';

/** Per-image cap (spec section 5 guidance: max 5 MB), checked on the decoded bytes. */
export const MAX_IMAGE_BYTES = 5 * 1024 * 1024;
export const MAX_IMAGES = 9;

/** Keys the worker wrote itself: `campaigns/<uuid>.png|jpg`. */
const STORED_KEY = /^campaigns\/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\.(png|jpg)$/;
/** Static demo images shipped in public/ (the seed and factories use them). */
const STATIC_KEY = /^\/images\/demo\/[a-z0-9-]{1,60}\.(png|jpe?g)$/;

export type ImageKind = { type: 'image/png' | 'image/jpeg'; ext: 'png' | 'jpg' };

/** The file type from its first bytes; the declared name and type are not trusted. */
export function sniffImage(bytes: Uint8Array): ImageKind | null {
  const png = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];
  if (bytes.length >= png.length && png.every((b, i) => bytes[i] === b)) return { type: 'image/png', ext: 'png' };
  if (bytes.length >= 3 && bytes[0] === 0xff && bytes[1] === 0xd8 && bytes[2] === 0xff) {
    return { type: 'image/jpeg', ext: 'jpg' };
  }
  return null;
}

export function isStoredKey(key: string): boolean {
  return STORED_KEY.test(key);
}

/** A demo image shipped with the site: anyone may pick one, and it is never deleted. */
export function isStaticKey(key: string): boolean {
  return STATIC_KEY.test(key);
}

/** A key safe to look up in the bucket: no traversal, no control characters, bounded length. */
export function isServableKey(key: string): boolean {
  return key.length > 0 && key.length <= 300 && !key.includes('..') && !key.startsWith('/') && !/[\u0000-\u001f\\]/.test(key);
}

const formatMb = (bytes: number) => `${(bytes / (1024 * 1024)).toFixed(1)} MB`;

/** Accepts raw base64 or a data URL (what FileReader.readAsDataURL gives). */
export function decodeBase64Image(input: string, name: string): Uint8Array {
  const comma = input.startsWith('data:') ? input.indexOf(',') : -1;
  const b64 = (comma >= 0 ? input.slice(comma + 1) : input).replace(/\s+/g, '');
  // Reject oversized images before allocating their bytes.
  const approxBytes = Math.floor((b64.length * 3) / 4);
  if (approxBytes > MAX_IMAGE_BYTES + 2) {
    throw new HttpError(413, `Image "${name}" is ${formatMb(approxBytes)}; each image must be 5 MB or smaller`);
  }
  if (!/^[A-Za-z0-9+/]*={0,2}$/.test(b64) || b64.length % 4 === 1) {
    throw new HttpError(400, `Image "${name}" is not valid base64 data`);
  }
  let binary: string;
  try {
    binary = atob(b64);
  } catch {
    throw new HttpError(400, `Image "${name}" is not valid base64 data`);
  }
  const bytes = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
  if (bytes.length > MAX_IMAGE_BYTES) {
    throw new HttpError(413, `Image "${name}" is ${formatMb(bytes.length)}; each image must be 5 MB or smaller`);
  }
  if (bytes.length === 0) throw new HttpError(400, `Image "${name}" is empty`);
  return bytes;
}

export type PreparedUpload = { key: string; bytes: Uint8Array; image: StoredImage };

/** Decode and check one new image; nothing is stored yet. */
export function prepareUpload(input: { base64: string; name: string }): PreparedUpload {
  const bytes = decodeBase64Image(input.base64, input.name);
  const kind = sniffImage(bytes);
  if (!kind) {
    throw new HttpError(
      415,
      `Image "${input.name}" is not a PNG or JPEG file (its content was checked, not its name); upload a PNG or JPEG`,
    );
  }
  const key = `campaigns/${crypto.randomUUID()}.${kind.ext}`;
  return { key, bytes, image: { Key: key, name: input.name, size: bytes.length, type: kind.type } };
}

export function requireBucket(bucket: R2Bucket | undefined): R2Bucket {
  if (!bucket) {
    throw new HttpError(503, 'Image storage is not configured on this server (R2 binding IMAGES); images cannot be uploaded');
  }
  return bucket;
}

export async function storeUploads(bucket: R2Bucket, uploads: PreparedUpload[]): Promise<void> {
  const done: string[] = [];
  try {
    for (const upload of uploads) {
      await bucket.put(upload.key, upload.bytes, {
        httpMetadata: { contentType: upload.image.type, cacheControl: 'public, max-age=31536000, immutable' },
        customMetadata: { name: upload.image.name.slice(0, 200) },
      });
      done.push(upload.key);
    }
  } catch (err) {
    await deleteKeys(bucket, done);
    throw err;
  }
}

/** Best effort: used to drop uploads whose database write failed. */
export async function deleteKeys(bucket: R2Bucket | undefined, keys: string[]): Promise<void> {
  if (!bucket || keys.length === 0) return;
  try {
    await bucket.delete(keys);
  } catch (err) {
    console.error('[images] could not delete orphaned uploads', keys, err);
  }
}
