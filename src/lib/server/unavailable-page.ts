import { RETRY_AFTER_SECONDS } from '../../../api/lib/unavailable';
import { SITE } from '../site';
import { escapeHtml } from '../../../domain/html';

/**
 * The branded "we're busy" page pages answer while the database is down (or production lacks a
 * setting). It is built here, not rendered by Astro, so it needs nothing that can fail: no database,
 * no script. Its one inline style is allowed by hash in its own Content-Security-Policy.
 */
const STYLE = [
  'body{margin:0;font-family:system-ui,-apple-system,"Segoe UI",Roboto,Arial,sans-serif;color:#1b2430;background:#f6f8f7;line-height:1.55}',
  'header{background:#fff;border-bottom:1px solid #d9dee3}',
  '.wrap{width:min(760px,100% - 2rem);margin-inline:auto}',
  '.brand{display:inline-flex;align-items:center;gap:.5rem;padding:1rem 0;color:#0b6e4f;font-weight:700;text-decoration:none;font-size:1.15rem}',
  'main{padding:3rem 0}',
  'h1{font-size:clamp(1.6rem,4vw,2.2rem);line-height:1.2;margin:0 0 .5em}',
  '.btn{display:inline-block;margin-top:1rem;padding:.6rem 1.2rem;border-radius:999px;background:#0b6e4f;color:#fff;font-weight:600;text-decoration:none}',
  '.ref{color:#4f5b67;font-size:.9rem}',
].join('');

async function sha256Base64(text: string): Promise<string> {
  const digest = await crypto.subtle.digest('SHA-256', new TextEncoder().encode(text));
  return btoa(String.fromCharCode(...new Uint8Array(digest)));
}

export function unavailableHtml(requestId: string): string {
  return `<!doctype html>
<html lang="en-GB">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex">
<title>Busy right now | ${SITE.name}</title>
<link rel="icon" href="/favicon.svg" type="image/svg+xml">
<style>${STYLE}</style>
</head>
<body>
<header><div class="wrap"><a class="brand" href="/"><svg width="28" height="28" viewBox="0 0 32 32" aria-hidden="true"><path fill="currentColor" d="M16 29s-11-6.6-11-15A6 6 0 0 1 16 9.5 6 6 0 0 1 27 14c0 8.4-11 15-11 15z"/></svg>${SITE.name}</a></div></header>
<main class="wrap">
<h1>We are very busy right now</h1>
<p>This page could not be loaded just now. Nothing you entered has been lost or charged. Please try again in a minute.</p>
<p><a class="btn" href="">Try again</a></p>
<p class="ref">If this keeps happening, email ${SITE.contactEmail} and quote reference ${escapeHtml(requestId)}.</p>
</main>
</body>
</html>`;
}

/** 503 with Retry-After, never cached, with a policy that allows only this page's own style. */
export async function unavailableResponse(requestId: string): Promise<Response> {
  const styleHash = await sha256Base64(STYLE);
  return new Response(unavailableHtml(requestId), {
    status: 503,
    headers: {
      'Content-Type': 'text/html; charset=utf-8',
      'Retry-After': String(RETRY_AFTER_SECONDS),
      'Cache-Control': 'no-store',
      'Content-Security-Policy': `default-src 'none'; img-src 'self'; style-src 'sha256-${styleHash}'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'`,
    },
  });
}
