import { expect, expectNoAxeViolations, firstApproved, islandHydrated, test } from './fixtures';

test('home: hero, video facade, letter figures, partner, prize, calls to action and carousel', async ({
  page,
  request,
}) => {
  const thirdParty: string[] = [];
  page.on('request', (r) => {
    if (!r.url().startsWith('http://localhost')) thirdParty.push(r.url());
  });
  const res = await page.goto('/');
  expect(res?.status()).toBe(200);
  await expect(page.getByRole('heading', { level: 1 })).toContainText('This winter');
  await expect(page.getByRole('link', { name: 'Donate now' })).toHaveAttribute('href', '/appeals');
  const letter = page.locator('.letter');
  await expect(letter).toContainText('£22,000');
  await expect(letter).toContainText('£50,000');
  for (const fact of ['5 prizes for pupils', '11 water pumps', '7 homes built', '11 medical cases', '165 people fed']) {
    await expect(letter.getByText(fact.replace(/^\d+ /, ''))).toBeVisible();
    await expect(letter).toContainText(fact.split(' ')[0]);
  }
  // Every receiving charity is named with its own number (the seed's three organizations).
  const partners = page.locator('.partner-list li');
  await expect(partners).toHaveText([
    /Harbour Food Network\s*Scottish charity number SC051234/,
    /Homes & Hearts Trust\s*Registered charity number 1174409/,
    /Wells for Hope\s*Registered charity number 1187342/,
  ]);
  await expect(page.getByRole('heading', { name: 'The pupil prize competition' })).toBeVisible();
  const ctas = page.locator('.cta-card');
  await expect(ctas).toHaveCount(3);
  for (const href of await ctas.evaluateAll((els) => els.map((e) => e.getAttribute('href'))))
    expect(href).toBe('/appeals');

  // Carousel: real campaigns, hydrated on scroll, with arrows and dots.
  const carousel = page.locator('.campaign-carousel');
  await carousel.scrollIntoViewIfNeeded();
  await islandHydrated(page.locator('astro-island', { has: page.locator('.campaign-carousel') }));
  const campaigns = (await (await request.get('/api/campaigns')).json()) as { title: string }[];
  await expect(carousel.locator('.card-title')).toHaveText(campaigns.map((c) => c.title));
  await expect(carousel.getByRole('button', { name: 'Next campaigns' })).toBeEnabled();
  await expect(carousel.getByRole('button', { name: 'Previous campaigns' })).toBeDisabled();
  await expect(carousel.getByRole('button', { name: /^Go to slide/ })).toHaveCount(campaigns.length - 2);
  const visible = await carousel.locator('.swiper-slide-visible, .swiper-slide').evaluateAll(
    (els) =>
      els.filter((e) => {
        const r = e.getBoundingClientRect();
        return r.left >= 0 && r.right <= window.innerWidth + 1;
      }).length,
  );
  expect(visible).toBe(3);
  await carousel.getByRole('button', { name: 'Next campaigns' }).click();
  await expect(carousel.getByRole('button', { name: 'Go to slide 2' })).toHaveAttribute('aria-current', 'true');
  await carousel.getByRole('button', { name: `Go to slide ${campaigns.length - 2}` }).click();
  await expect(carousel.getByRole('button', { name: 'Next campaigns' })).toBeDisabled();

  // The video is a facade: nothing from YouTube until the visitor presses play.
  await page.locator('.video-section').scrollIntoViewIfNeeded();
  await islandHydrated(page.locator('.video-section astro-island'));
  expect(thirdParty).toEqual([]);
  await expectNoAxeViolations(page);
  await page.getByRole('button', { name: /Play video/ }).click();
  await expect(page.locator('iframe[src*="youtube-nocookie.com/embed/"]')).toBeAttached();
});

test('campaigns list: card fields, View and View Appeals, only approved items', async ({ page }) => {
  await page.goto('/campaigns');
  await expect(page.getByRole('link', { name: 'start a fundraise', exact: true })).toHaveAttribute(
    'href',
    '/fund-raising',
  );
  const card = page.locator('.card', { hasText: 'Clean Water for Every Village' });
  await expect(card.locator('img')).toHaveAttribute('width', '600');
  await expect(card.locator('.initial-badge')).toHaveText('C');
  await expect(card.getByText('Active')).toBeVisible();
  await expect(card.getByText(/^Goal: £20,000$/)).toBeVisible();
  await expect(card.locator('.card-percent')).toHaveText(/^\d+\.\d{2}%$/);
  await expect(card.getByRole('progressbar')).toBeVisible();
  const view = card.getByRole('link', { name: /^View Clean Water/ });
  const href = await view.getAttribute('href');
  expect(href).toMatch(/^\/campaigns\/[0-9A-Za-z]{22}$/);
  await expect(card.getByRole('link', { name: /^View Appeals/ })).toHaveAttribute('href', `${href}/appeals`);
  await expect(page.locator('.card').nth(3).locator('img')).toHaveAttribute('loading', 'lazy');
  await expectNoAxeViolations(page);
});

