import { z } from '@hono/zod-openapi';

/** Stored images served from R2 (/images/{key}). */
export const ImageKeyParams = z.object({
  key: z.string().openapi({ param: { name: 'key', in: 'path' }, example: 'campaigns/2026/…/photo.png' }),
});
