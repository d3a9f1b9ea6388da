import { z } from '@hono/zod-openapi';
import { createRouter } from '../../lib/create-app';
import { okResponses, routesOf } from '../../lib/openapi';
import { TemplateCauseSchema } from '../../schemas';
import { listTemplateCauses } from '../../services/campaigns/template-causes';

const templateCauses = routesOf({ tags: ['Campaigns'] });

const listRoute = templateCauses.get('/template-causes', {
  summary: 'Causes a fundraiser starts an appeal from',
  responses: okResponses(z.array(TemplateCauseSchema), 'Template causes'),
});

/** Starting points for a fundraiser's appeal; [[name]] in the story is filled in by the editor. */
export const templateCausesRouter = createRouter().openapi(listRoute, async (c) =>
  c.json(await listTemplateCauses(c.var.db), 200),
);