test('appeals list: By line, Donate, share control and paging with ?page=', async ({ page, request }) => {
  await page.goto('/appeals');
  const cards = page.locator('.card');
  await expect(cards).toHaveCount(12);
  const first = cards.first();
  await expect(first.getByText(/^By: \S+/)).toBeVisible();
  await expect(first.getByRole('link', { name: /^Donate/ })).toHaveAttribute(
    'href',
    /^\/appeals\/[0-9A-Za-z]{22}#donate$/,
  );
  await expect(first.locator('summary', { hasText: 'Share' })).toBeVisible();
  await expectNoAxeViolations(page);

  const all = (await (await request.get('/api/appeals?limit=100')).json()) as { title: string }[];
  await page.getByRole('link', { name: 'Next page' }).click();
  await expect(page).toHaveURL(/\?page=2$/);
  await expect(page.locator('.card')).toHaveCount(all.length - 12);
  // Past the last page: 404, and it says how many pages there are (walk-fixes.spec.ts).
  expect((await page.goto('/appeals?page=99'))?.status()).toBe(404);
  await expect(page.getByText('There is no page 99: this list has 2 pages.')).toBeVisible();
  // Drafts and deleted appeals never appear.
  const titles = await (async () => {
    const out: string[] = [];
    for (const p of [1, 2]) {
      await page.goto(`/appeals?page=${p}`);
      out.push(...(await page.locator('.card-title').allTextContents()));
    }
    return out;
  })();
  expect(titles.sort()).toEqual(all.map((a) => a.title).sort());
});

test("a campaign's appeals list, and 404 for an unknown campaign", async ({ page, request }) => {
  const campaign = await firstApproved(request, '/api/campaigns');
  const appeals = (await (await request.get(`/api/campaigns/${campaign._id}/appeals`)).json()) as { title: string }[];
  await page.goto(`/campaigns/${campaign.short_id}/appeals`);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(`Appeals for ${campaign.title}`);
  await expect(page.locator('.card')).toHaveCount(appeals.length);
  const res = await page.goto('/campaigns/0000000000000000000000/appeals');
  expect(res?.status()).toBe(404);
  await expect(page.getByRole('heading', { name: 'Campaign not found' })).toBeVisible();
});

test('appeal detail: every section, donation box slot, top donors, similar appeals', async ({ page, request }) => {
  const appeal = await firstApproved(request, '/api/appeals');
  const res = await page.goto(`/appeals/${appeal.short_id}`);
  expect(res?.status()).toBe(200);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(appeal.title);
  await expect(page.getByText(/raised of £/)).toBeVisible();
  await expect(page.getByRole('heading', { name: 'Description of the Overarching Goal' })).toBeVisible();
  await expect(page.getByRole('heading', { name: 'Your Story' })).toBeVisible();
  // Line breaks in the story are kept.
  const story = page.locator('.story');
  expect(await story.evaluate((el) => getComputedStyle(el).whiteSpace)).toBe('pre-line');
  expect(await story.textContent()).toBe(appeal.story);
  await expect(page.locator('summary', { hasText: 'Share Appeal' })).toBeVisible();
  await expect(page.locator('astro-island[component-url*="DonationBox"]')).toHaveCount(1);
  const donors = (await (await request.get(`/api/donations?type=public&appeal_id=${appeal._id}`)).json()) as {
    donor: string;
  }[];
  const board = page.locator('.top-donors');
  await expect(board.getByRole('heading', { name: 'Top Donors' })).toBeVisible();
  await expect(board.locator('li')).toHaveCount(donors.length);
  if (donors.length) await expect(board.locator('li').first()).toContainText(donors[0].donor);
  await expect(board).not.toContainText('@');
  await expect(page.getByRole('heading', { name: 'Similar Appeals' })).toBeVisible();
  await expect(page.locator('.related .card-title', { hasText: appeal.title })).toHaveCount(0);
  await expect(page.getByRole('link', { name: /^View all/ })).toHaveAttribute(
    'href',
    /^\/campaigns\/[0-9A-Za-z]{22}\/appeals$/,
  );
  await expectNoAxeViolations(page);

  // The same appeal by UUID and under its campaign; a wrong campaign is a 404.
  expect((await page.goto(`/appeals/${appeal._id}`))?.status()).toBe(200);
  expect((await page.goto(`/campaign/${appeal.campaign_id}/appeal/${appeal.short_id}`))?.status()).toBe(200);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(appeal.title);
  const other = await firstApproved(request, '/api/campaigns');
  if (other._id !== appeal.campaign_id) {
    expect((await page.goto(`/campaign/${other._id}/appeal/${appeal.short_id}`))?.status()).toBe(404);
  }
});

