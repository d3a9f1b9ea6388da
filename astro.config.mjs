// @ts-check
import { defineConfig } from 'astro/config';
import react from '@astrojs/react';
import cloudflare from '@astrojs/cloudflare';
import { security } from './src/lib/csp-policy.mjs';

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
  ],
  devToolbar: { enabled: false },
  server: { port: 4321 },
  // Content-Security-Policy with hashes of the island scripts and styles (src/lib/csp-policy.mjs).
  security,
});
