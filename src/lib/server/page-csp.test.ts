import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { inlineBlockHashes, narrowPolicy, withPagePolicyMeta } from '../page-csp.mjs';
import { withPageOwnCsp } from './page-csp';

const hash = (text: string) => `'sha256-${createHash('sha256').update(text).digest('base64')}'`;

const LOADER = '(()=>{customElements.define("x-island",class extends HTMLElement{})})();';
const MODULE = 'document.body.dataset.ready="1";';
const STYLE = 'body{margin:0}';
const OTHER_PAGES_SCRIPT = 'console.log("dashboard only")';
const OTHER_PAGES_STYLE = '.dashboard{display:grid}';
const JSON_LD = '{"@type":"Event"}';

const page = `<!doctype html><html><head>
<script type="application/ld+json">${JSON_LD}</script>
<script>${LOADER}</script><style>${STYLE}</style>
<script type="module" src="/_astro/x.js"></script>
</head><body><p>Text that mentions &lt;script&gt;</p><script type="module">${MODULE}</script></body></html>`;

/** Astro's site-wide policy: every inline block of the site, whichever page it is on. */
const sitePolicy = [
  "default-src 'self';base-uri 'self';worker-src 'self' blob:",
  ` script-src 'self' https://js.stripe.com ${[LOADER, OTHER_PAGES_SCRIPT, MODULE].map(hash).join(' ')}`,
  ` style-src 'self' ${[OTHER_PAGES_STYLE, STYLE].map(hash).join(' ')}`,
  " style-src-attr 'unsafe-inline'",
].join(';');

const sources = (policy: string, directive: string) =>
  policy
    .split(';')
    .map((part) => part.trim().split(/\s+/))
    .find(([name]) => name === directive)
    ?.slice(1) ?? [];

describe("a page's Content-Security-Policy names only its own inline blocks", () => {
  it('hashes the scripts a browser runs and the styles, not data blocks or external scripts', async () => {
    const hashes = await inlineBlockHashes(page);
    expect([...hashes.script].sort()).toEqual([hash(LOADER), hash(MODULE)].sort());
    expect([...hashes.style]).toEqual([hash(STYLE)]);
  });

  it("keeps exactly the page's hashes and every other source and directive as Astro wrote them", async () => {
    const narrowed = narrowPolicy(sitePolicy, await inlineBlockHashes(page));
    expect(sources(narrowed, 'script-src')).toEqual(["'self'", 'https://js.stripe.com', hash(LOADER), hash(MODULE)]);
    expect(sources(narrowed, 'style-src')).toEqual(["'self'", hash(STYLE)]);
    expect(sources(narrowed, 'style-src-attr')).toEqual(["'unsafe-inline'"]);
    expect(narrowed.startsWith("default-src 'self';base-uri 'self';worker-src 'self' blob:;")).toBe(true);
    expect(narrowed).not.toContain(hash(OTHER_PAGES_SCRIPT));
    expect(narrowed).not.toContain(hash(OTHER_PAGES_STYLE));
    expect(narrowed.length).toBeLessThan(sitePolicy.length);
  });

  it('hashes every block right when the same blocks come again, and past the remembered ones', async () => {
    // Renders repeat the same blocks (the hashes are remembered); 300 distinct ones pass the memory's bound.
    for (let round = 0; round < 2; round++) {
      const many = Array.from({ length: 300 }, (_, i) => `<script>window.n=${i}</script>`).join('');
      const hashes = await inlineBlockHashes(`${page}${many}`);
      expect(hashes.script.size).toBe(302);
      expect(hashes.script.has(hash('window.n=0'))).toBe(true);
      expect(hashes.script.has(hash('window.n=299'))).toBe(true);
      expect(hashes.script.has(hash(LOADER))).toBe(true);
    }
  });

  it("never allows a block Astro's policy did not (an injected script stays blocked)", async () => {
    const injected = page.replace('</body>', '<script>alert(1)</script></body>');
    const narrowed = narrowPolicy(sitePolicy, await inlineBlockHashes(injected));
    expect(narrowed).not.toContain(hash('alert(1)'));
    expect(sources(narrowed, 'script-src')).toEqual(["'self'", 'https://js.stripe.com', hash(LOADER), hash(MODULE)]);
  });

  it('narrows a rendered HTML response, keeping its status, body and other headers', async () => {
    const rendered = new Response(page, {
      status: 404,
      headers: { 'content-type': 'text/html', 'content-security-policy': sitePolicy, 'x-kept': '1' },
    });
    const out = await withPageOwnCsp(rendered);
    expect(out.status).toBe(404);
    expect(out.headers.get('x-kept')).toBe('1');
    expect(await out.text()).toBe(page);
    expect(sources(out.headers.get('content-security-policy')!, 'script-src')).toHaveLength(4);
  });

  it('leaves JSON and pages without a policy as they came', async () => {
    const json = new Response('{}', {
      headers: { 'content-type': 'application/json', 'content-security-policy': sitePolicy },
    });
    expect(await withPageOwnCsp(json)).toBe(json);
    const bare = new Response(page, { headers: { 'content-type': 'text/html' } });
    expect(await withPageOwnCsp(bare)).toBe(bare);
  });

  it("narrows a pre-rendered page's <meta> policy the same way", async () => {
    const prerendered = page.replace(
      '<head>',
      `<head><meta http-equiv="content-security-policy" content="${sitePolicy}">`,
    );
    const out = await withPagePolicyMeta(prerendered);
    const meta = /content-security-policy" content="([^"]*)"/.exec(out)?.[1] ?? '';
    expect(meta).toBe(narrowPolicy(sitePolicy, await inlineBlockHashes(page)));
    expect(out.replace(meta, '')).toBe(prerendered.replace(sitePolicy, ''));
    expect(await withPagePolicyMeta(page)).toBe(page);
  });
});
