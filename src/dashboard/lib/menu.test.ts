import { describe, expect, it } from 'vitest';
import { buildMenu, isActiveLink } from './menu';

describe('buildMenu', () => {
  it('gives donors no Admin group', () => {
    expect(buildMenu('donor').map((g) => g.label)).toEqual(['Dashboard', 'Help & Support']);
    expect(buildMenu('donor')[0].items.map((i) => i.href)).toEqual([
      '/dashboard/overview',
      '/dashboard/donors/edit/me',
      '/dashboard/donations/me',
      '/dashboard/active-appeals',
    ]);
  });

  it('gives staff the Admin group, and admins the Support inbox', () => {
    const labels = (type: string) => buildMenu(type).find((g) => g.label === 'Admin')?.items.map((i) => i.label);
    expect(labels('org_admin')).toEqual(['Campaigns', 'Appeals', 'Donors', 'Donations', 'Monthly gifts', 'Gift Aid', 'Batch entry', 'Payouts', 'Organizations']);
    expect(labels('admin')).toEqual(['Campaigns', 'Appeals', 'Donors', 'Donations', 'Monthly gifts', 'Gift Aid', 'Batch entry', 'Payouts', 'Organizations', 'Support inbox']);
    // An unknown type is not staff: it gets the donor's menu (the server refuses it staff routes too).
    expect(labels('staff')).toBeUndefined();
  });
});

describe('isActiveLink', () => {
  const hrefs = buildMenu('admin').flatMap((g) => g.items.map((i) => i.href));
  it('marks the list for its add/edit pages but not a sibling menu item', () => {
    expect(isActiveLink('/dashboard/donors', '/dashboard/donors/add', hrefs)).toBe(true);
    expect(isActiveLink('/dashboard/donors', '/dashboard/donors/edit/me', hrefs)).toBe(false);
    expect(isActiveLink('/dashboard/donors/edit/me', '/dashboard/donors/edit/me', hrefs)).toBe(true);
    expect(isActiveLink('/dashboard/active-campaigns', '/dashboard/active-campaigns-add', hrefs)).toBe(true);
    expect(isActiveLink('/dashboard/donations', '/dashboard/donations/me', hrefs)).toBe(false);
  });
});
