import type { APIRoute } from 'astro';
import { listCampaigns, MAX_PAGE_SIZE } from '../../api/services/campaigns/read';
import { getDb } from '../lib/server/db';
import { siteOrigin } from '../lib/server/origin';

const STATIC_PATHS = ['/', '/campaigns', '/appeals', '/fund-raising', '/events', '/blogs', '/policy'];
const escapeXml = (value: string) => value.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

/** Approved campaigns and appeals by their short share links (the newest 100 of each). */
export const GET: APIRoute = async ({ url }) => {
  const db = getDb();
  const origin = siteOrigin(url);
  const [campaigns, appeals] = await Promise.all([
    listCampaigns(db, { kind: 'campaign', viewer: null, limit: MAX_PAGE_SIZE }),
    listCampaigns(db, { kind: 'appeal', viewer: null, limit: MAX_PAGE_SIZE }),
  ]);
  const urls = [
    ...STATIC_PATHS.map((path) => ({ loc: origin + path, lastmod: null as string | null })),
    ...campaigns.map((c) => ({ loc: `${origin}/campaigns/${c.short_id}`, lastmod: c.created_at.slice(0, 10) })),
    ...appeals.map((a) => ({ loc: `${origin}/appeals/${a.short_id}`, lastmod: a.created_at.slice(0, 10) })),
  ];
  const body =
    '<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n' +
    urls
      .map((u) => `  <url><loc>${escapeXml(u.loc)}</loc>${u.lastmod ? `<lastmod>${u.lastmod}</lastmod>` : ''}</url>`)
      .join('\n') +
    '\n</urlset>\n';
  return new Response(body, {
    headers: { 'content-type': 'application/xml; charset=utf-8', 'cache-control': 'public, max-age=300' },
  });
};
