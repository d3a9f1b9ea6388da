import { RESPONSIVE_WIDTHS } from '../../lib/images';

export type ImageVariant = { width: number; base64: string };

function blobToDataUrl(blob: Blob): Promise<string> {
  return new Promise((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () => resolve(String(reader.result));
    reader.onerror = () => reject(reader.error ?? new Error('Could not read the image'));
    reader.readAsDataURL(blob);
  });
}

/**
 * WebP copies of a picked image at the responsive widths narrower than it (docs/decisions/015),
 * drawn on a canvas in the browser: the worker stores them beside the original in R2 and pages
 * list them in a srcset, so phones download a 480 px copy instead of the full photo. A browser that
 * cannot encode WebP (toBlob falls back to PNG) or decode the file gets no copies: the original
 * still works everywhere.
 */
export async function makeVariants(file: Blob): Promise<ImageVariant[]> {
  if (typeof createImageBitmap !== 'function' || typeof document === 'undefined') return [];
  let bitmap: ImageBitmap;
  try {
    bitmap = await createImageBitmap(file);
  } catch {
    return [];
  }
  const out: ImageVariant[] = [];
  try {
    for (const width of RESPONSIVE_WIDTHS) {
      if (width >= bitmap.width) break;
      const canvas = document.createElement('canvas');
      canvas.width = width;
      canvas.height = Math.max(1, Math.round((bitmap.height * width) / bitmap.width));
      const context = canvas.getContext('2d');
      if (!context) break;
      context.imageSmoothingQuality = 'high';
      context.drawImage(bitmap, 0, 0, canvas.width, canvas.height);
      const blob = await new Promise<Blob | null>((resolve) => canvas.toBlob(resolve, 'image/webp', 0.8));
      if (blob?.type !== 'image/webp') break;
      out.push({ width, base64: await blobToDataUrl(blob) });
    }
  } finally {
    bitmap.close();
  }
  return out;
}
