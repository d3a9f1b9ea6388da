import type { Context } from 'hono';
import type { Db } from '../../db/client';
import { mailContextOf } from '../services/mail/context';
import type { PaymentProvider } from '../services/payments/provider';
import { requireUser } from './policy';
import type { AppConfig, AppEnv, AuthUser } from './types';

/**
 * What a service may need from the request, under one set of names. Services take
 * `Pick<ServiceContext, ...>` of what they use (docs/decisions/044); route handlers build it with
 * serviceContext(c), never by hand.
 */
export type ServiceContext = {
  db: Db;
  config: AppConfig;
  /** The signed-in user, or null for a guest. */
  viewer: AuthUser | null;
  /** The request's clock: one instant for every write it makes. */
  now: Date;
  /** Stripe or demo payments, chosen once from the configuration. */
  payments: PaymentProvider;
  /** Where emails are recorded and sent; their links point at `origin`. */
  mail: { db: Db; config: AppConfig; origin: string };
  /** PUBLIC_ORIGIN, else the request's own origin: the start of every link we send. */
  origin: string;
  requestId: string | null;
  /** cf-connecting-ip, only behind Cloudflare. */
  ip: string | null;
  /** The R2 bucket of uploaded images (IMAGES), when bound. */
  bucket: R2Bucket | undefined;
};

/** A context whose viewer is signed in (the route has already refused guests). */
export type SignedInContext = Omit<ServiceContext, 'viewer'> & { viewer: AuthUser };

/** The database and the signed-in viewer: what a service that answers within the viewer's scope needs. */
export type ViewerContext = Pick<SignedInContext, 'db' | 'viewer'>;

/** A staff write that is audited: the viewer's scope, and the request id the audit row carries. */
export type AuditedWriteContext = Pick<SignedInContext, 'db' | 'viewer' | 'requestId'>;

/** The one place a route turns its request into a ServiceContext. */
export function serviceContext(c: Context<AppEnv>): ServiceContext {
  const mail = mailContextOf(c);
  return {
    db: c.var.db,
    config: c.var.config,
    viewer: c.var.user,
    now: new Date(),
    payments: c.var.payments,
    mail,
    origin: mail.origin,
    requestId: c.var.requestId,
    ip: c.req.header('cf-connecting-ip')?.trim().slice(0, 64) || null,
    bucket: c.env?.IMAGES,
  };
}

/** serviceContext(c) for a signed-in viewer; 401 for a guest. */
export function signedInContext(c: Context<AppEnv>): SignedInContext {
  const ctx = serviceContext(c);
  return { ...ctx, viewer: requireUser(ctx.viewer) };
}
