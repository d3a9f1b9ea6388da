import type { APIRoute } from 'astro';
import { siteOrigin } from '../lib/server/origin';

/** Public pages are for sharing and search; the dashboard and API are not. */
export const GET: APIRoute = ({ url }) =>
  new Response(
    ['User-agent: *', 'Disallow: /dashboard', 'Disallow: /api/', `Sitemap: ${siteOrigin(url)}/sitemap.xml`, ''].join(
      '\n',
    ),
    { headers: { 'content-type': 'text/plain; charset=utf-8', 'cache-control': 'public, max-age=3600' } },
  );
