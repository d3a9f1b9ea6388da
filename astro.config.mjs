// @ts-check
import { defineConfig } from 'astro/config';
import react from '@astrojs/react';
import cloudflare from '@astrojs/cloudflare';
import { mkdir, readdir, readFile, writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { security } from './src/lib/csp-policy.mjs';
import { ISLAND_LOADER_SOURCE, islandLoaderPath, withIslandLoaderFile } from './src/lib/island-loader.mjs';
import { withPagePolicyMeta } from './src/lib/page-csp.mjs';

export default defineConfig({
  output: 'server',
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
    // The island loader as a file (src/lib/island-loader.mjs), and pre-rendered pages finished as
    // rendered ones are: the loader referenced, the <meta> policy listing only the page's own
    // inline blocks' hashes (src/lib/page-csp.mjs).
    {
      name: 'page-finish',
      hooks: {
        'astro:build:done': async ({ dir }) => {
          const root = fileURLToPath(dir);
          const loader = `${root}${(await islandLoaderPath()).slice(1)}`;
          await mkdir(dirname(loader), { recursive: true });
          await writeFile(loader, ISLAND_LOADER_SOURCE);
          for (const file of await readdir(root, { recursive: true })) {
            if (!file.endsWith('.html')) continue;
            const path = `${root}/${file}`;
            const html = await readFile(path, 'utf8');
            const finished = await withPagePolicyMeta(await withIslandLoaderFile(html));
            if (finished !== html) await writeFile(path, finished);
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
