import type { Context } from 'hono';
import { createMiddleware } from 'hono/factory';
import type { Db } from '../../db/client';
import * as roles from '../../domain/roles';
import { forbidden, unauthorized } from './errors';
import { readsMoney } from '../../domain/roles';
import type { UserType } from '../../domain/statuses';
import type { AppEnv, AuthUser } from './types';

/**
 * Who may do what: the one authorization policy. Deny by default: anonymous callers
 * read public items only; donors act on their own account and gifts; org_admins act inside the
 * organizations they are linked to (orgIds); admins everywhere. Routes call the middlewares below
 * before their input is validated (so a caller who may not act learns nothing from a 400), and
 * services call the predicates for per-item decisions.
 */

// The predicates live in domain/roles.ts, shared with the dashboard so screens offer what we allow.
export const isAdmin = (user: AuthUser | null | undefined): boolean => roles.isAdmin(user);

/** A stored account (not a signed-in caller) whose type is admin. */
export const isAdminAccount = (account: { type: UserType }): boolean => roles.isAdminType(account);

/** Organization admins (whatever organizations they are linked to). */
export const isOrgAdmin = (user: AuthUser | null | undefined): boolean => roles.isOrgAdmin(user);

/** Donors: act on their own account and gifts only. */
export const isDonor = (user: AuthUser | null | undefined): boolean => roles.isDonorType(user);

/** A stored account (or caller) whose type is donor / finance. */
export const isDonorAccount = (account: { type: UserType }): boolean => roles.isDonorType(account);
export const isFinanceUser = (user: { type: UserType } | null | undefined): boolean => roles.isFinanceType(user);

/** Admins and org_admins: the dashboard's staff. */
export const isStaff = (user: AuthUser | null | undefined): boolean => roles.isStaff(user);

/**
 * Admins, org_admins and finance users: the money screens (donations, refunds, Gift Aid, exports,
 * reports, the audit log). Finance never edits campaigns, appeals, organizations or users, but for
 * the accounts journal's nominal codes of its organizations (setsNominalCodes).
 */
export const readsFinance = (user: AuthUser | null | undefined): boolean => readsMoney(user);

/**
 * The organizations a money reader acts in: admins all; org_admins and finance users the
 * organizations they are linked to (organization_admins). A finance user with no link sees
 * nothing (deny by default): to see every organization, link them to each or make them an admin.
 */
export function orgScope(user: AuthUser): 'all' | string[] {
  if (user.type === 'admin') return 'all';
  if (user.type === 'org_admin' || user.type === 'finance') return user.orgIds;
  return [];
}

/** Whether a money reader may act on a record of this organization. */
export function inOrgScope(user: AuthUser, organizationId: string | null): boolean {
  const scope = orgScope(user);
  return scope === 'all' || (organizationId !== null && scope.includes(organizationId));
}

/**
 * Who may have a gift's receipt emailed again: its donor, and the money readers of its organization
 * (the staff who see the gift's page). Everyone else is told the gift does not exist.
 */
export const canResendReceipt = (user: AuthUser, gift: { donorId: string; organizationId: string | null }) =>
  gift.donorId === user.id || (readsFinance(user) && inOrgScope(user, gift.organizationId));

/** An org_admin with at least one organization, or an admin. */
export const administersAny = (user: AuthUser): boolean => roles.administersAny(user);

/** org_admins manage only the organizations they are linked to; admins all; donors none. */
export const canManageOrganization = (user: AuthUser | null, organizationId: string | null): boolean =>
  roles.administers(user, organizationId);

/** The accounts journal's nominal codes of an organization and its campaigns: its admins, its finance users, admins. */
export const setsNominalCodes = (user: AuthUser | null, organizationId: string | null): boolean =>
  roles.setsNominalCodes(user, organizationId);

/** Admins; admins of the item's organization; the fundraiser who created an appeal (until deleted). */
export const canEditCampaign = (
  user: AuthUser | null,
  item: { organizationId: string | null; campaignId: string | null; createdBy: string | null; status: string },
): boolean =>
  roles.canEditCampaign(user, {
    organizationId: item.organizationId,
    isAppeal: item.campaignId !== null,
    createdByViewer: !!user && item.createdBy === user.id,
    status: item.status,
  });

/** The Contact Support inbox is read by admins; everyone else sees only what they sent. */
export const canReadSupportInbox = (user: AuthUser | null | undefined): boolean => roles.canReadSupportInbox(user);

/**
 * Approving, hiding or deleting a campaign or appeal (its status): admins, and the admins of the
 * organization it belongs to (an appeal belongs to its campaign's). Never an org_admin of another
 * organization, even for an appeal they wrote themselves.
 */
export const canSetCampaignStatus = (user: AuthUser, organizationId: string | null): boolean =>
  canManageOrganization(user, organizationId);

/** Only admins change user types or organization admins. */
export const canChangeUserType = (user: AuthUser): boolean => isAdmin(user);
export const canChangeOrganizationAdmins = (user: AuthUser): boolean => isAdmin(user);

/** A user may edit their own account; admins anyone's; org_admins may view their donors but not edit them. */
export const canEditUser = (user: AuthUser, targetId: string): boolean =>
  user.id === targetId || roles.canEditOthersProfile(user);

/** Admins merge any two donors; org_admins donors of their own organizations (checked per record); finance and donors none. */
export const canMergeDonors = (user: AuthUser): boolean => roles.canMergeDonors(user);

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

export function requireFinanceReader(user: AuthUser | null, message?: string): AuthUser {
  const signedIn = requireUser(user);
  if (!readsFinance(signedIn)) throw forbidden(message);
  return signedIn;
}

/** Route middleware: 401 unless signed in, 403 unless an admin, org_admin or finance user. */
export const financeReaders = (message?: string) =>
  createMiddleware<AppEnv>(async (c, next) => {
    requireFinanceReader(c.var.user, message);
    await next();
  });

/** Route middleware: 401 unless signed in, 403 unless an admin. */
export const adminOnly = () =>
  createMiddleware<AppEnv>(async (c, next) => {
    requireAdmin(c.var.user);
    await next();
  });

/**
 * Load then authorize: route middleware that loads the item named by the path's `{id}` as this
 * viewer may see it (the loader answers 404 or 403), then applies `authorize`, all before the
 * request body is validated, so a caller who may not act learns nothing from a 400. The handler
 * gets the loaded item back with `item(c)` instead of loading it twice.
 */
export function loadThenAuthorize<T>(
  // The shape of service-context's ViewerContext, written out: that module imports this one.
  load: (ctx: { db: Db; viewer: AuthUser }, id: string) => Promise<T>,
  authorize?: (viewer: AuthUser, item: T) => void,
) {
  const loaded = new WeakMap<Request, T>();
  const middleware = createMiddleware<AppEnv>(async (c, next) => {
    const viewer = requireUser(c.var.user);
    const item = await load({ db: c.var.db, viewer }, c.req.param('id') ?? '');
    authorize?.(viewer, item);
    loaded.set(c.req.raw, item);
    await next();
  });
  const item = (c: Context<AppEnv>): T => {
    const found = loaded.get(c.req.raw);
    if (found === undefined) throw new Error('loadThenAuthorize: the route did not run its middleware');
    return found;
  };
  return { middleware, item };
}
