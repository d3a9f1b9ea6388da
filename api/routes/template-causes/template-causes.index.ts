import { createRoute, z } from '@hono/zod-openapi';
import { asc } from 'drizzle-orm';
import { templateCauses } from '../../../db/schema';
import { createRouter } from '../../lib/create-app';
import { errorResponses, jsonContent } from '../../lib/openapi';

const TemplateCauseSchema = z
  .object({
    _id: z.string(),
    title: z.string(),
    description: z.string(),
    story: z.string().openapi({ description: '[[name]] is replaced by the fundraiser’s full name' }),
    image: z.string().nullable(),
  })
  .openapi('TemplateCause');

const listRoute = createRoute({
  method: 'get',
  path: '/template-causes',
  tags: ['Campaigns'],
  summary: 'Causes a fundraiser starts an appeal from',
  responses: { 200: jsonContent(z.array(TemplateCauseSchema), 'Template causes'), 500: errorResponses[500] },
});

/** Starting points for a fundraiser's appeal; [[name]] in the story is filled in by the editor. */
export const templateCausesRouter = createRouter().openapi(listRoute, async (c) => {
  const rows = await c.var.db
    .select()
    .from(templateCauses)
    .orderBy(asc(templateCauses.createdAt), asc(templateCauses.title))
    .limit(100);
  return c.json(
    rows.map((row) => ({ _id: row.id, title: row.title, description: row.description, story: row.story, image: row.image })),
    200,
  );
});
