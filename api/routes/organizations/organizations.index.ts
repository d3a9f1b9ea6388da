import { z } from 'zod';
import { createRouter } from '../../lib/create-app';
import { forbidden } from '../../lib/errors';
import type { AuthUser } from '../../lib/types';
import { readJson, readQuery } from '../../lib/validate';
import { imageFormBodyLimit, withImage } from './image-upload';
import { requireAdmin, requireUser } from '../../middlewares/auth';
import { createOrganization, getOrganization, listOrganizations, updateOrganization } from '../../services/organizations';
import { addressSchema, optionalEmail, imageInput, optionalText, organizationPhone, pagingQuery, reference, requiredText } from './fields';

const organizationFields = {
  name: requiredText(200, 'Name'),
  image: imageInput,
  email: optionalEmail,
  phone: organizationPhone,
  charity_number: optionalText(20),
  address: addressSchema.partial().optional(),
  admins: z.array(reference('a user'), { error: 'admins must be a list of user ids' }).max(50, 'At most 50 admins').optional(),
  appeals_need_approval: z.boolean({ error: 'appeals_need_approval must be true or false' }).optional(),
};

const createBody = z.object(organizationFields);
const updateBody = z.object(organizationFields).partial();

const listQuery = pagingQuery().extend({ search: z.string().trim().max(100).optional() });

/** Organizations are staff data: donors get a 403 on every route here. */
function requireStaff(user: AuthUser | null): AuthUser {
  const signedIn = requireUser(user);
  if (signedIn.type === 'donor') throw forbidden('Only admins and organization admins can manage organizations');
  return signedIn;
}

export const organizationsRouter = createRouter()
  .get('/organizations', async (c) => {
    const viewer = requireStaff(c.var.user);
    const query = readQuery(c, listQuery);
    const { items, total } = await listOrganizations(c.var.db, viewer, query);
    c.header('X-Total-Count', String(total));
    return c.json(items);
  })
  .post('/organizations', imageFormBodyLimit, async (c) => {
    requireAdmin(c.var.user);
    const input = await readJson(c, createBody);
    const created = await withImage(c, 'image', input.image, null, (image) => createOrganization(c.var.db, { ...input, image }));
    return c.json(created, 201);
  })
  .get('/organizations/:id', async (c) => {
    const viewer = requireStaff(c.var.user);
    return c.json(await getOrganization(c.var.db, c.req.param('id'), viewer));
  })
  .put('/organizations/:id', imageFormBodyLimit, async (c) => {
    const viewer = requireStaff(c.var.user);
    // Scope first, so an org_admin learns nothing about other organizations from validation errors.
    const current = await getOrganization(c.var.db, c.req.param('id'), viewer);
    const input = await readJson(c, updateBody);
    const updated = await withImage(c, 'image', input.image, current.image, (image) =>
      updateOrganization(c.var.db, current._id, { ...input, image }, viewer),
    );
    return c.json(updated);
  });
