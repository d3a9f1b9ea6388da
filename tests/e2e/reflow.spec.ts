import {
  bigText,
  expect,
  firstApproved,
  type Item,
  screenshotPieces,
  sideways,
  spilledText,
  test,
  tokenFor,
} from './fixtures';

/**
 * WCAG 1.4.10 Reflow and 1.4.4 Resize text on the public pages: at 320 CSS px, and on a 390 px
 * phone with the text at 200% (the root font size, as a browser's text zoom sets it), the page
 * scrolls only up and down (a table may scroll inside its own box); and the header does not stay
 * on a screen that is short in CSS px or in lines of text.
 */

test('public pages reflow at 320 px, and at 390 px with 200% text, with no sideways page scroll', async ({
  page,
  request,
}) => {
  test.setTimeout(120_000);
  // Worst cases of its own, not whatever other tests left behind: a campaign and an appeal under it
  // whose title, description and story hold a 48-letter word (a pasted address, a name run
  // together), so every place that repeats a title ("Created by … for …", "Start your own appeal
  // for …", the cards) has to wrap it. The detail page's heading is the largest text on the site.
  const [seeded] = (await (await request.get('/api/campaigns?limit=1')).json()) as (Item & {
    organization_id: string;
  })[];
  const longWord = `Unbroken${'Lettersinarow'.repeat(3)}${Date.now() % 1e3}`;
  const text = { description: `A cause for ${longWord}.`, story: `Give to ${longWord} today.`, goal: 50_000 };
  const images = [{ Key: '/images/demo/cause-1.png', name: 'cause-1.png' }];
  const create = async (email: string, data: object) => {
    const res = await request.post('/api/campaigns', {
      headers: { authorization: `Bearer ${await tokenFor(request, email)}` },
      data: { ...text, images, ...data },
    });
    expect(res.status(), await res.text()).toBe(201);
    return (await res.json()) as Item;
  };
  const campaign = await create('admin@example.org', {
    title: `Reflow ${longWord}`,
    organization_id: seeded.organization_id,
  });
  const appeal = await create('donor@example.org', { title: `Walk ${longWord}`, campaign_id: campaign._id });
  const paths = [
    '/',
    '/appeals',
    '/campaigns',
    `/campaigns/${seeded.short_id}`,
    `/campaigns/${campaign.short_id}`,
    `/appeals/${appeal.short_id}`,
    '/fees',
  ];
  for (const [width, height, zoom] of [
    [320, 640, false],
    [390, 844, true],
  ] as const) {
    await page.setViewportSize({ width, height });
    for (const path of paths) {
      await page.goto(path);
      if (zoom) await bigText(page);
      const where = `${path} at ${width} px${zoom ? ', 200% text' : ''}`;
      expect(await sideways(page), where).toEqual({ overflow: 0, past: [] });
      if (process.env.SCREENSHOTS && zoom) {
        await page.screenshot({ path: `test-results/reflow-${path.replace(/\W+/g, '-')}-390-200.png` });
      }
    }
  }
  // The fees tables keep their columns and scroll inside their own box if they must.
  await page.goto('/fees');
  await bigText(page);
  const table = page.locator('.fee-table').last();
  const box = await table.evaluate((el) => {
    const scroller = el.closest('.table-scroll') ?? el;
    return { scrolls: getComputedStyle(scroller).overflowX, fits: scroller.clientWidth <= innerWidth };
  });
  expect(box).toEqual({ scrolls: 'auto', fits: true });
});

test('the header scrolls away on a short screen, in CSS px or in text size, and stays on a tall one', async ({
  page,
}) => {
  const headerBottomAfterScroll = async () => {
    await page.goto('/appeals');
    await page.evaluate(() => scrollTo(0, 600));
    return page.locator('.site-header').evaluate((el) => el.getBoundingClientRect().bottom);
  };
  await page.setViewportSize({ width: 390, height: 844 });
  expect(await headerBottomAfterScroll()).toBeGreaterThan(0);
  // A 390 x 844 phone zoomed to 200% is 195 x 422 CSS px; on its side, 844 x 390.
  await page.setViewportSize({ width: 390, height: 422 });
  expect(await headerBottomAfterScroll()).toBeLessThan(0);
  // 200% text as the other test sets it (the root font size) on the same phone.
  await page.setViewportSize({ width: 390, height: 844 });
  await page.goto('/appeals');
  await bigText(page);
  await page.evaluate(() => scrollTo(0, 600));
  expect(await page.locator('.site-header').evaluate((el) => el.getBoundingClientRect().bottom)).toBeLessThan(0);
  // The browser's own text size at 200% (32 px, as Chromium's font size setting sets it): the
  // same 844 px are 26 lines of text, and the header's rows would take a third of them.
  await page.setViewportSize({ width: 390, height: 844 });
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('Page.setFontSizes', { fontSizes: { standard: 32, fixed: 26 } });
  expect(await headerBottomAfterScroll()).toBeLessThan(0);
});

