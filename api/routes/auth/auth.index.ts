import { z } from 'zod';
import { createRouter } from '../../lib/create-app';
import { readJson } from '../../lib/validate';
import { requireUser } from '../../middlewares/auth';
import { CODE_LENGTH, requestLoginCode, toUserDto, verifyLoginCode } from '../../services/auth';
import { createMailer } from '../../services/mailer';
import { clientIp, RateLimitError } from '../../services/rate-limit';
import { revokeSession } from '../../services/sessions';
import type { Context } from 'hono';
import type { AppEnv } from '../../lib/types';

const name = (field: string) =>
  z
    .string({ error: `${field} must be text` })
    .trim()
    .max(100, `${field} must be at most 100 characters`)
    .nullish()
    .transform((v) => v ?? undefined);

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
    .max(254, 'email must be at most 254 characters')
    .pipe(z.email('Enter a valid email address, like name@example.org')),
  code: z
    .string({ error: `code must be the ${CODE_LENGTH}-digit code from the email, as text` })
    .trim()
    .regex(new RegExp(`^\\d{${CODE_LENGTH}}$`), `code must be exactly ${CODE_LENGTH} digits (0-9) from the email`)
    .optional(),
  first_name: name('first_name'),
  last_name: name('last_name'),
  /** The Turnstile widget's token, sent back after a 428 asked for the security check. */
  turnstile_token: z.string({ error: 'turnstile_token must be text' }).max(2048).nullish(),
});
const loginSchema = z.preprocess(passwordAsCode, loginFields);

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

export const authRouter = createRouter()
  .get('/auth', (c) => c.json(toUserDto(requireUser(c.var.user))))
  .post('/auth/login', async (c) => {
    const input = await readJson(c, loginSchema);
    const ctx = authCtx(c, input.turnstile_token);
    if (input.code === undefined) {
      return c.json(await withRetryAfter(c, () => requestLoginCode(ctx, input.email)));
    }
    const code = input.code;
    return c.json(await withRetryAfter(c, () => verifyLoginCode(ctx, { ...input, code })));
  })
  .post('/auth/logout', async (c) => {
    const user = requireUser(c.var.user);
    await revokeSession(c.var.db, user.sessionId, new Date());
    return c.json({ message: 'You are signed out' });
  });
