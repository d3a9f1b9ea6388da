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

  it('gives every other type the Admin group', () => {
    for (const type of ['admin', 'org_admin', 'staff']) {
      const admin = buildMenu(type).find((g) => g.label === 'Admin');
      expect(admin?.items.map((i) => i.label)).toEqual(['Campaigns', 'Appeals', 'Donors', 'Donations', 'Monthly gifts', 'Gift Aid', 'Organizations']);
    }
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
