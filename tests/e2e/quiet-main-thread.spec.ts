import { expect, firstApproved, test } from './fixtures';

/**
 * A public page's main thread stays quiet on load (docs/decisions/042): React, the largest script,
 * is not fetched until an island needs it, and what is below the fold is laid out when it comes near.
 */

test('a page without other islands loads no React until the visitor reaches for Login, and the first click opens the dialog', async ({
  page,
}) => {
  const scripts: string[] = [];
  page.on('request', (req) => {
    if (req.resourceType() === 'script') scripts.push(new URL(req.url()).pathname);
  });
  await page.goto('/campaigns');
  await page.waitForLoadState('networkidle');
  const island = page.locator('header astro-island');
  await expect(island).toHaveAttribute('ssr', '');
  expect(scripts.filter((path) => path.includes('/_astro/'))).toEqual([]);

  await page.locator('header').getByRole('button', { name: 'Login' }).click();
  await expect(page.getByRole('dialog', { name: 'Log in or sign up' }).getByLabel('Email address')).toBeFocused();
  await expect(island).not.toHaveAttribute('ssr');
});

test('a stored session still brings the header island up on its own', async ({ page }) => {
  await page.goto('/campaigns');
  await page.evaluate(() => localStorage.setItem('uk_nfp_token', 'x'.repeat(43)));
  await page.reload();
  // Restored (the server rejects this token, so the Login button returns and the token is cleared).
  await expect(page.locator('header astro-island')).not.toHaveAttribute('ssr');
  await expect.poll(() => page.evaluate(() => localStorage.getItem('uk_nfp_token'))).toBeNull();
});

test('an appeal page lays its below-the-fold sections out lazily, and they are still there', async ({
  page,
  request,
}) => {
  const appeal = await firstApproved(request, '/api/appeals');
  await page.setViewportSize({ width: 390, height: 844 });
  await page.goto(`/appeals/${appeal.short_id}`);
  // Laid out only near the viewport, but there for find-in-page, assistive technology and scrolling.
  await expect(page.locator('.related')).toHaveCSS('content-visibility', 'auto');
  await page.locator('.site-footer').scrollIntoViewIfNeeded();
  await expect(page.locator('.site-footer').getByRole('link', { name: 'Privacy Policy' })).toBeVisible();
  await expect(page.getByRole('heading', { name: /Similar Appeals|Appeals for Campaign/ })).toBeVisible();
});

test('each page inlines only the rules it uses, and the sign-in dialog brings its own', async ({ page, request }) => {
  const appeal = await firstApproved(request, '/api/appeals');
  const inlineCss = () =>
    page.evaluate(() => [...document.querySelectorAll('style')].map((s) => s.textContent).join(''));

  await page.goto(`/appeals/${appeal.short_id}`);
  const appealCss = await inlineCss();
  expect(appealCss).toContain('.top-donors');
  expect(appealCss).not.toContain('.hero-inner');
  expect(appealCss).not.toContain('.campaign-carousel');

  await page.goto('/');
  const homeCss = await inlineCss();
  expect(homeCss).toContain('.hero-inner');
  expect(homeCss).toContain('.swiper-wrapper');
  expect(homeCss).not.toContain('.top-donors');
  // Swiper's effects, CSS mode and lazy preloader are not used here.
  expect(homeCss).not.toContain('swiper-3d');
  expect(homeCss).not.toContain('swiper-lazy-preloader');

  for (const css of [appealCss, homeCss]) expect(css).not.toMatch(/\.login-dialog\s*\{/);
  await page.locator('header').getByRole('button', { name: 'Login' }).click();
  const dialog = page.getByRole('dialog', { name: 'Log in or sign up' });
  await expect(dialog.getByLabel('Email address')).toBeFocused();
  // Its rules (login.css) were adopted with its chunk: rounded, and no wider than 420 px.
  await expect(dialog).toHaveCSS('border-top-left-radius', '12px');
  expect((await dialog.boundingBox())?.width).toBeLessThanOrEqual(420);
});

test('an appeal page carries its share control’s script inline, not as files of its own', async ({ page, request }) => {
  const scripts: string[] = [];
  page.on('request', (req) => {
    if (req.resourceType() === 'script') scripts.push(new URL(req.url()).pathname);
  });
  const appeal = await firstApproved(request, '/api/appeals');
  await page.goto(`/appeals/${appeal.short_id}`);
  await page.waitForLoadState('networkidle');
  await expect(page.locator('details.share').first()).toBeAttached();
  // A module the share script shares with another bundle is split out and fetched: two requests on every page.
  expect(scripts.filter((path) => /share/i.test(path))).toEqual([]);
});

/**
 * Every distinct font (family, size and weight) a page lays out is a synchronous question to
 * Chromium's browser process during its first layouts on Linux, and each new weight a font match
 * (decision 042). The public pages keep to three weights, and no control falls back to the
 * browser's own 13.33px Arial.
 */
test('the appeal and home pages lay text out in few fonts: three weights, none of them the browser’s control font', async ({
  page,
  request,
}) => {
  const appeal = await firstApproved(request, '/api/appeals');
  await page.setViewportSize({ width: 412, height: 823 });
  const fontsOf = () =>
    page.evaluate(() => {
      const fonts = new Set<string>();
      for (const el of document.querySelectorAll<HTMLElement>('body *')) {
        const hasText = [...el.childNodes].some((n) => n.nodeType === Node.TEXT_NODE && n.textContent?.trim());
        if (!hasText && !el.matches('input, button, select, textarea')) continue;
        if (!el.getClientRects().length) continue;
        const style = getComputedStyle(el);
        fonts.add(`${style.fontFamily.split(',')[0]} ${style.fontSize} ${style.fontWeight} ${style.fontStyle}`);
      }
      return [...fonts];
    });
  for (const path of [`/appeals/${appeal.short_id}`, '/']) {
    await page.goto(path);
    const fonts = await fontsOf();
    expect(
      fonts.filter((font) => !font.startsWith('system-ui')),
      path,
    ).toEqual([]);
    expect(new Set(fonts.map((font) => font.split(' ')[2])), path).toEqual(new Set(['400', '600', '700']));
    expect(fonts.length, `${path}: ${fonts.sort().join('; ')}`).toBeLessThanOrEqual(path === '/' ? 17 : 14);
  }
});
