import { expect, test } from './fixtures';

test('robots.txt keeps crawlers out of the dashboard and API and points at the sitemap', async ({
  request,
  baseURL,
}) => {
  const res = await request.get('/robots.txt');
  expect(res.status()).toBe(200);
  const text = await res.text();
  expect(text).toContain('Disallow: /dashboard');
  expect(text).toContain('Disallow: /api/');
  expect(text).toContain(`Sitemap: ${baseURL}/sitemap.xml`);
});

test('the sitemap lists approved campaigns and appeals by share link, and no drafts', async ({ request, baseURL }) => {
  const res = await request.get('/sitemap.xml');
  expect(res.status()).toBe(200);
  expect(res.headers()['content-type']).toContain('application/xml');
  const xml = await res.text();
  const campaigns = (await (await request.get('/api/campaigns?limit=100')).json()) as { short_id: string }[];
  const appeals = (await (await request.get('/api/appeals?limit=100')).json()) as { short_id: string }[];
  for (const c of campaigns) expect(xml).toContain(`<loc>${baseURL}/campaigns/${c.short_id}</loc>`);
  for (const a of appeals) expect(xml).toContain(`<loc>${baseURL}/appeals/${a.short_id}</loc>`);
  const listed = xml.match(/<loc>[^<]*\/appeals\/[0-9A-Za-z]{22}<\/loc>/g) ?? [];
  expect(listed).toHaveLength(appeals.length);
});
