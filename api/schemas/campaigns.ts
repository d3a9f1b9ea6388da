import { z } from '@hono/zod-openapi';
import { CAMPAIGN_STATUSES } from '../../db/schema';
import { MAX_PAGE_SIZE } from '../../domain/limits';
import { SEARCH_MAX_CHARS } from '../../domain/search';
import { DEFAULT_PAGE_SIZE } from '../services/campaigns/read';

/** The public and staff lists of campaigns and appeals. */

export const CampaignListQuery = z.object({
  status: z
    .enum([...CAMPAIGN_STATUSES, 'all'])
    .optional()
    .openapi({ description: 'Staff only: draft/deleted/all widen the list to what the caller may manage' }),
  limit: z.coerce
    .number()
    .int()
    .min(1)
    .max(MAX_PAGE_SIZE)
    .optional()
    .openapi({ type: 'integer', example: DEFAULT_PAGE_SIZE }),
  offset: z.coerce.number().int().min(0).max(100_000).optional().openapi({ type: 'integer' }),
  /** 1-based page of `limit` items; an alternative to offset. */
  page: z.coerce
    .number()
    .int()
    .min(1)
    .max(10_000)
    .optional()
    .openapi({ type: 'integer', description: '1-based page of `limit` items' }),
  tiny: z
    .enum(['true', 'false'])
    .optional()
    .openapi({ description: 'true: only ids and titles of approved campaigns, for pickers' }),
  q: z.string().max(SEARCH_MAX_CHARS, `a search is at most ${SEARCH_MAX_CHARS} characters`).optional().openapi({
    description: "Words to find in titles and fundraisers' names (each a prefix, all of them; punctuation ignored)",
    example: 'clean water',
  }),
  mine: z.enum(['true', 'false']).optional().openapi({
    description:
      'Signed in: true lists only what the caller created (drafts and live items unless status says otherwise)',
  }),
});
