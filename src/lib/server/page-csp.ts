import { withIslandLoaderFile } from '../island-loader.mjs';
import { pagePolicy } from '../page-csp.mjs';

const isHtmlWithPolicy = (response: Response) =>
  Boolean(
    response.body &&
      response.headers.get('content-security-policy') &&
      /text\/html/i.test(response.headers.get('content-type') ?? ''),
  );

/** The response with a new body and its Content-Security-Policy narrowed to that body's inline blocks. */
async function withBody(response: Response, html: string): Promise<Response> {
  const policy = response.headers.get('content-security-policy') ?? '';
  const out = new Response(html, response);
  out.headers.set('content-security-policy', await pagePolicy(policy, html));
  return out;
}

/**
 * A rendered HTML page with its Content-Security-Policy narrowed to the hashes of its own inline
 * scripts and styles (src/lib/page-csp.mjs). Anything else (no policy, not HTML) is returned as it came.
 */
export async function withPageOwnCsp(response: Response): Promise<Response> {
  return isHtmlWithPolicy(response) ? withBody(response, await response.text()) : response;
}

/**
 * What every rendered page gets once per render (the page cache stores the result): Astro's inline
 * island loader swapped for its file (src/lib/island-loader.mjs), then the policy narrowed to the
 * inline blocks that are left.
 */
export async function finishRenderedPage(response: Response): Promise<Response> {
  if (!isHtmlWithPolicy(response)) return response;
  return withBody(response, await withIslandLoaderFile(await response.text()));
}
