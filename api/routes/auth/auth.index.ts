import { z } from '@hono/zod-openapi';
import type { Context } from 'hono';
import { EMAIL_INVALID, EMAIL_MAX_LENGTH, EMAIL_PATTERN } from '../../../domain';
import { createRouter } from '../../lib/create-app';
import { optionalPersonName } from '../../lib/fields';
import { bearerAuth, defineRoute, errorResponses, jsonBody, jsonContent } from '../../lib/openapi';
import { requireUser, signedIn } from '../../lib/policy';
import type { AppEnv } from '../../lib/types';
import { MessageSchema, UserSchema } from '../../schemas';
import { CODE_LENGTH, requestLoginCode, toUserDto, verifyLoginCode } from '../../services/auth';
import { createMailer } from '../../services/mailer';
import { clientIp, RateLimitError } from '../../services/rate-limit';
import { revokeSession } from '../../services/sessions';

/** The spec's call table names the emailed code `password`: accepted as an alias of `code`. */
const passwordAsCode = (body: unknown) => {
  if (!body || typeof body !== 'object' || Array.isArray(body)) return body;
  const { password, ...rest } = body as Record<string, unknown>;
  return rest.code === undefined && password !== undefined ? { ...rest, code: password } : rest;
};

const loginFields = z.object({
  email: z
    .string({ error: 'Enter your email address' })
    .trim()
    .toLowerCase()
    .max(EMAIL_MAX_LENGTH, `email must be at most ${EMAIL_MAX_LENGTH} characters`)
    .regex(EMAIL_PATTERN, EMAIL_INVALID),
  code: z
    .string({ error: `code must be the ${CODE_LENGTH}-digit code from the email, as text` })
    .trim()
    .regex(new RegExp(`^\\d{${CODE_LENGTH}}$`), `code must be exactly ${CODE_LENGTH} digits (0-9) from the email`)
    .optional()
    .openapi({ description: `The ${CODE_LENGTH}-digit code from the email; omit it to have a code sent. \`password\` is accepted as an alias.` }),
  first_name: optionalPersonName('first_name'),
  last_name: optionalPersonName('last_name'),
  /** The Turnstile widget's token, sent back after a 428 asked for the security check. */
  turnstile_token: z.string({ error: 'turnstile_token must be text' }).max(2048).nullish(),
});
const loginSchema = z.preprocess(passwordAsCode, loginFields);

/** Step one answers the same for known and unknown addresses: whether the address has an account is told only after the code is proven. */
const CodeSentSchema = z.object({ message: z.string() }).openapi('LoginCodeSent');
const SignedInSchema = z.object({ user: UserSchema, token: z.string(), new_user: z.boolean() }).openapi('SignedIn');
/** A right code for a new address sent without names: the code stays usable, the dialog asks for the names. */
const NamesRequiredSchema = z.object({ new_user: z.literal(true), names_required: z.literal(true), message: z.string() }).openapi('NamesRequired');

function authCtx(c: Context<AppEnv>, turnstileToken: string | null | undefined) {
  const { db, config } = c.var;
  return { db, config, mailer: createMailer(db, config), now: new Date(), ip: clientIp({ get: (h) => c.req.header(h) }), turnstileToken };
}

/** 429s carry Retry-After; app.onError keeps headers already set on the context. */
async function withRetryAfter<T>(c: Context<AppEnv>, work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (err) {
    if (err instanceof RateLimitError) c.header('Retry-After', String(err.retryAfterSeconds));
    throw err;
  }
}

const meRoute = defineRoute({
  method: 'get',
  path: '/auth',
  tags: ['Sign-in'],
  summary: 'The signed-in user',
  security: bearerAuth,
  middleware: [signedIn()],
  responses: { 200: jsonContent(UserSchema, 'The user this token belongs to'), ...errorResponses },
});

const loginRoute = defineRoute({
  method: 'post',
  path: '/auth/login',
  tags: ['Sign-in'],
  summary: 'Email a sign-in code (no code), or exchange a code for a session token',
  request: { body: jsonBody(loginSchema) },
  responses: {
    200: jsonContent(z.union([SignedInSchema, NamesRequiredSchema, CodeSentSchema]), 'A code was sent, the code was right and a session started, or a new address must give its names'),
    ...errorResponses,
  },
});

const logoutRoute = defineRoute({
  method: 'post',
  path: '/auth/logout',
  tags: ['Sign-in'],
  summary: 'End this session',
  security: bearerAuth,
  middleware: [signedIn()],
  responses: { 200: jsonContent(MessageSchema, 'Signed out'), ...errorResponses },
});

export const authRouter = createRouter()
  .openapi(meRoute, (c) => c.json(toUserDto(requireUser(c.var.user)), 200))
  .openapi(loginRoute, async (c) => {
    const input = c.req.valid('json');
    const ctx = authCtx(c, input.turnstile_token);
    if (input.code === undefined) {
      return c.json(await withRetryAfter(c, () => requestLoginCode(ctx, input.email)), 200);
    }
    const code = input.code;
    return c.json(await withRetryAfter(c, () => verifyLoginCode(ctx, { ...input, code })), 200);
  })
  .openapi(logoutRoute, async (c) => {
    const user = requireUser(c.var.user);
    await revokeSession(c.var.db, user.sessionId, new Date());
    return c.json({ message: 'You are signed out' }, 200);
  });
