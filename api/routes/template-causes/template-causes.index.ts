import { z } from '@hono/zod-openapi';
import { createMiddleware } from 'hono/factory';
import { createRouter } from '../../lib/create-app';
import { bearerAuth, createdResponses, IdParams, jsonBody, okResponses, routesOf } from '../../lib/openapi';
import { adminOnly, requireAdmin } from '../../lib/policy';
import type { AppEnv } from '../../lib/types';
import { signedInContext } from '../../lib/service-context';
import { TemplateCauseSchema } from '../../schemas';
import {
  TemplateCauseCreateBody,
  TemplateCauseListQuery,
  TemplateCauseUpdateBody,
} from '../../schemas/template-causes';
import {
  createTemplateCause,
  getTemplateCause,
  listTemplateCauses,
  updateTemplateCause,
} from '../../services/campaigns/template-causes';

const templateCauses = routesOf({ tags: ['Campaigns'] });
const managed = routesOf({ tags: ['Campaigns'], security: bearerAuth });

/** `retired` is the admins' list: authorized before the query is read, so a guest learns nothing from its errors. */
const adminsForRetired = createMiddleware<AppEnv>(async (c, next) => {
  if (c.req.query('retired') !== undefined) requireAdmin(c.var.user);
  await next();
});

const listRoute = templateCauses.get('/template-causes', {
  summary: 'Causes a fundraiser starts an appeal from (admins: retired=true also lists the latest retired ones)',
  middleware: [adminsForRetired],
  request: { query: TemplateCauseListQuery },
  responses: okResponses(z.array(TemplateCauseSchema), 'Template causes, oldest first'),
});

const createRoute = managed.post('/template-causes', {
  summary: 'Offer a new template cause on /fund-raising (admins)',
  middleware: [adminOnly()],
  request: { body: jsonBody(TemplateCauseCreateBody) },
  responses: createdResponses(TemplateCauseSchema, 'Created'),
});

const getRoute = managed.get('/template-causes/{id}', {
  summary: 'One template cause, offered or retired, with the appeals started from it (admins)',
  middleware: [adminOnly()],
  request: { params: IdParams },
  responses: okResponses(TemplateCauseSchema, 'The cause'),
});

const updateRoute = managed.put('/template-causes/{id}', {
  summary: 'Change a template cause, or stop or start offering it (admins)',
  middleware: [adminOnly()],
  request: { params: IdParams, body: jsonBody(TemplateCauseUpdateBody) },
  responses: okResponses(TemplateCauseSchema, 'The cause after the change'),
});

/** Starting points for a fundraiser's appeal, and the admins' screen that keeps them (decision 074). */
export const templateCausesRouter = createRouter()
  .openapi(listRoute, async (c) =>
    c.json(await listTemplateCauses(c.var.db, { withRetired: c.req.valid('query').retired === 'true' }), 200),
  )
  .openapi(getRoute, async (c) => c.json(await getTemplateCause(c.var.db, c.req.valid('param').id), 200))
  .openapi(createRoute, async (c) => c.json(await createTemplateCause(signedInContext(c), c.req.valid('json')), 201))
  .openapi(updateRoute, async (c) =>
    c.json(await updateTemplateCause(signedInContext(c), c.req.valid('param').id, c.req.valid('json')), 200),
  );
