import { createRouter } from '../../lib/create-app';
import { imageFormBodyLimit, withImage } from '../../lib/image-upload';
import { bearerAuth, createdResponses, IdParams, jsonBody, okResponses, routesOf } from '../../lib/openapi';
import { pageItems, pageResponses } from '../../lib/paging';
import { financeReaders, loadThenAuthorize, signedIn, staffOnly } from '../../lib/policy';
import { signedInContext } from '../../lib/service-context';
import { DonorSchema } from '../../schemas';
import { DonorCreateBody, DonorListQuery, DonorUpdateBody } from '../../schemas/users';
import { createUser, getUser, listUsers, updateUser } from '../../services/users/manage';

/** Visibility first: a caller who may not see the user gets 404 whatever the body says. */
const visibleUser = loadThenAuthorize(getUser);

const donors = routesOf({ tags: ['Donors'], security: bearerAuth });

const listRoute = donors.get('/users', {
  summary: 'Donors and users the caller may see (staff)',
  middleware: [financeReaders('Only admins, organization admins and finance users can list donors')],
  request: { query: DonorListQuery },
  responses: pageResponses(DonorSchema, 'Users by name'),
});

const createUserRoute = donors.post('/users', {
  summary: 'Add a donor (admins: any details; org admins: name and email, for their organization)',
  middleware: [imageFormBodyLimit, staffOnly('Only admins and organization admins can add donors')],
  request: { body: jsonBody(DonorCreateBody) },
  responses: createdResponses(DonorSchema, 'Created'),
});

const getUserRoute = donors.get('/users/{id}', {
  summary: 'One user the caller may see (themself; their organizations’ donors; anyone, for admins)',
  middleware: [signedIn()],
  request: { params: IdParams },
  responses: okResponses(DonorSchema, 'The user'),
});

const updateUserRoute = donors.put('/users/{id}', {
  summary: 'Update a user (themself, or an admin)',
  middleware: [imageFormBodyLimit, signedIn(), visibleUser.middleware],
  request: { params: IdParams, body: jsonBody(DonorUpdateBody) },
  responses: okResponses(DonorSchema, 'Updated'),
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
