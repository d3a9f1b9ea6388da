/**
 * Responsive image sources (docs/decisions/015). The demo images have pre-generated AVIF and WebP
 * copies at RESPONSIVE_WIDTHS (scripts/make-responsive-images.mjs); uploaded images have the WebP
 * widths the editor generated in the browser, stored in R2 beside the original (`variants`).
 * Anything else falls back to the original file alone.
 */
export const RESPONSIVE_WIDTHS = [480, 800, 1200] as const;

export type ImageLike = { url: string; variants?: readonly number[] | null };
export type ResponsiveSources = { avif: string | null; webp: string | null };

const DEMO = /^\/images\/demo\/(cause-\d+)\.png$/;

export function responsiveSources(image: ImageLike | string): ResponsiveSources {
  const { url, variants } = typeof image === 'string' ? { url: image, variants: null } : image;
  const demo = DEMO.exec(url);
  if (demo) {
    const list = (ext: string) => RESPONSIVE_WIDTHS.map((w) => `/images/demo/${demo[1]}-${w}.${ext} ${w}w`).join(', ');
    return { avif: list('avif'), webp: list('webp') };
  }
  const widths = (variants ?? []).filter((w) => Number.isInteger(w) && w > 0);
  if (url.startsWith('/api/images/') && widths.length) {
    return { avif: null, webp: widths.map((w) => `${variantUrl(url, w)} ${w}w`).join(', ') };
  }
  return { avif: null, webp: null };
}

/** Where the WebP copy `width` px wide of an uploaded image is served. */
export function variantUrl(url: string, width: number): string {
  return `${url}@${width}.webp`;
}

/**
 * `sizes` for the common layouts: full-width hero/detail images and grid cards. The conditions are
 * the stylesheets' own breakpoints, in em as they are (decision 061), so a reader's larger text that
 * brings the one-column layout also brings the wider file: the detail page stacks under 64em, the
 * hero under 48em, the card grid is one column under 40em and two under 64em.
 */
export const SIZES = {
  detail: '(width<64em) 100vw, 60vw',
  hero: '(width<48em) 100vw, 45vw',
  card: '(width<40em) 100vw, (width<64em) 50vw, 33vw',
  thumb: '96px',
} as const;
