import type { StoredImage } from '../../../db/schema';
import { HttpError } from '../../lib/errors';
import { errorSummary, logLine } from '../../middlewares/logger';
import { MAX_CAMPAIGN_IMAGES, MAX_IMAGE_BYTES } from '../../../domain/limits';

/** Per-image cap (spec section 5 guidance: max 5 MB), checked on the decoded bytes. */
export { MAX_IMAGE_BYTES };
export const MAX_IMAGES = MAX_CAMPAIGN_IMAGES;

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
  return (
    key.length > 0 && key.length <= 300 && !key.includes('..') && !key.startsWith('/') && !/[\u0000-\u001f\\]/.test(key)
  );
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

/** Widths of the WebP copies the editor makes of a new image (src/lib/images.ts lists the same). */
export const VARIANT_WIDTHS = [480, 800, 1200] as const;
/** A resized WebP copy is far smaller than its original; this cap only stops abuse. */
export const MAX_VARIANT_BYTES = 1024 * 1024;

/** Characters of base64 for `bytes` bytes. */
export const base64Length = (bytes: number) => 4 * Math.ceil(bytes / 3);

/** Room in a campaign save for everything but the images: text fields, image names, JSON syntax. */
export const CAMPAIGN_TEXT_ALLOWANCE = 256 * 1024;

/**
 * The largest body a campaign or appeal save can legally have: every image new, each at its 5 MB
 * limit with its three 1 MB resized copies, as base64 (about 96 MB). A caller with a daily upload
 * quota is held to what the quota still allows (api/routes/campaigns/campaigns.write.ts).
 */
export const MAX_CAMPAIGN_BODY_BYTES =
  MAX_IMAGES * (base64Length(MAX_IMAGE_BYTES) + VARIANT_WIDTHS.length * base64Length(MAX_VARIANT_BYTES) + 64) +
  CAMPAIGN_TEXT_ALLOWANCE;

export type VariantInput = { width: number; base64: string };
export type PreparedVariant = { key: string; bytes: Uint8Array; width: number };
export type PreparedUpload = { key: string; bytes: Uint8Array; image: StoredImage; variants: PreparedVariant[] };

/** RIFF....WEBP: the only format accepted for the resized copies. */
export function isWebp(bytes: Uint8Array): boolean {
  const ascii = (from: number, to: number) => String.fromCharCode(...bytes.subarray(from, to));
  return bytes.length >= 12 && ascii(0, 4) === 'RIFF' && ascii(8, 12) === 'WEBP';
}

/** Where the WebP copy `width` px wide of a stored image lives in the bucket. */
export const variantKey = (key: string, width: number) => `${key}@${width}.webp`;

/** Every bucket key an upload writes (original and copies). */
export const uploadKeys = (upload: PreparedUpload) => [upload.key, ...upload.variants.map((v) => v.key)];

/** Decode and check one new image and its resized copies; nothing is stored yet. */
export function prepareUpload(input: { base64: string; name: string; variants?: VariantInput[] }): PreparedUpload {
  const bytes = decodeBase64Image(input.base64, input.name);
  const kind = sniffImage(bytes);
  if (!kind) {
    throw new HttpError(
      415,
      `Image "${input.name}" is not a PNG or JPEG file (its content was checked, not its name); upload a PNG or JPEG`,
    );
  }
  const key = `campaigns/${crypto.randomUUID()}.${kind.ext}`;
  const variants: PreparedVariant[] = [];
  for (const variant of input.variants ?? []) {
    if (!(VARIANT_WIDTHS as readonly number[]).includes(variant.width)) {
      throw new HttpError(400, `Image "${input.name}": a resized copy must be ${VARIANT_WIDTHS.join(', ')} px wide`);
    }
    if (variants.some((v) => v.width === variant.width))
      throw new HttpError(400, `Image "${input.name}": two resized copies are ${variant.width} px wide`);
    const copy = decodeBase64Image(variant.base64, `${input.name} (${variant.width} px)`);
    if (copy.length > MAX_VARIANT_BYTES)
      throw new HttpError(413, `Image "${input.name}": the ${variant.width} px copy is over 1 MB`);
    if (!isWebp(copy))
      throw new HttpError(415, `Image "${input.name}": the ${variant.width} px copy is not a WebP image`);
    variants.push({ key: variantKey(key, variant.width), bytes: copy, width: variant.width });
  }
  variants.sort((a, b) => a.width - b.width);
  const image: StoredImage = { Key: key, name: input.name, size: bytes.length, type: kind.type };
  if (variants.length) image.variants = variants.map((v) => v.width);
  return { key, bytes, image, variants };
}

export function requireBucket(bucket: R2Bucket | undefined): R2Bucket {
  if (!bucket) {
    throw new HttpError(
      503,
      'Image storage is not configured on this server (R2 binding IMAGES); images cannot be uploaded',
    );
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
      for (const variant of upload.variants) {
        await bucket.put(variant.key, variant.bytes, {
          httpMetadata: { contentType: 'image/webp', cacheControl: 'public, max-age=31536000, immutable' },
        });
        done.push(variant.key);
      }
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
    logLine('error', 'could not delete orphaned uploads', { keys: keys.join(' '), error: errorSummary(err) });
  }
}
