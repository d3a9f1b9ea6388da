// @ts-check
import islandScript from 'astro/runtime/server/astro-island.prebuilt.js';

/**
 * Astro inlines its island loader (the `astro-island` element, 4.4 KB, ~1.7 KB gzip) into every
 * page with an island, before the first one: on a public page that is the header's sign-in island,
 * which hydrates only on intent (docs/decisions/042). Inline, those bytes pushed an appeal page's
 * document past TCP's first window and were compiled in the middle of the first parse. Served as
 * one file instead (written next to the bundles at build time, immutable like them), a page
 * references it with `defer`: fetched in parallel with the page, run after parsing (every island
 * is in the DOM by then), and cached across pages. The directive scripts (when each island hydrates)
 * stay inline: an island started before the loader runs waits for its directive event as before.
 */
export const INLINE_ISLAND_LOADER = `<script>${islandScript}</script>`;

/** The loader's file body. */
export const ISLAND_LOADER_SOURCE = islandScript;

/** @type {Promise<string> | undefined} */
let path;

/** `/_astro/astro-island.<first 10 hex of its SHA-256>.js`: a new Astro's loader gets a new name. */
export function islandLoaderPath() {
  path ??= crypto.subtle.digest('SHA-256', new TextEncoder().encode(islandScript)).then((digest) => {
    const hex = [...new Uint8Array(digest)].map((byte) => byte.toString(16).padStart(2, '0')).join('');
    return `/_astro/astro-island.${hex.slice(0, 10)}.js`;
  });
  return path;
}

/**
 * The document with Astro's inline island loader replaced by a deferred reference to its file
 * (unchanged when it has none, e.g. under `astro dev`, whose loader differs).
 * @param {string} html
 */
export async function withIslandLoaderFile(html) {
  if (!html.includes(INLINE_ISLAND_LOADER)) return html;
  const tag = `<script src="${await islandLoaderPath()}" defer></script>`;
  return html.split(INLINE_ISLAND_LOADER).join(tag);
}
