// @ts-check
import { createHash } from 'node:crypto';
import { INLINE_SCRIPTS } from './inline-scripts.mjs';

/**
 * The Content-Security-Policy, given to Astro's own CSP support (`security.csp` in astro.config.mjs).
 * Astro adds the hashes of every island loader and inline style it emits, so `script-src` never
 * needs 'unsafe-inline'; each page's policy then keeps only the hashes of its own inline blocks
 * (src/lib/page-csp.mjs). Origins are ours and the ones Stripe documents for the Payment Element,
 * plus Cloudflare Turnstile's widget and the YouTube player the video facade loads on click
 * (docs/decisions/013).
 */
// Apple Pay and Google Pay run inside the Payment Element's own frames (js.stripe.com), so these
// origins cover the wallets too; Apple Pay also needs the domain file (api/lib/apple-pay.ts).
export const STRIPE = {
  scripts: ['https://js.stripe.com', 'https://*.js.stripe.com'],
  frames: ['https://js.stripe.com', 'https://*.js.stripe.com', 'https://hooks.stripe.com'],
  connect: ['https://api.stripe.com', 'https://m.stripe.network'],
};
export const TURNSTILE = 'https://challenges.cloudflare.com';
export const YOUTUBE_PLAYER = 'https://www.youtube-nocookie.com';
export const CSP_REPORT_PATH = '/api/csp-report';

/** @param {string} source */
const sha256 = (source) =>
  /** @type {`sha256-${string}`} */ (`sha256-${createHash('sha256').update(source).digest('base64')}`);

/** @type {import('astro').AstroUserConfig['security']} */
export const security = {
  csp: {
    algorithm: 'SHA-256',
    directives: [
      "default-src 'self'",
      "base-uri 'self'",
      "object-src 'none'",
      // frame-ancestors, report-uri and report-to are ignored (with a console error each) in the
      // <meta> policy of pre-rendered pages: they travel as a header only (HEADER_ONLY_CSP in
      // src/lib/server/security-headers.ts for rendered pages, public/_headers for static ones).
      "form-action 'self'",
      // Our images (pages, /api/images, the video facade's poster) and previews of files being uploaded.
      "img-src 'self' data: blob:",
      "font-src 'self'",
      "media-src 'self'",
      `connect-src 'self' ${STRIPE.connect.join(' ')}`,
      `frame-src ${[...STRIPE.frames, TURNSTILE, YOUTUBE_PLAYER].join(' ')}`,
      "worker-src 'self' blob:",
    ],
    scriptDirective: {
      resources: ["'self'", ...STRIPE.scripts, TURNSTILE],
      hashes: INLINE_SCRIPTS.map(sha256),
    },
    styleDirective: {
      resources: [
        "'self'",
        // Inline style="" attributes only (progress bars, React's style props): they cannot run script.
        { resource: "'unsafe-inline'", kind: 'attribute' },
      ],
    },
  },
};
