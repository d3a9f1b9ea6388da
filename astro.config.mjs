// @ts-check
import { defineConfig } from 'astro/config';
import react from '@astrojs/react';
import cloudflare from '@astrojs/cloudflare';
import { readdir, readFile, writeFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { security } from './src/lib/csp-policy.mjs';
import { withPagePolicyMeta } from './src/lib/page-csp.mjs';

/**
 * This build's id, in the page cache's keys (src/lib/server/build-id.ts): a page cached by one build
 * names that build's hashed scripts, which the next deployment no longer serves, so a new build
 * never serves the old one's copies. BUILD_ID (e.g. a commit) overrides the build time.
 */
const BUILD_ID = process.env.BUILD_ID || Date.now().toString(36);

export default defineConfig({
  output: 'server',
  vite: { define: { __BUILD_ID__: JSON.stringify(BUILD_ID) } },
  adapter: cloudflare({ imageService: 'passthrough' }),
  session: false,
  // Pre-rendered pages as /events.html so /events is served without a redirect to /events/.
  // Critical CSS inline (docs/decisions/015): the stylesheet is ~7 KB gzip, so inlining it removes
  // the render-blocking request that held back first paint and LCP on mobile.
  build: { format: 'file', inlineStylesheets: 'always' },
  integrations: [
    react(),
    // `client:signin`: the header's sign-in island hydrates on a stored session, on intent or with
    // another island, not on every page view (src/components/auth/sign-in-directive.ts).
    {
      name: 'sign-in-directive',
      hooks: { 'astro:config:setup': ({ addClientDirective }) => addClientDirective({ name: 'signin', entrypoint: './src/components/auth/sign-in-directive.ts' }) },
    },
    // Pre-rendered pages' <meta> policy lists only their own inline blocks' hashes, as rendered
    // pages' headers do (src/lib/page-csp.mjs).
    {
      name: 'page-own-csp',
      hooks: {
        'astro:build:done': async ({ dir }) => {
          const root = fileURLToPath(dir);
          for (const file of await readdir(root, { recursive: true })) {
            if (!file.endsWith('.html')) continue;
            const path = `${root}/${file}`;
            const html = await readFile(path, 'utf8');
            const narrowed = await withPagePolicyMeta(html);
            if (narrowed !== html) await writeFile(path, narrowed);
          }
        },
      },
    },
  ],
  devToolbar: { enabled: false },
  server: { port: 4321 },
  // Content-Security-Policy with hashes of the island scripts and styles (src/lib/csp-policy.mjs).
  security,
});
