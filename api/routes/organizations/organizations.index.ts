import { createRouter } from '../../lib/create-app';
import { imageFormBodyLimit, withImage } from '../../lib/image-upload';
import { bearerAuth, createdResponses, IdParams, jsonBody, okResponses, routesOf } from '../../lib/openapi';
import { pageItems, pageResponses } from '../../lib/paging';
import { adminOnly, financeReaders, loadThenAuthorize, requireUser } from '../../lib/policy';
import { signedInContext } from '../../lib/service-context';
import { OrganizationSchema } from '../../schemas';
import { OrganizationCreateBody, OrganizationListQuery, OrganizationUpdateBody } from '../../schemas/organizations';
import { actorOf } from '../../services/audit/append';
import {
  checkOrganizationEdit,
  createOrganization,
  getOrganization,
  listOrganizations,
  updateOrganization,
} from '../../services/organizations/manage';

/** Organizations are staff data: donors get a 403 on every route here. */
const readers = () => financeReaders('Only admins, organization admins and finance users can see organizations');

/** Scope first, so an org_admin learns nothing about other organizations from validation errors. */
const scopedOrganization = loadThenAuthorize(getOrganization);

const organizations = routesOf({ tags: ['Organizations'], security: bearerAuth });

const listRoute = organizations.get('/organizations', {
  summary: 'Organizations the caller manages or, for finance users, reads (all, for admins)',
  middleware: [readers()],
  request: { query: OrganizationListQuery },
  responses: pageResponses(OrganizationSchema, 'Organizations by name'),
});

const createOrgRoute = organizations.post('/organizations', {
  summary: 'Create an organization (admins)',
  middleware: [imageFormBodyLimit, adminOnly()],
  request: { body: jsonBody(OrganizationCreateBody) },
  responses: createdResponses(OrganizationSchema, 'Created'),
});

const getOrgRoute = organizations.get('/organizations/{id}', {
  summary: 'One organization the caller manages or, for finance users, reads',
  middleware: [readers()],
  request: { params: IdParams },
  responses: okResponses(OrganizationSchema, 'The organization'),
});

const updateOrgRoute = organizations.put('/organizations/{id}', {
  summary:
    "Update an organization (its org_admins, or an admin; only admins change its admins; its finance users only the accounts journal's nominal codes)",
  middleware: [
    imageFormBodyLimit,
    financeReaders(
      "Only admins and organization admins can manage organizations, and finance users their accounts journal's codes",
    ),
    scopedOrganization.middleware,
  ],
  request: { params: IdParams, body: jsonBody(OrganizationUpdateBody) },
  responses: okResponses(OrganizationSchema, 'Updated'),
});

export const organizationsRouter = createRouter()
  .openapi(listRoute, async (c) =>
    c.json(pageItems(c, await listOrganizations(signedInContext(c), c.req.valid('query'))), 200),
  )
  .openapi(createOrgRoute, async (c) => {
    const input = c.req.valid('json');
    const created = await withImage(c, 'image', input.image, null, (image) =>
      createOrganization(c.var.db, { ...input, image }, actorOf(requireUser(c.var.user), c.var.requestId)),
    );
    return c.json(created, 201);
  })
  .openapi(getOrgRoute, async (c) => c.json(await getOrganization(signedInContext(c), c.req.valid('param').id), 200))
  .openapi(updateOrgRoute, async (c) => {
    const current = scopedOrganization.item(c);
    const input = c.req.valid('json');
    // Before the image is stored: a finance user's save of anything but the codes is refused.
    checkOrganizationEdit(requireUser(c.var.user), current._id, input);
    const updated = await withImage(c, 'image', input.image, current.image, (image) =>
      updateOrganization(signedInContext(c), current._id, { ...input, image }),
    );
    return c.json(updated, 200);
  });
