/** Fixed sample content for the mock-up pages (spec section 2: "no calls"). */
export const EVENTS = [
  {
    id: 'e1',
    title: 'Coastal Charity Walk',
    country: 'United Kingdom',
    date: '2026-12-05T09:30',
    place: 'Whitby, North Yorkshire',
    image: '/images/demo/cause-1.png',
  },
  {
    id: 'e2',
    title: 'Winter Soup Kitchen Volunteering',
    country: 'United Kingdom',
    date: '2026-12-12T11:00',
    place: 'Glasgow',
    image: '/images/demo/cause-2.png',
  },
  {
    id: 'e3',
    title: 'Build Day with Homes & Hearts',
    country: 'United Kingdom',
    date: '2027-01-16T08:00',
    place: 'Cardiff',
    image: '/images/demo/cause-3.png',
  },
  {
    id: 'e4',
    title: 'Pupil Prize Showcase Evening',
    country: 'United Kingdom',
    date: '2027-02-04T18:30',
    place: 'Leeds',
    image: '/images/demo/cause-5.png',
  },
  {
    id: 'e5',
    title: 'Sponsored Silence Day',
    country: 'Ireland',
    date: '2027-02-20T09:00',
    place: 'Dublin',
    image: '/images/demo/cause-6.png',
  },
  {
    id: 'e6',
    title: 'Spring Fun Run',
    country: 'United Kingdom',
    date: '2027-03-21T10:00',
    place: 'Bristol',
    image: '/images/demo/cause-4.png',
  },
] as const;

export const BLOG_POSTS = [
  {
    id: '1',
    title: 'Eleven pumps and counting',
    date: '2026-10-02',
    image: '/images/demo/cause-1.png',
    excerpt: 'How last year’s gifts turned into clean water for eleven villages, and what comes next.',
    body: 'When we set out last autumn, eleven pumps felt like a stretch.\n\nThanks to pupils, parents and partners, every one of them is now running, maintained by a trained local committee. This year we want to reach every village on our list.',
  },
  {
    id: '2',
    title: 'Seven homes, seven families',
    date: '2026-09-14',
    image: '/images/demo/cause-3.png',
    excerpt: 'Meet the families moving into raised, insulated homes after last winter’s floods.',
    body: 'The keys were handed over on a rainy Saturday, which felt fitting.\n\nEach home is raised above the flood line and insulated for the winter. Local tradespeople did the work, and pupils painted the welcome signs.',
  },
  {
    id: '3',
    title: 'A winter of full plates',
    date: '2026-08-30',
    image: '/images/demo/cause-2.png',
    excerpt: '165 people fed every week: a look inside our partner community kitchen.',
    body: 'Our partner kitchen opens three evenings a week.\n\nVolunteers cook, serve and pack parcels for families to take home. Your gifts buy the ingredients and keep the lights on.',
  },
] as const;

export const FEATURE_APPEALS = [
  { title: 'Amira’s 10k Run', href: '/appeals', image: '/images/demo/cause-4.png' },
  { title: 'Bake Sale at Oakfield Academy', href: '/appeals', image: '/images/demo/cause-2.png' },
  { title: 'Oliver Cycles Coast to Coast', href: '/appeals', image: '/images/demo/cause-6.png' },
] as const;

export const DONORS = ['1', '2', '3'] as const;

export const DONOR_PROFILE = {
  name: 'Priya Patel',
  uid: 'UID 48213',
  level: 5,
  levelTitle: 'Inspiration Giver',
  totalRaised: '£2,480',
  totalGiven: '£640',
  story:
    'I started giving after my school ran its first water appeal.\n\nNow I run every spring and my class bakes every autumn. Every pound really does reach the people it is meant for.',
  campaigns: ['Clean Water for Every Village', 'Feed 165 Families This Winter'],
  appeals: ['Priya’s 10k Run', 'Bake Sale at St Aidan’s Primary'],
} as const;
