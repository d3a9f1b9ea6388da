import { createMiddleware } from 'hono/factory';
import type { AppEnv } from '../lib/types';
import { resolveSessionUser } from '../services/auth/sessions';

/**
 * Resolves `Authorization: Bearer <token>` to c.var.user (or null). Tokens are only ever read from
 * this header, never from a URL or a cookie (ASVS V7).
 */
export function authMiddleware() {
  return createMiddleware<AppEnv>(async (c, next) => {
    const header = c.req.header('authorization') ?? '';
    const match = /^Bearer\s+([A-Za-z0-9_-]{20,200})$/.exec(header.trim());
    c.set('user', match ? await resolveSessionUser(c.get('db'), match[1], new Date()) : null);
    await next();
  });
}
