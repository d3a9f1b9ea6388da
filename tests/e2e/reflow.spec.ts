import type { Page } from '@playwright/test';
import { expect, type Item, test, tokenFor } from './fixtures';

/**
 * WCAG 1.4.10 Reflow and 1.4.4 Resize text on the public pages: at 320 CSS px, and on a 390 px
 * phone with the text at 200% (the root font size, as a browser's text zoom sets it), the page
 * scrolls only up and down (a table may scroll inside its own box); and the header does not stay
 * on a screen that is short in CSS px or in lines of text.
 */

/**
 * How far the page scrolls sideways, and the elements past its right edge (clipped ones too: the
 * home page's sections clip what sticks out, which hides it instead of scrolling). What scrolls or
 * slides inside its own box (a carousel, a wide table) is allowed. Everything is laid out first:
 * content-visibility skips what is off screen.
 */
async function sideways(page: Page) {
  return page.evaluate(async () => {
    const root = document.scrollingElement!;
    for (let y = 0; y < root.scrollHeight; y += innerHeight) {
      scrollTo(0, y);
      await new Promise(requestAnimationFrame);
    }
    scrollTo(0, 0);
    const width = root.clientWidth;
    const inOwnBox = (el: Element) => {
      for (let up = el.parentElement; up && up !== document.body; up = up.parentElement) {
        if (/auto|scroll/.test(getComputedStyle(up).overflowX) || up.classList.contains('swiper')) return true;
      }
      return false;
    };
    const past = [...document.body.querySelectorAll('*')].filter((el) => {
      const box = el.getBoundingClientRect();
      return box.width > 1 && box.right > width + 1 && !inOwnBox(el);
    });
    return {
      overflow: root.scrollWidth - width,
      past: past
        .slice(0, 5)
        .map((el) => `${el.tagName.toLowerCase()}.${el.className}: ${el.textContent?.trim().slice(0, 30)}`),
    };
  });
}

const bigText = (page: Page) =>
  page.evaluate(() => {
    document.documentElement.style.fontSize = '200%';
  });

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
