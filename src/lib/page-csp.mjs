// @ts-check
/**
 * A page's Content-Security-Policy lists only the hashes of the inline scripts and styles that page
 * contains. Astro's policy (src/lib/csp-policy.mjs) carries the hash of every inline block of the
 * whole site (25 of them, ~1.3 KB) on every page; on an appeal page that pushed the document past
 * TCP's first window (docs/decisions/042). Narrowing only removes hashes: a block Astro's policy
 * did not allow stays blocked, so the policy is never wider than Astro's.
 *
 * Used by the worker on every rendered page (src/lib/server/page-csp.ts) and, at build time, on the
 * <meta> policy of pre-rendered pages (astro.config.mjs).
 */

/** `<script>` types a browser runs (anything else, e.g. JSON-LD, is a data block CSP ignores). */
const RUNNABLE_SCRIPT_TYPE = /^(|module|text\/javascript|application\/javascript)$/i;

/**
 * The directives whose hash sources are per page, by the kind of block they allow.
 * @type {Record<string, 'script' | 'style' | undefined>}
 */
const HASHED_DIRECTIVES = {
  'script-src': 'script',
  'script-src-elem': 'script',
  'style-src': 'style',
  'style-src-elem': 'style',
};

/**
 * Hashes already worked out, by block text. A site's inline blocks are the same few on every render
 * (Astro's island loaders, the theme style), so a page re-rendered on a busy night hashes nothing new.
 * Bounded: past the limit the oldest entry goes.
 * @type {Map<string, string>}
 */
const knownHashes = new Map();
const KNOWN_HASHES_LIMIT = 256;

/** @param {string} text */
async function sha256(text) {
  const known = knownHashes.get(text);
  if (known) return known;
  const digest = new Uint8Array(await crypto.subtle.digest('SHA-256', new TextEncoder().encode(text)));
  let binary = '';
  for (const byte of digest) binary += String.fromCharCode(byte);
  const source = `'sha256-${btoa(binary)}'`;
  if (knownHashes.size >= KNOWN_HASHES_LIMIT) knownHashes.delete(knownHashes.keys().next().value ?? '');
  knownHashes.set(text, source);
  return source;
}

/**
 * The hash sources (`'sha256-…'`) of the inline scripts a browser would run and the inline styles
 * in an HTML document. A raw-text element ends at its first closing tag, as the HTML parser ends it.
 * @param {string} html
 * @returns {Promise<{ script: Set<string>, style: Set<string> }>}
 */
export async function inlineBlockHashes(html) {
  /** @type {{ script: Set<string>, style: Set<string> }} */
  const hashes = { script: new Set(), style: new Set() };
  for (const match of html.matchAll(/<(script|style)\b([^>]*)>([\s\S]*?)<\/\1\s*>/gi)) {
    const [, tagName, attributes, body] = match;
    const tag = tagName.toLowerCase() === 'script' ? 'script' : 'style';
    if (tag === 'script') {
      if (/\ssrc\s*=/i.test(attributes)) continue;
      const type = /\stype\s*=\s*["']?([^"'\s>]*)/i.exec(attributes)?.[1] ?? '';
      if (!RUNNABLE_SCRIPT_TYPE.test(type)) continue;
    }
    hashes[tag].add(await sha256(body));
  }
  return hashes;
}

/**
 * The policy with, in each script and style directive, only the hash sources of blocks the page
 * holds; every other source (keywords, origins) and directive is kept as it was.
 * @param {string} policy
 * @param {{ script: Set<string>, style: Set<string> }} page
 */
export function narrowPolicy(policy, page) {
  return policy
    .split(';')
    .map((part) => {
      const kind = HASHED_DIRECTIVES[part.trim().split(/\s+/)[0]?.toLowerCase() ?? ''];
      if (!kind) return part;
      const kept = part
        .trim()
        .split(/\s+/)
        .filter((source, i) => i === 0 || !/^'sha(256|384|512)-/i.test(source) || page[kind].has(source));
      return `${part.startsWith(' ') ? ' ' : ''}${kept.join(' ')}`;
    })
    .join(';');
}

/**
 * The document's policy narrowed to its own inline blocks.
 * @param {string} policy
 * @param {string} html
 */
export async function pagePolicy(policy, html) {
  return narrowPolicy(policy, await inlineBlockHashes(html));
}

/**
 * A pre-rendered document with its <meta> policy narrowed to its own inline blocks (unchanged when
 * it has none). The meta tag itself is not a block, so hashing the document first is safe.
 * @param {string} html
 */
export async function withPagePolicyMeta(html) {
  const meta = /(<meta http-equiv="content-security-policy" content=")([^"]*)(")/i.exec(html);
  if (!meta) return html;
  const narrowed = await pagePolicy(meta[2], html);
  return html.slice(0, meta.index) + meta[1] + narrowed + meta[3] + html.slice(meta.index + meta[0].length);
}
