import { z } from '@hono/zod-openapi';
import { DESCRIPTION_MAX_LENGTH, MAX_CAMPAIGN_TITLE, MAX_TEMPLATE_STORY } from '../../domain/limits';
import { isStockCover, STOCK_COVERS } from '../../domain/stock-covers';
import { HTML_TAG, tidyText } from './plain-text';

const words = (field: string, what: string, max: number, multiline = false) =>
  z
    .string({ error: `${field}: ${what}` })
    .transform((v) => tidyText(v, multiline))
    .refine((v) => v.length > 0, `${field}: ${what}`)
    // UTF-16 units, as an appeal's own limits and the editor count them: a cause always fits an appeal.
    .refine((v) => v.length <= max, `${field}: use at most ${max} characters`)
    .refine((v) => !HTML_TAG.test(v), `${field}: write plain text; HTML tags like <b> are not accepted`);

const fields = {
  title: words('title', 'enter a title', MAX_CAMPAIGN_TITLE),
  description: words('description', 'enter a description', DESCRIPTION_MAX_LENGTH),
  story: words('story', 'enter a story; [[name]] becomes the fundraiser’s full name', MAX_TEMPLATE_STORY, true),
  // Left out: unchanged on an update, none on a new cause; '' or null: none.
  campaign_id: z
    .string({ error: 'campaign_id: must be a campaign’s id, or null for none' })
    .trim()
    .max(60, 'campaign_id: is not a valid id')
    .nullish()
    .transform((v) => (v === undefined ? undefined : v || null))
    .openapi({ description: 'The campaign an appeal from this cause raises for; null leaves it to the fundraiser' }),
  // Left out: unchanged on an update, none on a new cause; '' or null: none.
  image: z
    .string({ error: 'image: must be one of the site’s cover images, or null for none' })
    .nullish()
    .transform((v) => (v === undefined ? undefined : v || null))
    .refine((v) => v == null || isStockCover(v), 'image: must be one of the site’s cover images, or null for none')
    .openapi({
      description: `The cover an appeal started from this cause begins with: one of ${STOCK_COVERS.join(', ')}; null for none`,
    }),
};

export const TemplateCauseCreateBody = z.object(fields).strict().openapi('TemplateCauseInput');

export const TemplateCauseUpdateBody = z
  .object({
    title: fields.title.optional(),
    description: fields.description.optional(),
    story: fields.story.optional(),
    campaign_id: fields.campaign_id,
    image: fields.image,
    retired: z
      .boolean({ error: 'retired: must be true or false' })
      .optional()
      .openapi({ description: 'true: no longer offered on /fund-raising (kept for the appeals that name it)' }),
  })
  .strict()
  .openapi('TemplateCauseUpdate');

export const TemplateCauseListQuery = z.object({
  retired: z
    .enum(['true', 'false'], { error: 'retired: must be true or false' })
    .optional()
    .openapi({ description: 'Admins: true also lists the causes no longer offered' }),
});

export type TemplateCauseCreate = z.infer<typeof TemplateCauseCreateBody>;
export type TemplateCauseUpdate = z.infer<typeof TemplateCauseUpdateBody>;
