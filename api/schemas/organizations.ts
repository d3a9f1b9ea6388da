import { z } from '@hono/zod-openapi';
import { CHARITY_REGULATOR_IDS, type CharityRegulator } from '../../domain';
import {
  addressSchema,
  imageInput,
  nominalCode,
  optionalEmail,
  optionalText,
  organizationPhone,
  pagingQuery,
  reference,
  requiredText,
} from '../lib/fields';
import { organizationFilterShape } from '../services/reports/list-filters';
import { AccountingYearEnd } from './gift-aid';

/** Organizations (/organizations): create, update and the paged list. */

export const organizationFields = {
  name: requiredText(200, 'Name'),
  image: imageInput,
  email: optionalEmail,
  phone: organizationPhone,
  charity_number: optionalText(20),
  legal_name: optionalText(200),
  regulator: z
    .enum(CHARITY_REGULATOR_IDS as [CharityRegulator, ...CharityRegulator[]], {
      error: `regulator must be one of: ${CHARITY_REGULATOR_IDS.join(', ')}`,
    })
    .optional(),
  // HMRC charity references are one or two letters and digits, e.g. XR12345 (Gift Aid claims).
  hmrc_reference: optionalText(12)
    .refine((v) => v == null || /^[A-Za-z]{1,2}[0-9]{1,7}$/.test(v), 'Use letters then digits, like XR12345')
    .transform((v) => (v == null ? v : v.toUpperCase())),
  accounting_year_end: AccountingYearEnd.optional(),
  address: addressSchema.partial().optional(),
  admins: z
    .array(reference('a user'), { error: 'admins must be a list of user ids' })
    .max(50, 'At most 50 admins')
    .optional(),
  appeals_need_approval: z.boolean({ error: 'appeals_need_approval must be true or false' }).optional(),
  // The accounts journal's nominal codes (docs/decisions/035); null or '' uses the default.
  income_code: nominalCode,
  fee_code: nominalCode,
  clearing_code: nominalCode,
  bank_code: nominalCode,
};

export const OrganizationCreateBody = z.object(organizationFields);

export const OrganizationUpdateBody = z.object(organizationFields).partial();

export const OrganizationListQuery = pagingQuery().extend(organizationFilterShape);
