import { pagePolicy } from '../page-csp.mjs';

/**
 * A rendered HTML page with its Content-Security-Policy narrowed to the hashes of its own inline
 * scripts and styles (src/lib/page-csp.mjs). Runs once per render: the page cache stores the
 * narrowed copy. Anything else (no policy, not HTML) is returned as it came.
 */
export async function withPageOwnCsp(response: Response): Promise<Response> {
  const policy = response.headers.get('content-security-policy');
  if (!policy || !/text\/html/i.test(response.headers.get('content-type') ?? '') || !response.body) return response;
  const html = await response.text();
  const narrowed = new Response(html, response);
  narrowed.headers.set('content-security-policy', await pagePolicy(policy, html));
  return narrowed;
}