test("the donation box's later steps reflow at 320 px, and at 390 px with 200% text", async ({ page, request }) => {
  test.setTimeout(120_000);
  const appeal = await firstApproved(request, '/api/appeals');
  const found: unknown[] = [];
  for (const [width, height, zoom] of [
    [320, 640, false],
    [390, 844, true],
  ] as const) {
    await page.setViewportSize({ width, height });
    const openBox = async () => {
      await page.goto(`/appeals/${appeal.short_id}`);
      if (zoom) await bigText(page);
      await page.locator('.donation-slot').scrollIntoViewIfNeeded();
      await expect(page.locator('astro-island:has(.donation-box)')).not.toHaveAttribute('ssr', /.*/);
      const box = page.locator('.donation-box');
      await box.getByRole('textbox', { name: /^Email/ }).fill(`reflow.${width}.${Date.now()}@example.com`);
      return box;
    };
    const look = async (step: string) => {
      const where = `${step} at ${width} px${zoom ? ', 200% text' : ''}`;
      const result = { ...(await sideways(page)), spilled: await spilledText(page, '.donation-box') };
      if (result.overflow || result.past.length || result.spilled.length) found.push({ where, ...result });
      if (process.env.SCREENSHOTS)
        await screenshotPieces(page, `box-${step.replace(/\W+/g, '-')}-${width}${zoom ? '-200' : ''}`, '.donation-box');
    };

    // Once, with the Gift Aid declaration and a message of support, then the demo card step.
    let box = await openBox();
    await box.getByLabel('Amount (£)').fill('12.34');
    await box.getByLabel('Gift Aid (UK Only)').check();
    const declaration = box.locator('.gift-aid-details');
    await declaration.getByLabel('First name').fill('Bartholomew');
    await declaration.getByLabel('Last name').fill('Featherstonehaugh');
    await declaration.getByLabel('House name or number').fill('Flat 12');
    await declaration.getByLabel('Street and town').fill('Station Road, Leeds');
    await declaration.getByLabel('Postcode').fill('LS1 4AP');
    await box.getByLabel(/message of support/i).fill('Good luck with the run, from all of us at number 12!');
    await look('gift aid and message');
    await box.getByRole('button', { name: /^Donate/ }).click();
    await expect(box.getByText('Demo mode: no card is charged.')).toBeVisible();
    await look('demo card');

    // Monthly by Direct Debit: the choice, the notice, then the demo bank step and its errors.
    box = await openBox();
    await box.getByText('Donate Every Month').click();
    const select = box.getByLabel('Monthly amount');
    await expect(select.locator('option')).not.toHaveCount(1);
    await select.selectOption({ index: 1 });
    await box.getByRole('radio', { name: 'Direct Debit' }).check();
    await expect(box.locator('.direct-debit-notice')).toBeVisible();
    await look('monthly by direct debit');
    await box.getByRole('button', { name: /^Donate/ }).click();
    await expect(box.getByText('Demo mode: no bank account is debited.')).toBeVisible();
    await box.getByRole('button', { name: /^Set up Direct Debit/ }).click();
    await expect(box.getByLabel('Address line 1')).toHaveAttribute('aria-invalid', 'true');
    await look('demo direct debit');
  }
  expect(found).toEqual([]);
});

test("a reader's larger default text gets the narrow layout at a wide window (breakpoints in em)", async ({
  page,
  request,
}) => {
  // Chromium's own font size setting (not a page style): 32 px makes a 1280 px window 40em wide,
  // under the 64em breakpoint, so the appeal page stacks its donation box under the story as a
  // 640 px window does, and the home page's hero is one column. With breakpoints in px the box
  // stayed beside a story column of a few words a line.
  const appeal = await firstApproved(request, '/api/appeals');
  await page.setViewportSize({ width: 1280, height: 800 });
  const cdp = await page.context().newCDPSession(page);
  const columns = async () => {
    const main = await page.locator('.detail-main').boundingBox();
    const side = await page.locator('.detail-side').boundingBox();
    return { stacked: !!main && !!side && side.y >= main.y + main.height - 1 };
  };
  // The image's `sizes` follow the same breakpoints: beside the box it is 60% of the window (the
  // 800 px file), stacked it is the window's width (the 1200 px one).
  const image = () =>
    page
      .locator('.detail-main img')
      .first()
      .evaluate((img: HTMLImageElement) => img.currentSrc);
  await page.goto(`/appeals/${appeal.short_id}`);
  expect(await columns()).toEqual({ stacked: false });
  expect(await image()).toMatch(/-800\.\w+$/);
  await cdp.send('Page.setFontSizes', { fontSizes: { standard: 32, fixed: 26 } });
  await page.goto(`/appeals/${appeal.short_id}`);
  expect(await columns()).toEqual({ stacked: true });
  expect(await image()).toMatch(/-1200\.\w+$/);
  expect(await sideways(page)).toEqual({ overflow: 0, past: [] });
  await page.goto('/');
  const hero = await page
    .locator('.hero-inner')
    .evaluate((el) => getComputedStyle(el).gridTemplateColumns.split(' ').length);
  expect(hero).toBe(1);
  expect(await sideways(page)).toEqual({ overflow: 0, past: [] });
});
