import type { UserType } from './statuses';

/**
 * Who may do what, as pure predicates on a user type (browser-safe; the API's policy in
 * api/lib/policy.ts adds organization scope on top). `finance` reads the money screens and acts on
 * money (refunds), but never edits campaigns, appeals, organizations or users.
 */
type Typed = { type: UserType } | null | undefined;

export const isAdminType = (user: Typed): boolean => user?.type === 'admin';
/** Admins and organization admins: they edit content and accounts. */
export const editsContent = (user: Typed): boolean => user?.type === 'admin' || user?.type === 'org_admin';
/** Admins, organization admins and finance: donations, refunds, Gift Aid, exports, reports, the audit log. */
export const readsMoney = (user: Typed): boolean => editsContent(user) || user?.type === 'finance';
