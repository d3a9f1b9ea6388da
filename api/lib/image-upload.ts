import type { Context } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import { errorBody } from './create-app';
import { badRequest } from './errors';
import type { AppEnv } from './types';
import { consumeUploadQuota } from '../services/abuse/quotas';
import {
  deleteKeys,
  isStaticKey,
  isStoredKey,
  type PreparedUpload,
  prepareUpload,
  requireBucket,
  storeUploads,
} from '../services/campaigns/images';

/** One 5 MB image as base64 (~6.7 MB) plus the form's text fields. */
export const IMAGE_FORM_BODY_LIMIT = 7 * 1024 * 1024;

/** For the organization and donor forms, whose logo/photo arrives as a data URL in the JSON body. */
export const imageFormBodyLimit = bodyLimit({
  maxSize: IMAGE_FORM_BODY_LIMIT,
  onError: (c) => c.json(errorBody(413, 'Request body is too large (limit 7 MB); use an image of at most 5 MB'), 413),
});

const looksLikeUpload = (value: string) =>
  value.startsWith('data:') || (value.length > 300 && /^[A-Za-z0-9+/=\s]+$/.test(value));

/**
 * Saves a form's image field, then runs `write` with the resulting Key. A new image is checked
 * (PNG/JPEG by its bytes, 5 MB) and stored first; if the write fails it is deleted again, and once
 * it succeeds the image it replaced is deleted (best effort). A stored Key is accepted only when it
 * is the record's own current image, so the only object ever deleted is one this record owned.
 */
export async function withImage<T>(
  c: Context<AppEnv>,
  field: string,
  value: string | null | undefined,
  previous: string | null,
  write: (key: string | null | undefined) => Promise<T>,
): Promise<T> {
  let upload: PreparedUpload | null = null;
  let key: string | null | undefined = value;
  if (typeof value === 'string' && looksLikeUpload(value)) {
    upload = prepareUpload({ base64: value, name: field });
    key = upload.key;
  } else if (typeof value === 'string' && value !== previous && !isStaticKey(value)) {
    // Another record's Key would let this one delete that record's image later: new images are uploads.
    throw badRequest(`${field}: Upload a PNG or JPEG image, or keep the current one`);
  }
  const bucket = c.env?.IMAGES;
  if (upload && c.var.user) await consumeUploadQuota(c.var.db, c.var.user, upload.bytes.length, new Date());
  if (upload) await storeUploads(requireBucket(bucket), [upload]);
  let result: T;
  try {
    result = await write(key);
  } catch (error) {
    if (upload) await deleteKeys(bucket, [upload.key]);
    throw error;
  }
  if (key !== undefined && previous && previous !== key && isStoredKey(previous)) await deleteKeys(bucket, [previous]);
  return result;
}
