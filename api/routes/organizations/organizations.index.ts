import { z } from '@hono/zod-openapi';
import { AccountingYearEnd } from '../../schemas/gift-aid';
import { createMiddleware } from 'hono/factory';
import { CHARITY_REGULATOR_IDS, type CharityRegulator } from '../../../domain';
import { createRouter } from '../../lib/create-app';
import { organizationFilterShape } from '../../services/insight/list-filters';
import { addressSchema, imageInput, optionalEmail, optionalText, organizationPhone, pagingQuery, reference, requiredText } from '../../lib/fields';
import { imageFormBodyLimit, withImage } from '../../lib/image-upload';
import { bearerAuth, defineRoute, errorResponses, IdParams, jsonBody, jsonContent, totalCountHeader } from '../../lib/openapi';
import { adminOnly, financeReaders, requireUser, staffOnly } from '../../lib/policy';
import type { AppEnv } from '../../lib/types';
import { OrganizationSchema } from '../../schemas';
import { actorOf } from '../../services/audit/append';
import {
  createOrganization,
  getOrganization,
  listOrganizations,
  type OrganizationDto,
  updateOrganization,
} from '../../services/organizations';

const organizationFields = {
  name: requiredText(200, 'Name'),
  image: imageInput,
  email: optionalEmail,
  phone: organizationPhone,
  charity_number: optionalText(20),
  legal_name: optionalText(200),
  regulator: z.enum(CHARITY_REGULATOR_IDS as [CharityRegulator, ...CharityRegulator[]], { error: `regulator must be one of: ${CHARITY_REGULATOR_IDS.join(', ')}` }).optional(),
  // HMRC charity references are one or two letters and digits, e.g. XR12345 (Gift Aid claims).
  hmrc_reference: optionalText(12)
    .refine((v) => v == null || /^[A-Za-z]{1,2}[0-9]{1,7}$/.test(v), 'Use letters then digits, like XR12345')
    .transform((v) => (v == null ? v : v.toUpperCase())),
  accounting_year_end: AccountingYearEnd.optional(),
  address: addressSchema.partial().optional(),
  admins: z.array(reference('a user'), { error: 'admins must be a list of user ids' }).max(50, 'At most 50 admins').optional(),
  appeals_need_approval: z.boolean({ error: 'appeals_need_approval must be true or false' }).optional(),
};

const createBody = z.object(organizationFields);
const updateBody = z.object(organizationFields).partial();

const listQuery = pagingQuery().extend(organizationFilterShape);

/** Organizations are staff data: donors get a 403 on every route here. */
const staff = () => staffOnly('Only admins and organization admins can manage organizations');

/** Scope first, so an org_admin learns nothing about other organizations from validation errors. */
const scoped = new WeakMap<Request, OrganizationDto>();
const loadScoped = createMiddleware<AppEnv>(async (c, next) => {
  scoped.set(c.req.raw, await getOrganization(c.var.db, c.req.param('id') ?? '', requireUser(c.var.user)));
  await next();
});

const listRoute = defineRoute({
  method: 'get',
  path: '/organizations',
  tags: ['Organizations'],
  summary: 'Organizations the caller manages or, for finance users, reads (all, for admins)',
  security: bearerAuth,
  middleware: [financeReaders('Only admins, organization admins and finance users can see organizations')],
  request: { query: listQuery },
  responses: { 200: { ...jsonContent(z.array(OrganizationSchema), 'Organizations by name'), headers: totalCountHeader }, ...errorResponses },
});

const createOrgRoute = defineRoute({
  method: 'post',
  path: '/organizations',
  tags: ['Organizations'],
  summary: 'Create an organization (admins)',
  security: bearerAuth,
  middleware: [imageFormBodyLimit, adminOnly()],
  request: { body: jsonBody(createBody) },
  responses: { 201: jsonContent(OrganizationSchema, 'Created'), ...errorResponses },
});

const getOrgRoute = defineRoute({
  method: 'get',
  path: '/organizations/{id}',
  tags: ['Organizations'],
  summary: 'One organization the caller manages or, for finance users, reads',
  security: bearerAuth,
  middleware: [financeReaders('Only admins, organization admins and finance users can see organizations')],
  request: { params: IdParams },
  responses: { 200: jsonContent(OrganizationSchema, 'The organization'), ...errorResponses },
});

const updateOrgRoute = defineRoute({
  method: 'put',
  path: '/organizations/{id}',
  tags: ['Organizations'],
  summary: 'Update an organization (its org_admins, or an admin; only admins change its admins)',
  security: bearerAuth,
  middleware: [imageFormBodyLimit, staff(), loadScoped],
  request: { params: IdParams, body: jsonBody(updateBody) },
  responses: { 200: jsonContent(OrganizationSchema, 'Updated'), ...errorResponses },
});

export const organizationsRouter = createRouter()
  .openapi(listRoute, async (c) => {
    const { items, total } = await listOrganizations(c.var.db, requireUser(c.var.user), c.req.valid('query'));
    c.header('X-Total-Count', String(total));
    return c.json(items, 200);
  })
  .openapi(createOrgRoute, async (c) => {
    const input = c.req.valid('json');
    const created = await withImage(c, 'image', input.image, null, (image) => createOrganization(c.var.db, { ...input, image }, actorOf(requireUser(c.var.user), c.var.requestId)));
    return c.json(created, 201);
  })
  .openapi(getOrgRoute, async (c) => c.json(await getOrganization(c.var.db, c.req.valid('param').id, requireUser(c.var.user)), 200))
  .openapi(updateOrgRoute, async (c) => {
    const current = scoped.get(c.req.raw)!;
    const input = c.req.valid('json');
    const updated = await withImage(c, 'image', input.image, current.image, (image) =>
      updateOrganization(c.var.db, current._id, { ...input, image }, requireUser(c.var.user), c.var.requestId),
    );
    return c.json(updated, 200);
  });
