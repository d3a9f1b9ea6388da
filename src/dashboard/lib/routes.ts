/** Pure path parsing for the dashboard's client-side router (spec section 2 "Dashboard"). */
export const BASE = '/dashboard';

export type Resource = 'organizations' | 'donors' | 'donations';
export type CampaignKind = 'campaign' | 'appeal';

export type Route =
  | { name: 'overview' }
  | { name: 'gift-aid' }
  | { name: 'batches' }
  | { name: 'batch-entry' }
  | { name: 'batch'; id: string }
  | { name: 'monthly-gifts' }
  | { name: 'audit' }
  | { name: 'payouts' }
  | { name: 'payout'; id: string }
  | { name: 'list'; resource: Resource }
  | { name: 'my-donations' }
  | { name: 'form'; resource: Resource; id?: string }
  | { name: 'settings' }
  | { name: 'campaign-list'; kind: CampaignKind }
  | { name: 'campaign-editor'; kind: CampaignKind; id?: string }
  | { name: 'donate-history' }
  | { name: 'donate-receipts' }
  | { name: 'donate-recurring' }
  | { name: 'reward' }
  | { name: 'event' }
  | { name: 'communication' }
  | { name: 'communication-detail'; id: string }
  | { name: 'payment' }
  | { name: 'faqs' }
  | { name: 'contact' }
  | { name: 'resources' }
  | { name: 'support-inbox' }
  | { name: 'template-causes' }
  | { name: 'template-cause-form'; id?: string }
  | { name: 'supporters'; id: string }
  | { name: 'not-found' };

/** The specification's static mock-up screens: fixed sample content, no data of ours. */
export const MOCK_UP_SCREENS = [
  'donate-history',
  'donate-receipts',
  'donate-recurring',
  'reward',
  'event',
  'communication',
  'payment',
  'resources',
] as const satisfies readonly Route['name'][];

const STATIC: Record<string, Route> = {
  overview: { name: 'overview' },
  'gift-aid': { name: 'gift-aid' },
  'monthly-gifts': { name: 'monthly-gifts' },
  audit: { name: 'audit' },
  'donate-history': { name: 'donate-history' },
  'donate-receipts': { name: 'donate-receipts' },
  'donate-recurring': { name: 'donate-recurring' },
  reward: { name: 'reward' },
  event: { name: 'event' },
  communication: { name: 'communication' },
  settings: { name: 'settings' },
  payment: { name: 'payment' },
  faqs: { name: 'faqs' },
  contact: { name: 'contact' },
  resources: { name: 'resources' },
  'support-inbox': { name: 'support-inbox' },
};

const RESOURCES: readonly Resource[] = ['organizations', 'donors', 'donations'];

/** Path segments below /dashboard, without empty parts; null when outside the dashboard. */
export function dashboardSegments(pathname: string): string[] | null {
  const clean = pathname.replace(/\/+$/, '') || '/';
  if (clean !== BASE && !clean.startsWith(`${BASE}/`)) return null;
  return clean
    .slice(BASE.length)
    .split('/')
    .filter(Boolean)
    .map((s) => safeDecode(s));
}

function safeDecode(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}

export function matchRoute(pathname: string): Route {
  const segs = dashboardSegments(pathname);
  if (!segs) return { name: 'not-found' };
  if (segs.length === 0) return { name: 'overview' };
  const [head, ...rest] = segs;

  if (rest.length === 0 && STATIC[head]) return STATIC[head];
  if (head === 'communication' && rest.length === 1) return { name: 'communication-detail', id: rest[0] };
  if (head === 'payouts' && rest.length <= 1)
    return rest.length ? { name: 'payout', id: rest[0] } : { name: 'payouts' };
  if (head === 'batches') {
    if (rest.length === 0) return { name: 'batches' };
    if (rest.length === 1) return rest[0] === 'add' ? { name: 'batch-entry' } : { name: 'batch', id: rest[0] };
    return { name: 'not-found' };
  }

  if (head === 'supporters') return rest.length === 1 ? { name: 'supporters', id: rest[0] } : { name: 'not-found' };

  if (head === 'template-causes') {
    if (rest.length === 0) return { name: 'template-causes' };
    if (rest.length === 1 && rest[0] === 'add') return { name: 'template-cause-form' };
    if (rest.length === 2 && rest[0] === 'edit') return { name: 'template-cause-form', id: rest[1] };
    return { name: 'not-found' };
  }

  if ((RESOURCES as readonly string[]).includes(head)) {
    const resource = head as Resource;
    if (rest.length === 0) return { name: 'list', resource };
    if (rest.length === 1 && rest[0] === 'add') return { name: 'form', resource };
    if (rest.length === 1 && resource === 'donations' && rest[0] === 'me') return { name: 'my-donations' };
    if (rest.length === 2 && rest[0] === 'edit') return { name: 'form', resource, id: rest[1] };
    return { name: 'not-found' };
  }

  const campaignMatch = /^active-(campaigns|appeals)(-add|-edit)?$/.exec(head);
  if (campaignMatch) {
    const kind: CampaignKind = campaignMatch[1] === 'campaigns' ? 'campaign' : 'appeal';
    const suffix = campaignMatch[2];
    if (!suffix && rest.length === 0) return { name: 'campaign-list', kind };
    if (suffix === '-add' && rest.length === 0) return { name: 'campaign-editor', kind };
    if (suffix === '-edit' && rest.length === 1) return { name: 'campaign-editor', kind, id: rest[0] };
  }
  return { name: 'not-found' };
}

