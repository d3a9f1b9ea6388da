/**
 * Headers every response carries (the worker entry adds them; static files get the same from
 * public/_headers). HTML pages bring their own Content-Security-Policy from Astro (`security.csp`
 * in astro.config.mjs: hashes of the island scripts and styles); anything without one gets a
 * policy that allows nothing at all, which is right for JSON, images and text.
 */
export const SECURITY_HEADERS: Record<string, string> = {
  'X-Frame-Options': 'DENY',
  'X-Content-Type-Options': 'nosniff',
  'Referrer-Policy': 'strict-origin-when-cross-origin',
  'Permissions-Policy': 'camera=(), microphone=(), geolocation=()',
  'Strict-Transport-Security': 'max-age=31536000; includeSubDomains',
};

/** For responses that are not HTML pages: nothing may load, nobody may frame them. */
export const NON_HTML_CSP = "default-src 'none'; frame-ancestors 'none'; base-uri 'none'; form-action 'none'";

/** An HTML answer Astro did not give a policy (served from assets): at least no framing, no plugins. */
export const FALLBACK_HTML_CSP = "frame-ancestors 'none'; base-uri 'self'; object-src 'none'; form-action 'self'";

/**
 * Directives a <meta> policy may not carry (browsers ignore them there, with a console error), so
 * Astro's policy (src/lib/csp-policy.mjs) leaves them out and every HTML answer gets them here, in
 * its header. public/_headers sends the same for pre-rendered pages.
 */
export const HEADER_ONLY_CSP = ["frame-ancestors 'none'", 'report-uri /api/csp-report', 'report-to csp-endpoint'];

/** Where browsers send CSP violation reports (report-to csp-endpoint in the policy). */
export const REPORTING_ENDPOINTS = 'csp-endpoint="/api/csp-report"';

/** Astro's page policy plus the directives only a header may carry (each once). */
export function withHeaderOnlyDirectives(policy: string): string {
  const present = new Set(policy.split(';').map((part) => part.trim().split(/\s+/)[0]?.toLowerCase()));
  const missing = HEADER_ONLY_CSP.filter((directive) => !present.has(directive.split(' ')[0]));
  return missing.length ? [policy.replace(/;\s*$/, ''), ...missing].join(';') : policy;
}

const isHtml = (response: Response) => /text\/html/i.test(response.headers.get('content-type') ?? '');

/** The response with the headers added (a copy when its headers are immutable). */
export function withSecurityHeaders(response: Response): Response {
  let out = response;
  try {
    out.headers.set('X-Content-Type-Options', 'nosniff');
  } catch {
    out = new Response(response.body, response);
  }
  for (const [name, value] of Object.entries(SECURITY_HEADERS)) out.headers.set(name, value);
  const policy = out.headers.get('Content-Security-Policy');
  if (!policy) out.headers.set('Content-Security-Policy', isHtml(out) ? FALLBACK_HTML_CSP : NON_HTML_CSP);
  if (isHtml(out)) {
    if (policy) out.headers.set('Content-Security-Policy', withHeaderOnlyDirectives(policy));
    out.headers.set('Reporting-Endpoints', REPORTING_ENDPOINTS);
  }
  return out;
}
