import { z } from 'zod';
import { USER_TYPES } from '../../../db/schema';
import { createRouter } from '../../lib/create-app';
import { forbidden } from '../../lib/errors';
import { readJson, readQuery } from '../../lib/validate';
import { imageFormBodyLimit, withImage } from '../organizations/image-upload';
import { requireAdmin, requireUser } from '../../middlewares/auth';
import { createUser, getUser, listUsers, updateUser } from '../../services/users';
import { addressSchema, donorPhone, emailText, imageInput, pagingQuery, requiredText } from '../organizations/fields';

/** Accepts the response shape back (`name: {first_name, last_name}`) as well as flat name fields. */
const flattenName = (body: unknown) => {
  if (!body || typeof body !== 'object' || Array.isArray(body)) return body;
  const { name, ...rest } = body as Record<string, unknown>;
  if (!name || typeof name !== 'object') return body;
  return { ...(name as Record<string, unknown>), ...rest };
};

const donorFields = {
  first_name: requiredText(100, 'First name'),
  last_name: requiredText(100, 'Last name'),
  phone: donorPhone,
  image: imageInput,
  address: addressSchema.partial().optional(),
  type: z.enum(USER_TYPES, { error: `type must be one of: ${USER_TYPES.join(', ')}` }).optional(),
};

const createBody = z.preprocess(flattenName, z.object({ ...donorFields, email: emailText }));
const updateBody = z.preprocess(
  flattenName,
  z.object(donorFields).partial().extend({ email: z.string().trim().max(254).optional() }),
);

/** Higher than other lists: the donation form loads donors as select options in one call. */
const MAX_DONOR_LIST_LIMIT = 1000;

const listQuery = pagingQuery(MAX_DONOR_LIST_LIMIT).extend({
  search: z.string().trim().max(100).optional(),
  type: z.enum(USER_TYPES, { error: `type must be one of: ${USER_TYPES.join(', ')}` }).optional(),
});

export const usersRouter = createRouter()
  .get('/users', async (c) => {
    const viewer = requireUser(c.var.user);
    if (viewer.type === 'donor') throw forbidden('Only admins and organization admins can list donors');
    const query = readQuery(c, listQuery);
    const { items, total } = await listUsers(c.var.db, viewer, query);
    c.header('X-Total-Count', String(total));
    return c.json(items);
  })
  .post('/users', imageFormBodyLimit, async (c) => {
    requireAdmin(c.var.user);
    const input = await readJson(c, createBody);
    const created = await withImage(c, 'image', input.image, null, (image) => createUser(c.var.db, { ...input, image }));
    return c.json(created, 201);
  })
  .get('/users/:id', async (c) => {
    const viewer = requireUser(c.var.user);
    return c.json(await getUser(c.var.db, c.req.param('id'), viewer));
  })
  .put('/users/:id', imageFormBodyLimit, async (c) => {
    const viewer = requireUser(c.var.user);
    // Visibility first: a caller who may not see the user gets 404 whatever the body says.
    const current = await getUser(c.var.db, c.req.param('id'), viewer);
    const input = await readJson(c, updateBody);
    const updated = await withImage(c, 'image', input.image, current.image, (image) =>
      updateUser(c.var.db, current._id, { ...input, image }, viewer),
    );
    return c.json(updated);
  });