const RESOURCE_NOUN: Record<Resource, [one: string, many: string]> = {
  organizations: ['Organization', 'Organizations'],
  donors: ['Donor', 'Donors'],
  donations: ['Donation', 'Donations'],
};

/** Screens whose title is the same whatever the path. */
const FIXED_TITLES: Partial<Record<Route['name'], string>> = {
  overview: 'Overview',
  'gift-aid': 'Gift Aid',
  batches: 'Batches',
  'batch-entry': 'Batch entry',
  batch: 'Batch',
  'monthly-gifts': 'Monthly gifts',
  audit: 'Audit log',
  payouts: 'Payouts',
  payout: 'Payout',
  'my-donations': 'My Donations',
  settings: 'Settings',
  'donate-history': 'All Donation History',
  'donate-receipts': 'Donate Receipts',
  'donate-recurring': 'Recurring Donations',
  reward: 'Rewards & Achievements',
  event: 'Events & Volunteering',
  communication: 'Communication & Notifications',
  payment: 'Payment Methods',
  faqs: 'FAQs',
  contact: 'Contact Support',
  resources: 'Resources',
  'support-inbox': 'Support inbox',
  'template-causes': 'Template causes',
  supporters: 'Supporters',
  'not-found': 'Not Found',
};

/**
 * The tab's title for a screen: a browser tab or screen reader otherwise names them all "Dashboard".
 * Undefined for a screen without one.
 */
/** Whether an appeals list's address narrows it to the reader's own appeals (`?mine=true`). */
export const listsOnlyMine = (search: string): boolean => new URLSearchParams(search).get('mine') === 'true';

export function routeTitle(route: Route, staff = true, onlyMine = false): string | undefined {
  const fixed = FIXED_TITLES[route.name];
  if (fixed) return fixed;
  switch (route.name) {
    case 'form':
      if (route.resource === 'donors' && route.id === 'me') return 'My Info';
      return `${route.id ? 'Edit' : 'Add'} ${RESOURCE_NOUN[route.resource][0]}`;
    case 'list':
      return RESOURCE_NOUN[route.resource][1];
    case 'campaign-list':
      // As the screen's heading says it (CampaignList): a donor's appeals are the ones they started,
      // and so are staff's when they narrow the list to theirs (?mine=true, their My Appeals).
      if (route.kind === 'appeal') return staff && !onlyMine ? 'Active Appeals' : 'My Appeals';
      return 'Active Campaigns';
    case 'campaign-editor':
      return `${route.id ? 'Edit' : 'Add'} ${route.kind === 'appeal' ? 'Appeal' : 'Campaign'}`;
    case 'communication-detail':
      return 'Notification';
    case 'template-cause-form':
      return `${route.id ? 'Edit' : 'Add'} template cause`;
    default:
      return undefined;
  }
}

/** Spec "Dashboard forms": edit when the path contains 'edit'; the id is the last segment. */
export function parseFormPath(pathname: string): { isEdit: boolean; id: string | undefined } {
  const segs = pathname.split('/').filter(Boolean);
  const isEdit = segs.includes('edit') || segs.some((s) => s.endsWith('-edit'));
  return { isEdit, id: isEdit ? segs[segs.length - 1] : undefined };
}

/** Joins the current path with a suffix: '/dashboard/donors' + '/add'. */
export function joinPath(current: string, suffix: string): string {
  return current.replace(/\/+$/, '') + suffix;
}

/** The list a form returns to: '/dashboard/donors/edit/5' → '/dashboard/donors'. */
export function listPathOf(resource: Resource): string {
  return `${BASE}/${resource}`;
}

/** True for links the dashboard router should handle without a page load. */
export function isDashboardHref(href: string, origin: string): boolean {
  try {
    const url = new URL(href, origin);
    return url.origin === origin && dashboardSegments(url.pathname) !== null;
  } catch {
    return false;
  }
}
