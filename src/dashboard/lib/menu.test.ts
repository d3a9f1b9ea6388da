import { describe, expect, it } from 'vitest';
import { buildMenu, isActiveLink, menuPathOf } from './menu';

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

  it('gives staff the Admin group, and admins the Template causes and the Support inbox', () => {
    const labels = (type: string) =>
      buildMenu(type)
        .find((g) => g.label === 'Admin')
        ?.items.map((i) => i.label);
    const staffItems = [
      'Campaigns',
      'Appeals',
      'Donors',
      'Donations',
      'Monthly gifts',
      'Gift Aid',
      'Batches',
      'Payouts',
      'Audit log',
      'Organizations',
    ];
    expect(labels('org_admin')).toEqual(staffItems);
    expect(labels('admin')).toEqual([...staffItems, 'Template causes', 'Support inbox']);
    expect(buildMenu('admin').map((g) => g.label)).not.toContain('Finance');
    // An unknown type is not staff: it gets the donor's menu (the server refuses it staff routes too).
    expect(labels('staff')).toBeUndefined();
  });
});

describe('the finance menu', () => {
  it('gives finance users the Finance group of money screens and no Admin group', () => {
    const menu = buildMenu('finance');
    expect(menu.map((g) => g.label)).toEqual(['Dashboard', 'Help & Support', 'Finance']);
    const finance = menu.find((g) => g.label === 'Finance')!;
    expect(finance.items.map((i) => [i.label, i.href])).toEqual([
      ['Donations', '/dashboard/donations'],
      ['Batches', '/dashboard/batches'],
      ['Monthly gifts', '/dashboard/monthly-gifts'],
      ['Gift Aid', '/dashboard/gift-aid'],
      ['Payouts', '/dashboard/payouts'],
      ['Donors', '/dashboard/donors'],
      ['Audit log', '/dashboard/audit'],
    ]);
  });

  it('offers finance nothing that edits campaigns, appeals, organizations or the support inbox', () => {
    const hrefs = buildMenu('finance').flatMap((g) => g.items.map((i) => i.href));
    for (const editing of [
      '/dashboard/active-campaigns',
      '/dashboard/organizations',
      '/dashboard/template-causes',
      '/dashboard/support-inbox',
    ])
      expect(hrefs).not.toContain(editing);
    // My Appeals stays: anyone signed in may start an appeal of their own.
    expect(hrefs.filter((h) => h === '/dashboard/active-appeals')).toHaveLength(1);
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

describe("staff's My Appeals and Appeals", () => {
  const marked = (userType: string, pathname: string, search = '') => {
    const groups = buildMenu(userType);
    const hrefs = groups.flatMap((g) => g.items.map((i) => i.href));
    return groups.flatMap((g) =>
      g.items.filter((i) => isActiveLink(i.href, menuPathOf(pathname, search, hrefs), hrefs)).map((i) => i.label),
    );
  };

  it('are two entries, each marked on its own list', () => {
    const hrefs = buildMenu('admin').flatMap((g) => g.items.map((i) => i.href));
    expect(hrefs).toContain('/dashboard/active-appeals?mine=true');
    expect(hrefs.filter((h) => h === '/dashboard/active-appeals')).toHaveLength(1);
    expect(marked('admin', '/dashboard/active-appeals')).toEqual(['Appeals']);
    expect(marked('admin', '/dashboard/active-appeals', '?mine=true')).toEqual(['My Appeals']);
    expect(marked('org_admin', '/dashboard/active-appeals/', '?mine=true')).toEqual(['My Appeals']);
    // Another query is not the narrowed list; a sub-page of the list belongs to Appeals.
    expect(marked('admin', '/dashboard/active-appeals', '?created=x')).toEqual(['Appeals']);
    expect(marked('admin', '/dashboard/active-appeals-add')).toEqual(['Appeals']);
  });

  it("leave a donor's one My Appeals marked, with or without the query", () => {
    expect(buildMenu('donor')[0].items.find((i) => i.label === 'My Appeals')?.href).toBe('/dashboard/active-appeals');
    expect(marked('donor', '/dashboard/active-appeals')).toEqual(['My Appeals']);
    expect(marked('donor', '/dashboard/active-appeals', '?mine=true')).toEqual(['My Appeals']);
    expect(marked('finance', '/dashboard/active-appeals', '?mine=true')).toEqual(['My Appeals']);
  });
});

describe('menuPathOf', () => {
  it('marks the appeals entry on an appeal’s Supporters, and leaves other paths as they are', () => {
    expect(menuPathOf('/dashboard/supporters/3f2a')).toBe('/dashboard/active-appeals');
    expect(menuPathOf('/dashboard/supporters/3f2a/')).toBe('/dashboard/active-appeals');
    expect(menuPathOf('/dashboard/supporters')).toBe('/dashboard/supporters');
    expect(menuPathOf('/dashboard/donors/edit/me')).toBe('/dashboard/donors/edit/me');
  });
});
