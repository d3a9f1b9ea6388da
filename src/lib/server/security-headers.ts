/**
 * Headers every page and API response carries. No full Content-Security-Policy: Astro's island
 * scripts are inline and Stripe's Payment Element needs its own frames, so a strict script policy
 * would break checkout; framing and MIME sniffing, the cheap wins, are closed here.
 */
export const SECURITY_HEADERS: Record<string, string> = {
  'Content-Security-Policy': "frame-ancestors 'none'; base-uri 'self'; object-src 'none'",
  'X-Frame-Options': 'DENY',
  'X-Content-Type-Options': 'nosniff',
  'Referrer-Policy': 'strict-origin-when-cross-origin',
  'Permissions-Policy': 'camera=(), microphone=(), geolocation=()',
  'Strict-Transport-Security': 'max-age=31536000; includeSubDomains',
};

/** The response with the headers added (a copy when its headers are immutable). */
export function withSecurityHeaders(response: Response): Response {
  let out = response;
  try {
    for (const [name, value] of Object.entries(SECURITY_HEADERS)) out.headers.set(name, value);
  } catch {
    out = new Response(response.body, response);
    for (const [name, value] of Object.entries(SECURITY_HEADERS)) out.headers.set(name, value);
  }
  return out;
}