test('campaign detail shows Appeals for Campaign', async ({ page, request }) => {
  const campaign = await firstApproved(request, '/api/campaigns');
  await page.goto(`/campaigns/${campaign.short_id}`);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(campaign.title);
  await expect(page.getByRole('heading', { name: 'Appeals for Campaign' })).toBeVisible();
  await expect(page.getByRole('link', { name: /^View all/ })).toHaveAttribute(
    'href',
    `/campaigns/${campaign.short_id}/appeals`,
  );
  await expect(page.locator('.top-donors li').first()).toBeVisible();
  await expectNoAxeViolations(page);
});

test('missing, draft and wrong-kind items answer 404 with the spec text', async ({ page, request }) => {
  const campaign = await firstApproved(request, '/api/campaigns');
  for (const [path, text] of [
    ['/appeals/not-an-id', 'Appeal not found'],
    ['/appeals/0000000000000000000000', 'Appeal not found'],
    [`/appeals/${campaign.short_id}`, 'Appeal not found'],
    ['/campaigns/0000000000000000000000', 'Campaign not found'],
  ]) {
    const res = await page.goto(path);
    expect(res?.status(), path).toBe(404);
    await expect(page.getByRole('heading', { level: 1 })).toHaveText(text);
  }
  await expectNoAxeViolations(page);
});

const STATIC_PAGES: [string, RegExp | string][] = [
  ['/events', 'Events & Volunteering'],
  ['/blogs', 'Latest News'],
  ['/blog/1', 'Eleven pumps and counting'],
  ['/donor/1', 'Priya Patel'],
  ['/policy', 'Privacy Policy'],
  ['/login', 'Login'],
  ['/donate', 'Make a donation'],
  ['/donate-campaign', 'Coastal Charity Walk for Clean Water'],
  ['/fund-raise', 'Congrats, your appeal is ready to review!'],
];

for (const [path, heading] of STATIC_PAGES) {
  test(`mock-up page ${path} renders its sample content accessibly`, async ({ page }) => {
    const res = await page.goto(path);
    expect(res?.status()).toBe(200);
    await expect(page.getByRole('heading', { level: 1 })).toHaveText(heading);
    await expectNoAxeViolations(page);
  });
}

test('mock-up details: events, blog sidebar, checkout presets, login link', async ({ page }) => {
  await page.goto('/events');
  await expect(page.getByText('Registration open').first()).toBeVisible();
  await expect(page.getByRole('link', { name: /^Join the Event/ }).first()).toHaveAttribute('href', '/donate-campaign');
  await page.goto('/blogs');
  await expect(page.getByRole('heading', { name: 'Feature Appeals' })).toBeVisible();
  await page.goto('/blog/1');
  await expect(page.locator('summary', { hasText: 'Share Campaign' })).toBeVisible();
  expect((await page.goto('/blog/999'))?.status()).toBe(404);
  await page.goto('/donate');
  await expect(page.getByText('Step 2 out of 3')).toBeVisible();
  for (const amount of ['£50', '£150', '£500']) await expect(page.getByText(amount, { exact: true })).toBeVisible();
  for (const legend of ['Donation details', 'Your details', 'Payment details'])
    await expect(page.locator('legend', { hasText: legend })).toBeVisible();
  for (const method of ['Card', 'PayPal', 'Bank transfer'])
    await expect(page.getByText(method, { exact: true })).toBeVisible();
  // /login opens the real sign-in dialog (walk-fixes.spec.ts follows it through).
});

test('pages work at 390px without horizontal scrolling', async ({ page, request }) => {
  await page.setViewportSize({ width: 390, height: 844 });
  const appeal = await firstApproved(request, '/api/appeals');
  for (const path of ['/', '/campaigns', `/appeals/${appeal.short_id}`, '/donate', '/events']) {
    await page.goto(path);
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    expect(overflow, path).toBeLessThanOrEqual(0);
  }
});

test('the home carousel moves without sliding for those who ask for less motion', async ({ page }) => {
  await page.emulateMedia({ reducedMotion: 'reduce' });
  await page.goto('/');
  const carousel = page.locator('.campaign-carousel');
  await carousel.scrollIntoViewIfNeeded();
  await islandHydrated(page.locator('astro-island', { has: page.locator('.campaign-carousel') }));
  await carousel.getByRole('button', { name: 'Next campaigns' }).click();
  // Swiper sets the track's transition to its speed: 0 ms, so the slide is there at once.
  await expect(carousel.locator('.swiper-wrapper')).toHaveCSS('transition-duration', '0s');
  await expect(carousel.getByRole('button', { name: 'Go to slide 2' })).toHaveAttribute('aria-current', 'true');
});
