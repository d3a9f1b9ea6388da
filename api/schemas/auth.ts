import { isStandInAddress } from '../../domain/email';
import { z } from '@hono/zod-openapi';
import { EMAIL_INVALID, EMAIL_MAX_LENGTH, EMAIL_PATTERN, LOGIN_CODE_LENGTH as CODE_LENGTH } from '../../domain';
import { optionalPersonName } from '../lib/fields';
import { UserSchema } from './index';

/** Signing in with an emailed code (/auth/login). */

/** The spec's call table names the emailed code `password`: accepted as an alias of `code`. */
export const passwordAsCode = (body: unknown) => {
  if (!body || typeof body !== 'object' || Array.isArray(body)) return body;
  const { password, ...rest } = body as Record<string, unknown>;
  return rest.code === undefined && password !== undefined ? { ...rest, code: password } : rest;
};

export const LoginFields = z.object({
  email: z
    .string({ error: 'Enter your email address' })
    .trim()
    .toLowerCase()
    .max(EMAIL_MAX_LENGTH, `email must be at most ${EMAIL_MAX_LENGTH} characters`)
    .regex(EMAIL_PATTERN, EMAIL_INVALID)
    .refine((email) => !isStandInAddress(email), EMAIL_INVALID),
  code: z
    .string({ error: `code must be the ${CODE_LENGTH}-digit code from the email, as text` })
    .trim()
    .regex(new RegExp(`^\\d{${CODE_LENGTH}}$`), `code must be exactly ${CODE_LENGTH} digits (0-9) from the email`)
    .optional()
    .openapi({
      description: `The ${CODE_LENGTH}-digit code from the email; omit it to have a code sent. \`password\` is accepted as an alias.`,
    }),
  first_name: optionalPersonName('first_name'),
  last_name: optionalPersonName('last_name'),
  /** The Turnstile widget's token, sent back after a 428 asked for the security check. */
  turnstile_token: z.string({ error: 'turnstile_token must be text' }).max(2048).nullish(),
});

export const LoginBody = z.preprocess(passwordAsCode, LoginFields);

/** Step one answers the same for known and unknown addresses: whether the address has an account is told only after the code is proven. */
export const CodeSentSchema = z.object({ message: z.string() }).openapi('LoginCodeSent');

export const SignedInSchema = z
  .object({ user: UserSchema, token: z.string(), new_user: z.boolean() })
  .openapi('SignedIn');

/** A right code for a new address sent without names: the code stays usable, the dialog asks for the names. */
export const NamesRequiredSchema = z
  .object({ new_user: z.literal(true), names_required: z.literal(true), message: z.string() })
  .openapi('NamesRequired');
