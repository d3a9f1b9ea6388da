import { describe, expect, it } from 'vitest';
import { dashboardSegments, isDashboardHref, joinPath, matchRoute, parseFormPath, routeTitle } from './routes';

describe('matchRoute', () => {
  it('maps the spec route list', () => {
    expect(matchRoute('/dashboard')).toEqual({ name: 'overview' });
    expect(matchRoute('/dashboard/overview/')).toEqual({ name: 'overview' });
    expect(matchRoute('/dashboard/gift-aid')).toEqual({ name: 'gift-aid' });
    expect(matchRoute('/dashboard/audit')).toEqual({ name: 'audit' });
    expect(matchRoute('/dashboard/donors')).toEqual({ name: 'list', resource: 'donors' });
    expect(matchRoute('/dashboard/donors/add')).toEqual({ name: 'form', resource: 'donors' });
    expect(matchRoute('/dashboard/donors/edit/me')).toEqual({ name: 'form', resource: 'donors', id: 'me' });
    expect(matchRoute('/dashboard/donations/me')).toEqual({ name: 'my-donations' });
    expect(matchRoute('/dashboard/organizations/edit/abc')).toEqual({
      name: 'form',
      resource: 'organizations',
      id: 'abc',
    });
    expect(matchRoute('/dashboard/active-campaigns')).toEqual({ name: 'campaign-list', kind: 'campaign' });
    expect(matchRoute('/dashboard/active-appeals')).toEqual({ name: 'campaign-list', kind: 'appeal' });
    expect(matchRoute('/dashboard/active-appeals-add')).toEqual({ name: 'campaign-editor', kind: 'appeal' });
    expect(matchRoute('/dashboard/active-campaigns-edit/x1')).toEqual({
      name: 'campaign-editor',
      kind: 'campaign',
      id: 'x1',
    });
    expect(matchRoute('/dashboard/communication/n1')).toEqual({ name: 'communication-detail', id: 'n1' });
    expect(matchRoute('/dashboard/template-causes')).toEqual({ name: 'template-causes' });
    expect(matchRoute('/dashboard/supporters/a1')).toEqual({ name: 'supporters', id: 'a1' });
    expect(matchRoute('/dashboard/template-causes/add')).toEqual({ name: 'template-cause-form' });
    expect(matchRoute('/dashboard/template-causes/edit/c1')).toEqual({ name: 'template-cause-form', id: 'c1' });
    const staticScreens = 'donate-history donate-receipts donate-recurring reward event communication settings payment';
    for (const name of [...staticScreens.split(' '), 'faqs', 'contact', 'resources']) {
      expect(matchRoute(`/dashboard/${name}`)).toEqual({ name });
    }
  });

  it('answers not-found for anything else', () => {
    for (const path of [
      '/dashboard/nope',
      '/dashboard/donors/edit',
      '/dashboard/donors/edit/1/2',
      '/dashboard/organizations/me',
      '/dashboard/active-campaigns-edit',
      '/dashboard/active-campaigns/extra',
      '/dashboard/faqs/1',
      '/dashboard/template-causes/c1',
      '/dashboard/supporters',
      '/dashboard/supporters/a1/2',
      '/dashboard/template-causes/edit',
      '/dashboardx',
      '/campaigns',
    ]) {
      expect(matchRoute(path), path).toEqual({ name: 'not-found' });
    }
  });

  it('decodes ids and survives malformed escapes', () => {
    expect(matchRoute('/dashboard/donors/edit/a%20b')).toEqual({ name: 'form', resource: 'donors', id: 'a b' });
    expect(matchRoute('/dashboard/donors/edit/%E0%A4%A')).toEqual({ name: 'form', resource: 'donors', id: '%E0%A4%A' });
  });
});

describe('path helpers', () => {
  it('parseFormPath: edit when the path contains edit, id is the last segment', () => {
    expect(parseFormPath('/dashboard/donors/edit/42')).toEqual({ isEdit: true, id: '42' });
    expect(parseFormPath('/dashboard/active-appeals-edit/7')).toEqual({ isEdit: true, id: '7' });
    expect(parseFormPath('/dashboard/donors/add')).toEqual({ isEdit: false, id: undefined });
  });

  it('joinPath appends to the current path without doubling slashes', () => {
    expect(joinPath('/dashboard/donors/', '/add')).toBe('/dashboard/donors/add');
    expect(joinPath('/dashboard/active-campaigns', '-edit/5')).toBe('/dashboard/active-campaigns-edit/5');
  });

  it('only same-origin /dashboard links are routed in the app', () => {
    const origin = 'http://localhost:4321';
    expect(isDashboardHref('/dashboard/faqs', origin)).toBe(true);
    expect(isDashboardHref('http://localhost:4321/dashboard', origin)).toBe(true);
    expect(isDashboardHref('/appeals', origin)).toBe(false);
    expect(isDashboardHref('https://evil.example/dashboard/faqs', origin)).toBe(false);
    expect(dashboardSegments('/dashboard//donors/')).toEqual(['donors']);
  });
});

describe('routeTitle', () => {
  it('names every screen, those whose title comes from the path too, not "Dashboard"', () => {
    const title = (path: string) => routeTitle(matchRoute(path));
    expect(title('/dashboard/donors/edit/me')).toBe('My Info');
    expect(title('/dashboard/donors/edit/abc')).toBe('Edit Donor');
    expect(title('/dashboard/donations/add')).toBe('Add Donation');
    expect(title('/dashboard/organizations')).toBe('Organizations');
    expect(title('/dashboard/active-appeals')).toBe('Active Appeals');
    expect(routeTitle(matchRoute('/dashboard/active-appeals'), false)).toBe('My Appeals');
    // Staff who narrow the list to the appeals they started (their My Appeals entry) read that title.
    expect(routeTitle(matchRoute('/dashboard/active-appeals'), true, true)).toBe('My Appeals');
    expect(routeTitle(matchRoute('/dashboard/active-campaigns'), true, true)).toBe('Active Campaigns');
    expect(title('/dashboard/active-campaigns')).toBe('Active Campaigns');
    expect(title('/dashboard/active-appeals-add')).toBe('Add Appeal');
    expect(title('/dashboard/active-campaigns-edit/abc')).toBe('Edit Campaign');
    expect(title('/dashboard/communication/7')).toBe('Notification');
    expect(title('/dashboard/overview')).toBe('Overview');
    expect(title('/dashboard/audit')).toBe('Audit log');
    expect(title('/dashboard/template-causes')).toBe('Template causes');
    expect(title('/dashboard/supporters/a1')).toBe('Supporters');
    expect(title('/dashboard/template-causes/add')).toBe('Add template cause');
    expect(title('/dashboard/template-causes/edit/c1')).toBe('Edit template cause');
  });
});
