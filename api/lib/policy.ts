import { createMiddleware } from 'hono/factory';
import * as roles from '../../domain/roles';
import { forbidden, unauthorized } from './errors';
import type { AppEnv, AuthUser } from './types';

/**
 * Who may do what: the one authorization policy (issue 13). Deny by default: anonymous callers
 * read public items only; donors act on their own account and gifts; org_admins act inside the
 * organizations they are linked to (orgIds); admins everywhere. Routes call the middlewares below
 * before their input is validated (so a caller who may not act learns nothing from a 400), and
 * services call the predicates for per-item decisions.
 */

// The predicates live in domain/roles.ts, shared with the dashboard so screens offer what we allow.
export const isAdmin = (user: AuthUser | null | undefined): boolean => roles.isAdmin(user);

/** Admins and org_admins: the dashboard's staff. */
export const isStaff = (user: AuthUser | null | undefined): boolean => roles.isStaff(user);

/** An org_admin with at least one organization, or an admin. */
export const administersAny = (user: AuthUser): boolean => roles.administersAny(user);

/** org_admins manage only the organizations they are linked to; admins all; donors none. */
export const canManageOrganization = (user: AuthUser, organizationId: string | null): boolean => roles.administers(user, organizationId);

/** Admins; admins of the item's organization; the fundraiser who created an appeal (until deleted). */
export const canEditCampaign = (user: AuthUser | null, item: { organizationId: string | null; campaignId: string | null; createdBy: string | null; status: string }): boolean =>
  roles.canEditCampaign(user, { organizationId: item.organizationId, isAppeal: item.campaignId !== null, createdByViewer: !!user && item.createdBy === user.id, status: item.status });

/** The Contact Support inbox is read by admins; everyone else sees only what they sent. */
export const canReadSupportInbox = (user: AuthUser | null | undefined): boolean => roles.canReadSupportInbox(user);

/** Only admins approve, hide or delete campaigns and appeals (status), and change user types or organization admins. */
export const canSetCampaignStatus = (user: AuthUser): boolean => isAdmin(user);
export const canChangeUserType = (user: AuthUser): boolean => isAdmin(user);
export const canChangeOrganizationAdmins = (user: AuthUser): boolean => isAdmin(user);

/** A user may edit their own account; admins anyone's; org_admins may view their donors but not edit them. */
export const canEditUser = (user: AuthUser, targetId: string): boolean => user.id === targetId || roles.canEditOthersProfile(user);

/** Admins add donors anywhere; org_admins add donors to their own organizations. */
export const canAddDonors = (user: AuthUser): boolean => roles.canAddDonors(user);

export function requireUser(user: AuthUser | null): AuthUser {
  if (!user) throw unauthorized();
  return user;
}

export function requireAdmin(user: AuthUser | null): AuthUser {
  const signedIn = requireUser(user);
  if (!isAdmin(signedIn)) throw forbidden();
  return signedIn;
}

export function requireStaff(user: AuthUser | null, message?: string): AuthUser {
  const signedIn = requireUser(user);
  if (!isStaff(signedIn)) throw forbidden(message);
  return signedIn;
}

/** Route middleware: 401 unless signed in. */
export const signedIn = () =>
  createMiddleware<AppEnv>(async (c, next) => {
    requireUser(c.var.user);
    await next();
  });

/** Route middleware: 401 unless signed in, 403 unless an admin or org_admin. */
export const staffOnly = (message?: string) =>
  createMiddleware<AppEnv>(async (c, next) => {
    requireStaff(c.var.user, message);
    await next();
  });

/** Route middleware: 401 unless signed in, 403 unless an admin. */
export const adminOnly = () =>
  createMiddleware<AppEnv>(async (c, next) => {
    requireAdmin(c.var.user);
    await next();
  });
