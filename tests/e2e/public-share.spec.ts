import { expect, firstApproved, gbpShort, test } from './fixtures';

test('the share control shows the exact appeal link and copies it', async ({ page, context, request, baseURL }) => {
  await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: baseURL });
  const appeal = await firstApproved(request, '/api/appeals');
  await page.goto(`/campaign/${appeal.campaign_id}/appeal/${appeal._id}`);
  await page.locator('summary', { hasText: 'Share Appeal' }).click();
  const share = page.locator('.detail-share');
  const field = share.getByLabel('Share link');
  await expect(field).toHaveValue(`${baseURL}/appeals/${appeal.short_id}`);
  await expect(field).toHaveAttribute('readonly', '');
  await share.getByRole('button', { name: 'Copy link' }).click();
  await expect(share.getByRole('status')).toHaveText('Link copied');
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(`${baseURL}/appeals/${appeal.short_id}`);
});

test('campaign pages share /campaigns/{short id}; appeal cards share /appeals/{short id}', async ({
  page,
  request,
  baseURL,
}) => {
  const campaign = await firstApproved(request, '/api/campaigns');
  await page.goto(`/campaigns/${campaign._id}`);
  await page.locator('.detail-share summary').click();
  await expect(page.locator('.detail-share input')).toHaveValue(`${baseURL}/campaigns/${campaign.short_id}`);

  await page.goto('/appeals');
  // A card that takes gifts: other tests' appeals may open later or have ended, and offer View instead.
  const card = page
    .locator('.card')
    .filter({ has: page.getByRole('link', { name: /^Donate/ }) })
    .first();
  await card.scrollIntoViewIfNeeded();
  const donateHref = await card.getByRole('link', { name: /^Donate/ }).getAttribute('href');
  await card.locator('summary').click();
  await expect(card.getByLabel('Share link')).toHaveValue(`${baseURL}${donateHref?.replace(/#donate$/, '')}`);
});

test('the platform share sheet is offered where the browser has one', async ({ page, request }) => {
  await page.addInitScript(() => {
    const w = window as unknown as Window & { __shared: unknown };
    w.__shared = null;
    // A browser with a share sheet: record what the page hands it.
    navigator.share = async (data?: ShareData) => {
      w.__shared = data;
    };
  });
  const appeal = await firstApproved(request, '/api/appeals');
  await page.goto(`/appeals/${appeal.short_id}`);
  await page.locator('summary', { hasText: 'Share Appeal' }).click();
  await page.getByRole('button', { name: 'More ways to share…' }).click();
  const shared = await page.evaluate(() => (window as unknown as { __shared: unknown }).__shared);
  // The sheet sends a short line with the goal, not just the title.
  expect(shared).toEqual({
    title: appeal.title,
    text: `Help ${appeal.title} reach ${gbpShort(appeal.goal)}`,
    url: expect.stringMatching(new RegExp(`/appeals/${appeal.short_id}$`)),
  });
});

test('share controls are plain HTML: the link is there without JavaScript, and no island renders them', async ({
  browser,
  request,
  baseURL,
}) => {
  const appeal = await firstApproved(request, '/api/appeals');
  const context = await browser.newContext({ baseURL, javaScriptEnabled: false });
  const page = await context.newPage();
  await page.goto('/appeals');
  // A card that takes gifts: other tests' appeals may open later or have ended, and offer View instead.
  const card = page
    .locator('.card')
    .filter({ has: page.getByRole('link', { name: /^Donate/ }) })
    .first();
  await card.locator('summary').click();
  await expect(card.getByLabel('Share link')).toHaveValue(/\/appeals\/[A-Za-z0-9]+$/);
  await expect(page.locator('astro-island[component-url*="Share"]')).toHaveCount(0);
  await page.goto(`/appeals/${appeal.short_id}`);
  await page.locator('summary', { hasText: 'Share Appeal' }).click();
  await expect(page.locator('.detail-share').getByLabel('Share link')).toHaveValue(
    `${baseURL}/appeals/${appeal.short_id}`,
  );
  // No share sheet to offer without the script that checks for one.
  await expect(page.getByRole('button', { name: 'More ways to share…' })).toBeHidden();
  await context.close();
});

test('a pre-rendered blog post shares its link on the origin the visitor is on', async ({ page, baseURL }) => {
  await page.goto('/blog/1');
  await page.locator('summary', { hasText: 'Share Campaign' }).click();
  await expect(page.locator('.detail-share').getByLabel('Share link')).toHaveValue(`${baseURL}/blog/1`);
});

test('when the clipboard refuses, the link is selected for a manual copy; no share sheet where the browser has none', async ({
  page,
  request,
}) => {
  await page.addInitScript(() => {
    Object.defineProperty(navigator, 'clipboard', { value: { writeText: () => Promise.reject(new Error('denied')) } });
    Object.defineProperty(navigator, 'share', { value: undefined });
  });
  const appeal = await firstApproved(request, '/api/appeals');
  await page.goto(`/appeals/${appeal.short_id}`);
  const share = page.locator('.detail-share');
  await share.locator('summary').click();
  await share.getByRole('button', { name: 'Copy link' }).click();
  await expect(share.getByRole('status')).toHaveText('Press Ctrl+C (or Cmd+C) to copy the selected link');
  const selected = await page.evaluate(() => {
    const input = document.querySelector<HTMLInputElement>('.detail-share input')!;
    return document.activeElement === input
      ? input.value.slice(input.selectionStart ?? 0, input.selectionEnd ?? 0)
      : null;
  });
  expect(selected).toMatch(new RegExp(`/appeals/${appeal.short_id}$`));
  await expect(share.getByRole('button', { name: 'More ways to share…' })).toBeHidden();
});

test('detail pages server-render share previews that scrapers read without JavaScript', async ({
  request,
  baseURL,
}) => {
  const appeal = await firstApproved(request, '/api/appeals');
  const html = await (await request.get(`/appeals/${appeal._id}`)).text();
  const meta = (attr: string, key: string) => html.match(new RegExp(`<meta ${attr}="${key}" content="([^"]*)"`))?.[1];
  const canonical = `${baseURL}/appeals/${appeal.short_id}`;
  expect(html).toMatch(new RegExp(`<title>${appeal.title.replace(/'/g, '&#39;')} \\| UK NFP</title>`));
  expect(html).toContain(`<link rel="canonical" href="${canonical}">`);
  expect(meta('property', 'og:url')).toBe(canonical);
  expect(meta('property', 'og:type')).toBe('website');
  expect(meta('property', 'og:image')).toMatch(/^https?:\/\/[^/]+\/images\/demo\/cause-\d\.png$/);
  expect(meta('property', 'og:image:width')).toBe('1200');
  expect(meta('property', 'og:image:height')).toBe('800');
  expect(meta('name', 'twitter:card')).toBe('summary_large_image');
  expect(meta('name', 'description')).toBeTruthy();
  const ld = html.match(/<script type="application\/ld\+json">(.*?)<\/script>/s)?.[1];
  expect(ld).toBeTruthy();
  const data = JSON.parse(ld!);
  expect(data).toMatchObject({ '@context': 'https://schema.org', name: appeal.title, url: canonical });
  // The preview image itself is served.
  const image = await request.get(new URL(meta('property', 'og:image')!).pathname);
  expect(image.headers()['content-type']).toBe('image/png');
});
