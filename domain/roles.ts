/**
 * Who may do what, as pure predicates over a viewer's type and organizations. The API's policy
 * (api/lib/policy.ts) and the dashboard read roles through these, so a screen offers exactly what
 * the server will allow. Browser-safe.
 */
import type { UserType } from './statuses';

export type Viewer = { id?: string; type: UserType | string; orgIds: readonly string[] };

type MaybeViewer = Viewer | null | undefined;

export const isAdmin = (viewer: MaybeViewer): boolean => viewer?.type === 'admin';

export const isOrgAdmin = (viewer: MaybeViewer): boolean => viewer?.type === 'org_admin';

/** Admins and organization admins: the dashboard's staff (the Admin menu). */
export const isStaff = (viewer: MaybeViewer): boolean => isAdmin(viewer) || isOrgAdmin(viewer);

/** An admin, or an organization admin linked to at least one organization. */
export const administersAny = (viewer: MaybeViewer): boolean =>
  isAdmin(viewer) || (isOrgAdmin(viewer) && (viewer?.orgIds.length ?? 0) > 0);

/** Admins manage every organization; organization admins only those they are linked to. */
export function administers(viewer: MaybeViewer, organizationId: string | null | undefined): boolean {
  if (isAdmin(viewer)) return true;
  return isOrgAdmin(viewer) && !!organizationId && !!viewer?.orgIds.includes(organizationId);
}

/** Gift Aid claims are made by the charities' staff, never by donors. */
export const canClaimGiftAid = (viewer: MaybeViewer): boolean => administersAny(viewer);

/** The Gift Aid claims screen: whoever claims, and finance users, who read claims for their organizations. */
export const seesGiftAidClaims = (viewer: MaybeViewer): boolean => canClaimGiftAid(viewer) || isFinance(viewer);

/** Adding donors: admins anywhere, organization admins for their own organizations. */
export const canAddDonors = (viewer: MaybeViewer): boolean => administersAny(viewer);

/** Editing another person's profile: admins only (organization admins see name and email, read-only). */
export const canEditOthersProfile = (viewer: MaybeViewer): boolean => isAdmin(viewer);

/** Merging two donor records: admins anywhere, organization admins inside their organizations (never finance). */
export const canMergeDonors = (viewer: MaybeViewer): boolean => administersAny(viewer);

/** A donor's giving history and totals: the money readers (admins, organization admins, finance). */
export const seesDonorGiving = (viewer: MaybeViewer): boolean => isStaff(viewer) || viewer?.type === 'finance';

/** Finance users: the money screens, read-only for content and accounts. */
export const isFinance = (viewer: MaybeViewer): boolean => viewer?.type === 'finance';

/**
 * The accounts journal's nominal codes (an organization's and its campaigns'): admins, the
 * organization's admins, and its finance users, who own the chart of accounts.
 */
export function setsNominalCodes(viewer: MaybeViewer, organizationId: string | null | undefined): boolean {
  if (administers(viewer, organizationId)) return true;
  return isFinance(viewer) && !!organizationId && !!viewer?.orgIds.includes(organizationId);
}

/** Whether a screen offers nominal codes at all (the server still checks the organization). */
export const setsAnyNominalCodes = (viewer: MaybeViewer): boolean => isStaff(viewer) || isFinance(viewer);

/** The Contact Support inbox: the platform's admins. */
export const canReadSupportInbox = (viewer: MaybeViewer): boolean => isAdmin(viewer);

/** Only staff start campaigns (anyone signed in starts an appeal). */
export const canCreateCampaigns = (viewer: MaybeViewer): boolean => administersAny(viewer);

/**
 * Editing a campaign or appeal: admins; admins of its organization; the fundraiser who created an
 * appeal, until it is deleted.
 */
export function canEditCampaign(
  viewer: MaybeViewer,
  item: { organizationId: string | null; isAppeal: boolean; createdByViewer: boolean; status: string },
): boolean {
  if (!viewer) return false;
  if (administers(viewer, item.organizationId)) return true;
  return item.isAppeal && item.createdByViewer && item.status !== 'deleted';
}

type Typed = { type: UserType } | null | undefined;

export const isAdminType = (user: Typed): boolean => user?.type === 'admin';
/** A donor account or caller: no staff rights. */
export const isDonorType = (user: Typed): boolean => user?.type === 'donor';
/** A finance account or caller: reads money, edits nothing else. */
export const isFinanceType = (user: Typed): boolean => user?.type === 'finance';
/** Admins and organization admins: they edit content and accounts. */
export const editsContent = (user: Typed): boolean => user?.type === 'admin' || user?.type === 'org_admin';
/** Admins, organization admins and finance: donations, refunds, Gift Aid, exports, reports, the audit log. */
export const readsMoney = (user: Typed): boolean => editsContent(user) || user?.type === 'finance';
