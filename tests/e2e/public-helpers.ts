import AxeBuilder from '@axe-core/playwright';
import { expect, type APIRequestContext, type Locator, type Page } from '@playwright/test';

export const WCAG_TAGS = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa'];

/** No WCAG 2.2 AA violations on the page as it is now; a failure lists rule ids and targets. */
export async function expectNoAxeViolations(page: Page) {
  const results = await new AxeBuilder({ page }).withTags(WCAG_TAGS).analyze();
  const summary = results.violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`);
  expect(summary).toEqual([]);
}

/** Waits until an island has hydrated (Astro drops its ssr attribute). */
export async function islandHydrated(island: Locator) {
  await expect(island).not.toHaveAttribute('ssr');
}

export type Item = { _id: string; short_id: string; title: string; campaign_id: string | null; story: string; description: string };

/**
 * A seeded, approved item: the oldest in the list (lists are newest first), so items that other
 * browser tests create never get picked.
 */
export async function firstApproved(request: APIRequestContext, path: '/api/appeals' | '/api/campaigns'): Promise<Item> {
  const res = await request.get(`${path}?limit=100`);
  expect(res.ok()).toBe(true);
  const items = (await res.json()) as Item[];
  return items[items.length - 1];
}
