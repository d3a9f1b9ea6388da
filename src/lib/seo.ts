/**
 * JSON for a <script type="application/ld+json"> body. `<`, `>` and `&` become \u escapes so a
 * title like "</script><script>…" cannot close the element; U+2028/2029 for old JS parsers.
 */
export function jsonLdText(data: unknown): string {
  return JSON.stringify(data)
    .replace(/</g, '\\u003c')
    .replace(/>/g, '\\u003e')
    .replace(/&/g, '\\u0026')
    .replace(/\u2028/g, '\\u2028')
    .replace(/\u2029/g, '\\u2029');
}

/** An absolute URL for a path or URL, against the site origin. */
export function absoluteUrl(origin: string, pathOrUrl: string): string {
  return new URL(pathOrUrl, origin.endsWith('/') ? origin : `${origin}/`).toString();
}

/** Share-preview descriptions stay short (scrapers cut at ~200 characters). */
export function clip(text: string, max = 200): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length <= max ? flat : `${flat.slice(0, max - 1).trimEnd()}…`;
}

/** Pixel sizes we know for our own images (the demo set is 1200x800); uploads are unknown. */
export function knownImageSize(url: string): { width: number; height: number } | null {
  return /^\/images\/demo\/cause-\d+\.png$/.test(url) ? { width: 1200, height: 800 } : null;
}
