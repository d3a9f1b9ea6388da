import { isAdmin, isFinance, isStaff } from '../../../domain/roles';
import type { IconName } from '../ui/icons';

export type MenuLink = { label: string; href: string; icon: IconName };
export type MenuGroup = { label: string; items: MenuLink[] };

/** Every screen the menu links to, once. */
const LINKS = {
  overview: { label: 'Overview', href: '/dashboard/overview', icon: 'home' },
  myInfo: { label: 'My Info', href: '/dashboard/donors/edit/me', icon: 'user' },
  myDonations: { label: 'My Donations', href: '/dashboard/donations/me', icon: 'heart' },
  myAppeals: { label: 'My Appeals', href: '/dashboard/active-appeals', icon: 'megaphone' },
  faqs: { label: 'FAQS', href: '/dashboard/faqs', icon: 'help' },
  contact: { label: 'Contact Support', href: '/dashboard/contact', icon: 'mail' },
  campaigns: { label: 'Campaigns', href: '/dashboard/active-campaigns', icon: 'flag' },
  appeals: { label: 'Appeals', href: '/dashboard/active-appeals', icon: 'megaphone' },
  donors: { label: 'Donors', href: '/dashboard/donors', icon: 'users' },
  donations: { label: 'Donations', href: '/dashboard/donations', icon: 'coins' },
  monthlyGifts: { label: 'Monthly gifts', href: '/dashboard/monthly-gifts', icon: 'calendar' },
  giftAid: { label: 'Gift Aid', href: '/dashboard/gift-aid', icon: 'book' },
  batches: { label: 'Batches', href: '/dashboard/batches', icon: 'coins' },
  payouts: { label: 'Payouts', href: '/dashboard/payouts', icon: 'card' },
  audit: { label: 'Audit log', href: '/dashboard/audit', icon: 'search' },
  organizations: { label: 'Organizations', href: '/dashboard/organizations', icon: 'building' },
  supportInbox: { label: 'Support inbox', href: '/dashboard/support-inbox', icon: 'mail' },
  templateCauses: { label: 'Template causes', href: '/dashboard/template-causes', icon: 'copy' },
} satisfies Record<string, MenuLink>;

type Viewer = Parameters<typeof isStaff>[0];

/**
 * Spec section 2/6: everybody's menu; staff (admins, organization admins) also get the Admin group,
 * finance users the Finance group: the money screens, read-only for content and accounts, in the
 * order of a finance user's day (no campaigns, appeals, organizations or account editing).
 */
const GROUPS: { label: string; shows: (viewer: Viewer) => boolean; links: (keyof typeof LINKS)[] }[] = [
  { label: 'Dashboard', shows: () => true, links: ['overview', 'myInfo', 'myDonations', 'myAppeals'] },
  { label: 'Help & Support', shows: () => true, links: ['faqs', 'contact'] },
  {
    label: 'Admin',
    shows: isStaff,
    links: [
      'campaigns',
      'appeals',
      'donors',
      'donations',
      'monthlyGifts',
      'giftAid',
      'batches',
      'payouts',
      'audit',
      'organizations',
      'templateCauses',
      'supportInbox',
    ],
  },
  {
    label: 'Finance',
    shows: (viewer) => !isStaff(viewer) && isFinance(viewer),
    links: ['donations', 'batches', 'monthlyGifts', 'giftAid', 'payouts', 'donors', 'audit'],
  },
];

/** Only admins answer the support inbox and keep the template causes (the platform's, not an organization's). */
const ADMINS_ONLY: (keyof typeof LINKS)[] = ['supportInbox', 'templateCauses'];
const linkShows = (key: keyof typeof LINKS, viewer: Viewer) => !ADMINS_ONLY.includes(key) || isAdmin(viewer);

/**
 * Staff have both My Appeals and the Admin group's Appeals, on one list screen: My Appeals opens it
 * narrowed to the appeals they started, so the two entries are two places, each marked on its own.
 */
export const STAFF_MY_APPEALS = '/dashboard/active-appeals?mine=true';

function linkFor(key: keyof typeof LINKS, viewer: Viewer): MenuLink {
  return key === 'myAppeals' && isStaff(viewer) ? { ...LINKS.myAppeals, href: STAFF_MY_APPEALS } : LINKS[key];
}

export function buildMenu(userType: string | null | undefined): MenuGroup[] {
  const viewer = userType ? { type: userType, orgIds: [] } : null;
  return GROUPS.filter((group) => group.shows(viewer)).map((group) => ({
    label: group.label,
    items: group.links.filter((key) => linkShows(key, viewer)).map((key) => linkFor(key, viewer)),
  }));
}

/** Current-page match: exact, or a sub-page of a list (donors/add → Donors), never across menu items. */
export function isActiveLink(href: string, pathname: string, allHrefs: string[]): boolean {
  const path = pathname.replace(/\/+$/, '');
  if (path === href) return true;
  if (allHrefs.includes(path)) return false;
  const best = allHrefs
    .filter((h) => path.startsWith(`${h}/`) || path.startsWith(`${h}-`))
    .sort((a, b) => b.length - a.length)[0];
  return best === href;
}

/**
 * The menu entry a screen belongs to when its path is not under it: an appeal's Supporters
 * (/dashboard/supporters/{id}) is reached from the appeals list, so that entry stays marked. A menu
 * entry whose href carries a query (staff's My Appeals) is the current one only with that query.
 */
export function menuPathOf(pathname: string, search = '', hrefs: string[] = []): string {
  if (/^\/dashboard\/supporters\/[^/]+\/?$/.test(pathname)) return '/dashboard/active-appeals';
  const withQuery = pathname.replace(/\/+$/, '') + search;
  return search && hrefs.includes(withQuery) ? withQuery : pathname;
}
