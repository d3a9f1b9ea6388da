import { createRouter } from '../../lib/create-app';
import { imageFormBodyLimit, withImage } from '../../lib/image-upload';
import { bearerAuth, defineRoute, errorResponses, IdParams, jsonBody, jsonContent } from '../../lib/openapi';
import { pageItems, pageResponses } from '../../lib/paging';
import { financeReaders, loadThenAuthorize, signedIn, staffOnly } from '../../lib/policy';
import { signedInContext } from '../../lib/service-context';
import { DonorSchema } from '../../schemas';
import { DonorCreateBody, DonorListQuery, DonorUpdateBody } from '../../schemas/users';
import { createUser, getUser, listUsers, updateUser } from '../../services/users/manage';

/** Visibility first: a caller who may not see the user gets 404 whatever the body says. */
const visibleUser = loadThenAuthorize(getUser);

const listRoute = defineRoute({
  method: 'get',
  path: '/users',
  tags: ['Donors'],
  summary: 'Donors and users the caller may see (staff)',
  security: bearerAuth,
  middleware: [financeReaders('Only admins, organization admins and finance users can list donors')],
  request: { query: DonorListQuery },
  responses: pageResponses(DonorSchema, 'Users by name'),
});

const createUserRoute = defineRoute({
  method: 'post',
  path: '/users',
  tags: ['Donors'],
  summary: 'Add a donor (admins: any details; org admins: name and email, for their organization)',
  security: bearerAuth,
  middleware: [imageFormBodyLimit, staffOnly('Only admins and organization admins can add donors')],
  request: { body: jsonBody(DonorCreateBody) },
  responses: { 201: jsonContent(DonorSchema, 'Created'), ...errorResponses },
});

const getUserRoute = defineRoute({
  method: 'get',
  path: '/users/{id}',
  tags: ['Donors'],
  summary: 'One user the caller may see (themself; their organizations’ donors; anyone, for admins)',
  security: bearerAuth,
  middleware: [signedIn()],
  request: { params: IdParams },
  responses: { 200: jsonContent(DonorSchema, 'The user'), ...errorResponses },
});

const updateUserRoute = defineRoute({
  method: 'put',
  path: '/users/{id}',
  tags: ['Donors'],
  summary: 'Update a user (themself, or an admin)',
  security: bearerAuth,
  middleware: [imageFormBodyLimit, signedIn(), visibleUser.middleware],
  request: { params: IdParams, body: jsonBody(DonorUpdateBody) },
  responses: { 200: jsonContent(DonorSchema, 'Updated'), ...errorResponses },
});

export const usersRouter = createRouter()
  .openapi(listRoute, async (c) => c.json(pageItems(c, await listUsers(signedInContext(c), c.req.valid('query'))), 200))
  .openapi(createUserRoute, async (c) => {
    const input = c.req.valid('json');
    const created = await withImage(c, 'image', input.image, null, (image) =>
      createUser(signedInContext(c), { ...input, image }),
    );
    return c.json(created, 201);
  })
  .openapi(getUserRoute, async (c) => c.json(await getUser(signedInContext(c), c.req.valid('param').id), 200))
  .openapi(updateUserRoute, async (c) => {
    const current = visibleUser.item(c);
    const input = c.req.valid('json');
    const updated = await withImage(c, 'image', input.image, current.image, (image) =>
      updateUser(signedInContext(c), current._id, { ...input, image }),
    );
    return c.json(updated, 200);
  });
