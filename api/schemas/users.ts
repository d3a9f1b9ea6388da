import { z } from '@hono/zod-openapi';
import { USER_TYPES } from '../../db/schema';
import { addressSchema, donorPhone, emailText, imageInput, pagingQuery, personName } from '../lib/fields';
import { donorFilterShape } from '../services/insight/list-filters';

/** Donors and staff accounts (/users): create, update and the paged list. */

/** Accepts the response shape back (`name: {first_name, last_name}`) as well as flat name fields. */
export const flattenName = (body: unknown) => {
  if (!body || typeof body !== 'object' || Array.isArray(body)) return body;
  const { name, ...rest } = body as Record<string, unknown>;
  if (!name || typeof name !== 'object') return body;
  return { ...(name as Record<string, unknown>), ...rest };
};

export const donorFields = {
  first_name: personName('First name'),
  last_name: personName('Last name'),
  phone: donorPhone,
  image: imageInput,
  address: addressSchema.partial().optional(),
  type: z.enum(USER_TYPES, { error: `type must be one of: ${USER_TYPES.join(', ')}` }).optional(),
};

export const DonorCreateBody = z.preprocess(
  flattenName,
  z.object({
    ...donorFields,
    email: emailText,
    organization_id: z
      .string()
      .trim()
      .max(64)
      .optional()
      .openapi({ description: 'The organization the donor is added to (org admins: one of theirs; may be left out when they have one)' }),
  }),
);

export const DonorUpdateBody = z.preprocess(
  flattenName,
  z.object(donorFields).partial().extend({ email: z.string().trim().max(254).optional() }),
);

/** Higher than other lists: the donation form loads donors as select options in one call. */
export const MAX_DONOR_LIST_LIMIT = 1000;

export const DonorListQuery = pagingQuery(MAX_DONOR_LIST_LIMIT).extend(donorFilterShape);
