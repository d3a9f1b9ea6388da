import { z } from '@hono/zod-openapi';
import type { Context } from 'hono';
import { createRouter } from '../../lib/create-app';
import { bearerAuth, jsonBody, okResponses, routesOf } from '../../lib/openapi';
import { requireUser, signedIn } from '../../lib/policy';
import type { AppEnv } from '../../lib/types';
import { MessageSchema, UserSchema } from '../../schemas';
import { CodeSentSchema, LoginBody, NamesRequiredSchema, SignedInSchema } from '../../schemas/auth';
import { requestLoginCode, toUserDto, verifyLoginCode } from '../../services/auth/login-codes';
import { createMailer } from '../../services/mail/mailer';
import { clientIp, RateLimitError } from '../../services/abuse/rate-limit';
import { revokeSession } from '../../services/auth/sessions';

function authCtx(c: Context<AppEnv>, turnstileToken: string | null | undefined) {
  const { db, config } = c.var;
  return {
    db,
    config,
    mailer: createMailer(db, config),
    now: new Date(),
    ip: clientIp({ get: (h) => c.req.header(h) }),
    turnstileToken,
  };
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

const account = routesOf({
  tags: ['Sign-in'],
  security: bearerAuth,
  middleware: [signedIn()],
});

const signIn = routesOf({ tags: ['Sign-in'] });

const meRoute = account.get('/auth', {
  summary: 'The signed-in user',
  responses: okResponses(UserSchema, 'The user this token belongs to'),
});

const loginRoute = signIn.post('/auth/login', {
  summary: 'Email a sign-in code (no code), or exchange a code for a session token',
  request: { body: jsonBody(LoginBody) },
  responses: okResponses(
    z.union([SignedInSchema, NamesRequiredSchema, CodeSentSchema]),
    'A code was sent, the code was right and a session started, or a new address must give its names',
  ),
});

const logoutRoute = account.post('/auth/logout', {
  summary: 'End this session',
  responses: okResponses(MessageSchema, 'Signed out'),
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
