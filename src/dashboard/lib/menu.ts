import { isAdmin, isFinance, isStaff } from '../../../domain/roles';
import type { IconName } from '../ui/icons';

export type MenuLink = { label: string; href: string; icon: IconName };
export type MenuGroup = { label: string; items: MenuLink[] };

/** The money screens, read-only for content and accounts: what a finance user's day needs, in that order. */
const FINANCE_ITEMS: MenuLink[] = [
  { label: 'Donations', href: '/dashboard/donations', icon: 'coins' },
  { label: 'Batch entry', href: '/dashboard/batches', icon: 'coins' },
  { label: 'Monthly gifts', href: '/dashboard/monthly-gifts', icon: 'calendar' },
  { label: 'Gift Aid', href: '/dashboard/gift-aid', icon: 'book' },
  { label: 'Payouts', href: '/dashboard/payouts', icon: 'card' },
  { label: 'Donors', href: '/dashboard/donors', icon: 'users' },
  { label: 'Audit', href: '/dashboard/audit', icon: 'search' },
];

/**
 * Spec section 2/6: everybody's menu; staff (admins, organization admins) also get the Admin group,
 * finance users the Finance group (no campaigns, appeals, organizations or account editing).
 */
export function buildMenu(userType: string | null | undefined): MenuGroup[] {
  const viewer = userType ? { type: userType, orgIds: [] } : null;
  const groups: MenuGroup[] = [
    {
      label: 'Dashboard',
      items: [
        { label: 'Overview', href: '/dashboard/overview', icon: 'home' },
        { label: 'My Info', href: '/dashboard/donors/edit/me', icon: 'user' },
        { label: 'My Donations', href: '/dashboard/donations/me', icon: 'heart' },
        { label: 'My Appeals', href: '/dashboard/active-appeals', icon: 'megaphone' },
      ],
    },
    {
      label: 'Help & Support',
      items: [
        { label: 'FAQS', href: '/dashboard/faqs', icon: 'help' },
        { label: 'Contact Support', href: '/dashboard/contact', icon: 'mail' },
      ],
    },
  ];
  if (isStaff(viewer)) {
    groups.push({
      label: 'Admin',
      items: [
        { label: 'Campaigns', href: '/dashboard/active-campaigns', icon: 'flag' },
        { label: 'Appeals', href: '/dashboard/active-appeals', icon: 'megaphone' },
        { label: 'Donors', href: '/dashboard/donors', icon: 'users' },
        { label: 'Donations', href: '/dashboard/donations', icon: 'coins' },
        { label: 'Monthly gifts', href: '/dashboard/monthly-gifts', icon: 'calendar' },
        { label: 'Gift Aid', href: '/dashboard/gift-aid', icon: 'book' },
        { label: 'Batch entry', href: '/dashboard/batches', icon: 'coins' },
        { label: 'Payouts', href: '/dashboard/payouts', icon: 'card' },
        { label: 'Audit', href: '/dashboard/audit', icon: 'search' },
        { label: 'Organizations', href: '/dashboard/organizations', icon: 'building' },
        ...(isAdmin(viewer)
          ? [{ label: 'Support inbox', href: '/dashboard/support-inbox', icon: 'mail' } satisfies MenuLink]
          : []),
      ],
    });
  } else if (isFinance(viewer)) {
    groups.push({ label: 'Finance', items: FINANCE_ITEMS });
  }
  return groups;
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
