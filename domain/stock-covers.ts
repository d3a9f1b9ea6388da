/**
 * The cover images shipped with the site (public/images/demo, with AVIF and WebP widths made by
 * scripts/make-responsive-images.mjs), each named by what it shows. Anyone may use one on an appeal,
 * and a template cause may name one, which an appeal started from it begins with (decision 074): a
 * fundraiser on a phone often has no picture to hand, and an appeal needs one.
 */
export const STOCK_COVER_LABELS = [
  'Water drop',
  'Bowl of food',
  'House',
  'Heart',
  'Star',
  'Two people',
  'Sun',
  'Medical cross',
  'Book',
] as const;

export const STOCK_COVERS = STOCK_COVER_LABELS.map((_, i) => `/images/demo/cause-${i + 1}.png`);

export const isStockCover = (key: string): boolean => STOCK_COVERS.includes(key);

/** What a stock cover shows ("Water drop"), for its choice's label and its alt text. */
export const stockCoverLabel = (key: string): string => STOCK_COVER_LABELS[STOCK_COVERS.indexOf(key)] ?? 'Cover image';

/** The smallest WebP copy of a stock cover, for a thumbnail (480 px wide). */
export const stockCoverThumb = (key: string): string => key.replace(/\.png$/, '-480.webp');
