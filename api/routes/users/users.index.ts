import { z } from 'zod';
import { USER_TYPES } from '../../../db/schema';
import { createRouter } from '../../lib/create-app';
import { forbidden } from '../../lib/errors';
import { readJson, readQuery } from '../../lib/validate';
import { requireAdmin, requireUser } from '../../middlewares/auth';
import { createUser, getUser, listUsers, updateUser } from '../../services/users';
import { addressSchema, donorPhone, emailText, optionalImage, pagingQuery, requiredText } from '../organizations/fields';

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
  image: optionalImage,
  address: addressSchema.partial().optional(),
  type: z.enum(USER_TYPES, { error: `type must be one of: ${USER_TYPES.join(', ')}` }).optional(),
};

const createBody = z.preprocess(flattenName, z.object({ ...donorFields, email: emailText }));
const updateBody = z.preprocess(
  flattenName,
  z.object(donorFields).partial().extend({ email: z.string().trim().max(254).optional() }),
);

const listQuery = pagingQuery.extend({
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
  .post('/users', async (c) => {
    requireAdmin(c.var.user);
    const input = await readJson(c, createBody);
    return c.json(await createUser(c.var.db, input), 201);
  })
  .get('/users/:id', async (c) => {
    const viewer = requireUser(c.var.user);
    return c.json(await getUser(c.var.db, c.req.param('id'), viewer));
  })
  .put('/users/:id', async (c) => {
    const viewer = requireUser(c.var.user);
    // Visibility first: a caller who may not see the user gets 404 whatever the body says.
    await getUser(c.var.db, c.req.param('id'), viewer);
    const input = await readJson(c, updateBody);
    return c.json(await updateUser(c.var.db, c.req.param('id'), input, viewer));
  });
