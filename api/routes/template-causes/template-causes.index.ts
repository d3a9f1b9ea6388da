import { z } from '@hono/zod-openapi';
import { createRouter } from '../../lib/create-app';
import { defineRoute, errorResponses, jsonContent } from '../../lib/openapi';
import { TemplateCauseSchema } from '../../schemas';
import { listTemplateCauses } from '../../services/campaigns/template-causes';

const listRoute = defineRoute({
  method: 'get',
  path: '/template-causes',
  tags: ['Campaigns'],
  summary: 'Causes a fundraiser starts an appeal from',
  responses: { 200: jsonContent(z.array(TemplateCauseSchema), 'Template causes'), ...errorResponses },
});

/** Starting points for a fundraiser's appeal; [[name]] in the story is filled in by the editor. */
export const templateCausesRouter = createRouter().openapi(listRoute, async (c) =>
  c.json(await listTemplateCauses(c.var.db), 200),
);
