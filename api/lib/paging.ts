import { z } from '@hono/zod-openapi';
import type { Context } from 'hono';
import { errorResponses, jsonContent, totalCountHeader } from './openapi';

/** A paged list route's answers: one page of `item`s, with the whole list's length in X-Total-Count. */
export function pageResponses<T extends z.ZodType>(item: T, description: string) {
  return pagedBodyResponses(z.array(item), description);
}

/** The answers of a route whose `body` holds one page of a longer list (e.g. totals and a page of gifts). */
export function pagedBodyResponses<T extends z.ZodType>(body: T, description: string) {
  return { 200: { ...jsonContent(body, description), headers: totalCountHeader }, ...errorResponses };
}

/** The items of one page of a paged list, with the whole list's length set in X-Total-Count. */
export function pageItems<T>(c: Context, page: { items: T[]; total: number }): T[] {
  c.header('X-Total-Count', String(page.total));
  return page.items;
}
