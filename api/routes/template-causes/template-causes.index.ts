import { z } from '@hono/zod-openapi';
import { asc } from 'drizzle-orm';
import { templateCauses } from '../../../db/schema';
import { createRouter } from '../../lib/create-app';
import { defineRoute, errorResponses, jsonContent } from '../../lib/openapi';
import { TemplateCauseSchema } from '../../schemas';

const listRoute = defineRoute({
  method: 'get',
  path: '/template-causes',
  tags: ['Campaigns'],
  summary: 'Causes a fundraiser starts an appeal from',
  responses: { 200: jsonContent(z.array(TemplateCauseSchema), 'Template causes'), ...errorResponses },
});

/** Starting points for a fundraiser's appeal; [[name]] in the story is filled in by the editor. */
export const templateCausesRouter = createRouter().openapi(listRoute, async (c) => {
  const rows = await c.var.db
    .select()
    .from(templateCauses)
    .orderBy(asc(templateCauses.createdAt), asc(templateCauses.title))
    .limit(100);
  return c.json(
    rows.map((row) => ({
      _id: row.id,
      title: row.title,
      description: row.description,
      story: row.story,
      image: row.image,
    })),
    200,
  );
});
