import { z } from 'zod';
import { EMAIL_INVALID, EMAIL_MAX_LENGTH, EMAIL_PATTERN, personNameProblem } from '../../domain';
import { nominalCodeOf, nominalCodeProblem } from '../../domain/finance';
import { normalizePhone, PHONE_INVALID } from '../../domain/phone';

/** Zod pieces shared by the dashboard's organization, donor and donation endpoints. */

export const MAX_LIST_LIMIT = 100;
export const DEFAULT_LIST_LIMIT = 50;

export const pagingQuery = (max = MAX_LIST_LIMIT) =>
  z.object({
    limit: z.coerce.number().int().min(1).max(max).default(Math.min(DEFAULT_LIST_LIMIT, max)),
    offset: z.coerce.number().int().min(0).max(1_000_000).default(0),
  });

/** Optional free text: trimmed, "" and null clear the field, omitted leaves it unchanged. */
export const optionalText = (max: number) =>
  z
    .string({ error: 'Must be text' })
    .trim()
    .max(max, `Use at most ${max} characters`)
    .nullable()
    .optional()
    .transform((v) => (v === '' ? null : v));

/**
 * A nominal (account) code for the accounts journal: domain/finance.ts's one rule; empty or null
 * clears it back to the default (stored as null).
 */
export const nominalCode = z
  .string({ error: 'Must be text: a nominal code like 4000, or empty for the default' })
  .nullable()
  .optional()
  .superRefine((v, ctx) => {
    const problem = v == null ? null : nominalCodeProblem(v);
    if (problem) ctx.addIssue({ code: 'custom', message: problem });
  })
  .transform((v) => (v === undefined ? undefined : nominalCodeOf(v)));

export const requiredText = (max: number, what: string) =>
  z
    .string({ error: `${what} is required` })
    .trim()
    .min(1, `${what} is required`)
    .max(max, `Use at most ${max} characters`);

/** A person's name (domain/names.ts): required, no markup. */
export const personName = (what: string) =>
  z
    .string({ error: `${what} is required` })
    .trim()
    .min(1, `${what} is required`)
    .superRefine((v, ctx) => {
      const problem = personNameProblem(v);
      if (problem) ctx.addIssue({ code: 'custom', message: problem });
    });

/** An optional person's name: "" and null mean not given. */
export const optionalPersonName = (what: string) =>
  z
    .string({ error: `${what} must be text` })
    .trim()
    .superRefine((v, ctx) => {
      const problem = personNameProblem(v);
      if (problem) ctx.addIssue({ code: 'custom', message: problem });
    })
    .nullish()
    .transform((v) => (v ? v : undefined));

export const emailText = z
  .string({ error: 'Email is required' })
  .trim()
  .toLowerCase()
  .max(EMAIL_MAX_LENGTH, `Use at most ${EMAIL_MAX_LENGTH} characters`)
  .regex(EMAIL_PATTERN, EMAIL_INVALID);

export const optionalEmail = z
  .union([z.literal(''), emailText])
  .nullable()
  .optional()
  .transform((v) => (v === '' ? null : v));

/**
 * An image field: a new image as a data URL / base64 (stored in R2 by the route), the Key of an
 * image already stored, or ""/null to remove it. Checked in full by image-upload.ts.
 */
export const imageInput = z
  .string({ error: 'Send an image as a data URL or the Key of a stored image' })
  .trim()
  .max(8 * 1024 * 1024, 'Images must be 5 MB or smaller')
  .nullable()
  .optional()
  .transform((v) => (v === '' ? null : v));

/**
 * Donor phones: a UK number (or + and a country code), stored as E.164; "" and null clear it
 * (domain/phone.ts, docs/decisions/009).
 */
export const donorPhone = z
  .string({ error: 'Must be text' })
  .max(30, PHONE_INVALID)
  .regex(/^[0-9()+\-.\s]*$/, PHONE_INVALID)
  .transform((v, ctx) => {
    if (v.trim() === '') return null;
    const phone = normalizePhone(v);
    if (phone === null) ctx.addIssue({ code: 'custom', message: PHONE_INVALID });
    return phone ?? z.NEVER;
  })
  .nullable()
  .optional();

/** Organization phones keep their formatting (UK numbers are written with spaces). */
export const organizationPhone = z
  .union([
    z.literal(''),
    z
      .string()
      .trim()
      .max(20, 'Use at most 20 characters')
      .regex(/^[0-9()+\-.\s]+$/, 'Use digits, spaces and + ( ) - only'),
  ])
  .nullable()
  .optional()
  .transform((v) => (v === '' ? null : v));

export const addressSchema = z.object({
  address: optionalText(200),
  city: optionalText(100),
  province: optionalText(100),
  postal_code: optionalText(20),
  country: optionalText(100),
});

/** A reference as the dashboard's selects hold it: an id, or `{label, value}` with the id in value. */
export const reference = (what: 'a donor' | 'a campaign' | 'an appeal' | 'a user') =>
  z
    .union([z.string(), z.object({ value: z.string() })], { error: `Choose ${what}` })
    .transform((v) => (typeof v === 'string' ? v : v.value).trim())
    .refine((v) => v.length > 0 && v.length <= 64, `Choose ${what}`);
