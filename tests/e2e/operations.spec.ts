import { expect, signIn, test } from './fixtures';

test('canonical and share links use PUBLIC_ORIGIN, not the Host header the caller sends', async ({
  request,
  baseURL,
}) => {
  const res = await request.get('/campaigns', {
    headers: { host: 'evil.example', 'x-forwarded-host': 'evil.example' },
  });
  expect(res.status()).toBe(200);
  const html = await res.text();
  expect(html).not.toContain('evil.example');
  const robots = await (await request.get('/robots.txt', { headers: { host: 'evil.example' } })).text();
  expect(robots).toContain(`Sitemap: ${baseURL}/sitemap.xml`);
});

test('the Cron Trigger runs housekeeping: stale pending checkouts become abandoned', async ({ request }) => {
  // The run's one shared sign-in (code requests are rate limited per address; e2e has one address).
  const { token } = await signIn(request, 'admin@example.org');
  const statuses = async () => {
    const res = await request.get('/api/donations?limit=100', { headers: { authorization: `Bearer ${token}` } });
    const total = Number(res.headers()['x-total-count']);
    const all: { status: string }[] = [];
    for (let offset = 0; offset < total; offset += 100) {
      all.push(
        ...((await (
          await request.get(`/api/donations?limit=100&offset=${offset}`, {
            headers: { authorization: `Bearer ${token}` },
          })
        ).json()) as { status: string }[]),
      );
    }
    return all.map((d) => d.status);
  };
  const count = (list: string[], status: string) => list.filter((s) => s === status).length;
  // The seed has checkouts left pending long ago (and none abandoned yet).
  const before = await statuses();
  expect(count(before, 'abandoned')).toBe(0);
  const run = await request.get('/cdn-cgi/handler/scheduled?cron=23+*+*+*+*');
  expect(run.status()).toBe(200);
  await expect.poll(async () => count(await statuses(), 'abandoned')).toBeGreaterThan(0);
  const after = await statuses();
  expect(count(after, 'pending')).toBe(count(before, 'pending') - count(after, 'abandoned'));
  expect(after.length).toBe(before.length);
});
