/** Fixed sample content for the spec's mock-up screens (no calls). */

export type PaymentRow = {
  id: string;
  date: string;
  email: string;
  amount: number;
  status: 'success' | 'processing' | 'failed';
  method: string;
};
export const PAYMENTS: PaymentRow[] = [
  {
    id: 'm5gr84i9',
    date: '2026-03-02',
    email: 'ken99@example.com',
    amount: 316,
    status: 'success',
    method: 'Visa •••• 4242',
  },
  {
    id: '3u1reuv4',
    date: '2026-03-04',
    email: 'abe45@example.com',
    amount: 242,
    status: 'success',
    method: 'Mastercard •••• 4444',
  },
  {
    id: 'derv1ws0',
    date: '2026-03-07',
    email: 'monserrat44@example.com',
    amount: 837,
    status: 'processing',
    method: 'PayPal',
  },
  {
    id: '5kma53ae',
    date: '2026-03-09',
    email: 'silas22@example.com',
    amount: 874,
    status: 'success',
    method: 'Bank transfer',
  },
  {
    id: 'bhqecj4p',
    date: '2026-03-12',
    email: 'carmella@example.com',
    amount: 721,
    status: 'failed',
    method: 'Visa •••• 1881',
  },
  {
    id: 'p0w8xt21',
    date: '2026-03-15',
    email: 'olivia.m@example.com',
    amount: 150,
    status: 'success',
    method: 'Visa •••• 4242',
  },
  {
    id: 'q9z3lm77',
    date: '2026-03-18',
    email: 'noah.b@example.com',
    amount: 50,
    status: 'processing',
    method: 'PayPal',
  },
  {
    id: 'r7c2vb55',
    date: '2026-03-21',
    email: 'amelia.r@example.com',
    amount: 500,
    status: 'success',
    method: 'Mastercard •••• 4444',
  },
  {
    id: 's6n1kd02',
    date: '2026-03-24',
    email: 'george.w@example.com',
    amount: 75,
    status: 'failed',
    method: 'Bank transfer',
  },
  {
    id: 't5h0gf19',
    date: '2026-03-27',
    email: 'isla.t@example.com',
    amount: 1000,
    status: 'success',
    method: 'Visa •••• 4242',
  },
  { id: 'u4j9ds86', date: '2026-03-30', email: 'harry.p@example.com', amount: 25, status: 'success', method: 'PayPal' },
  {
    id: 'v3k8sa73',
    date: '2026-04-02',
    email: 'ava.l@example.com',
    amount: 60,
    status: 'processing',
    method: 'Visa •••• 1881',
  },
];

export type HistoryRow = {
  id: string;
  date: string;
  donor: string;
  uid: string;
  appeal: string;
  type: 'One-time' | 'Monthly';
  amount: number;
};
export const DONATION_HISTORY: HistoryRow[] = [
  {
    id: 'h1',
    date: '2026-01-05',
    donor: 'Olivia Martin',
    uid: 'UID 100234',
    appeal: 'Clean Water for Kisumu',
    type: 'One-time',
    amount: 150,
  },
  {
    id: 'h2',
    date: '2026-01-12',
    donor: 'Jackson Lee',
    uid: 'UID 100871',
    appeal: 'Safe Homes Winter Appeal',
    type: 'Monthly',
    amount: 25,
  },
  {
    id: 'h3',
    date: '2026-01-19',
    donor: 'Isabella Nguyen',
    uid: 'UID 101502',
    appeal: 'Full Plates Breakfast Club',
    type: 'One-time',
    amount: 500,
  },
  {
    id: 'h4',
    date: '2026-02-02',
    donor: 'William Kim',
    uid: 'UID 101777',
    appeal: 'Clean Water for Kisumu',
    type: 'Monthly',
    amount: 10,
  },
  {
    id: 'h5',
    date: '2026-02-14',
    donor: 'Sofia Davis',
    uid: 'UID 102040',
    appeal: 'School Water Pumps',
    type: 'One-time',
    amount: 75,
  },
  {
    id: 'h6',
    date: '2026-02-27',
    donor: 'Liam Patel',
    uid: 'UID 102388',
    appeal: 'Medical Fund',
    type: 'One-time',
    amount: 1200,
  },
  {
    id: 'h7',
    date: '2026-03-08',
    donor: 'Emma Wilson',
    uid: 'UID 102901',
    appeal: 'Safe Homes Winter Appeal',
    type: 'Monthly',
    amount: 50,
  },
];

export type ReceiptRow = {
  id: string;
  date: string;
  name: string;
  amount: number;
  paymentId: string;
  customer: string;
};
export const RECEIPTS: ReceiptRow[] = [
  {
    id: 'r1',
    date: '2026-01-05',
    name: 'Receipt #INV-0012',
    amount: 150,
    paymentId: 'pi_3Q1a2b3c4d',
    customer: 'cus_R1x2y3',
  },
  {
    id: 'r2',
    date: '2026-02-05',
    name: 'Receipt #INV-0019',
    amount: 75,
    paymentId: 'pi_3Q5e6f7g8h',
    customer: 'cus_R1x2y3',
  },
  {
    id: 'r3',
    date: '2026-03-05',
    name: 'Receipt #INV-0027',
    amount: 500,
    paymentId: 'pi_3Q9i0j1k2l',
    customer: 'cus_R1x2y3',
  },
  {
    id: 'r4',
    date: '2026-04-05',
    name: 'Receipt #INV-0031',
    amount: 40,
    paymentId: 'pi_3Q3m4n5o6p',
    customer: 'cus_R1x2y3',
  },
];
export const RECURRING: ReceiptRow[] = [
  {
    id: 'c1',
    date: '2026-01-01',
    name: 'Monthly gift: Clean Water',
    amount: 10,
    paymentId: 'pi_3R1q2r3s4t',
    customer: 'cus_R1x2y3',
  },
  {
    id: 'c2',
    date: '2026-02-01',
    name: 'Monthly gift: Clean Water',
    amount: 10,
    paymentId: 'pi_3R5u6v7w8x',
    customer: 'cus_R1x2y3',
  },
  {
    id: 'c3',
    date: '2026-03-01',
    name: 'Monthly gift: Clean Water',
    amount: 10,
    paymentId: 'pi_3R9y0z1a2b',
    customer: 'cus_R1x2y3',
  },
];

export type EventItem = { id: string; title: string; country: string; date: string; time: string; place: string };
/** YYYY-MM-DD `days` after (or before) `today`: sample events stay upcoming or past whenever the page is opened. */
export function daysFrom(today: Date, days: number): string {
  const date = new Date(Date.UTC(today.getUTCFullYear(), today.getUTCMonth(), today.getUTCDate() + days, 12));
  return date.toISOString().slice(0, 10);
}

export function nextEvents(today = new Date()): EventItem[] {
  return [
    {
      id: 'e1',
      title: 'Charity Fun Run 5K',
      country: 'United Kingdom',
      date: daysFrom(today, 12),
      time: '09:00',
      place: 'Hyde Park, London',
    },
    {
      id: 'e2',
      title: 'Water Pump Build Day',
      country: 'Kenya',
      date: daysFrom(today, 33),
      time: '08:30',
      place: 'Kisumu',
    },
    {
      id: 'e3',
      title: 'Community Food Drive',
      country: 'United Kingdom',
      date: daysFrom(today, 47),
      time: '10:00',
      place: 'Leeds Town Hall',
    },
  ];
}

export function attendedEvents(today = new Date()): EventItem[] {
  return [
    {
      id: 'e4',
      title: 'Winter Coat Collection',
      country: 'United Kingdom',
      date: daysFrom(today, -21),
      time: '11:00',
      place: 'Manchester',
    },
    {
      id: 'e5',
      title: 'Gala Dinner',
      country: 'United Kingdom',
      date: daysFrom(today, -60),
      time: '19:00',
      place: 'Birmingham',
    },
  ];
}

export type RewardLevel = { level: number; title: string; members: string; points: number };
const LEVEL_TITLES = ['Seed Planter', 'Sapling', 'Tree Grower', 'Bridge Builder', 'Inspiration Giver'];
/** Spec: titles 1-5 repeat for 6-10, each showing 35% of members (static). */
export const REWARD_LEVELS: RewardLevel[] = Array.from({ length: 10 }, (_, i) => ({
  level: i + 1,
  title: LEVEL_TITLES[i % 5],
  members: '35% of members',
  points: (i + 1) * 200 - 200,
}));
export const REWARD_PROFILE = {
  name: 'Alex Morgan',
  uid: 'UID 100234',
  level: 5,
  nextLevel: 6,
  points: 275,
  nextThreshold: 1000,
  toLevelUp: 125,
};
export const REWARD_HISTORY = [
  { id: 'rw1', date: '2026-03-02', activity: 'Donation to Clean Water for Kisumu', points: 50 },
  { id: 'rw2', date: '2026-02-18', activity: 'Shared an appeal', points: 10 },
  { id: 'rw3', date: '2026-02-01', activity: 'Monthly gift', points: 25 },
  { id: 'rw4', date: '2026-01-12', activity: 'Attended Gala Dinner', points: 100 },
];

export type PaymentMethod = {
  id: string;
  type: 'card' | 'paypal' | 'bank';
  label: string;
  detail: string;
  isDefault: boolean;
};
export const PAYMENT_METHODS: PaymentMethod[] = [
  { id: 'pm1', type: 'card', label: 'Visa •••• 4242', detail: 'Expires 08/28', isDefault: true },
  { id: 'pm2', type: 'card', label: 'Mastercard •••• 4444', detail: 'Expires 01/27', isDefault: false },
  { id: 'pm3', type: 'paypal', label: 'PayPal', detail: 'alex.morgan@example.com', isDefault: false },
];

export const FAQS = [
  {
    q: 'How is my donation used?',
    a: 'Every gift goes to the appeal you choose. We publish what each appeal has raised and spent, and the charity covers running costs from unrestricted funds.',
  },
  {
    q: 'What is Gift Aid?',
    a: 'If you are a UK taxpayer, Gift Aid lets us claim an extra 25p for every £1 you give, at no cost to you. Tick the Gift Aid box when you donate.',
  },
  {
    q: 'Can I change or cancel my monthly gift?',
    a: 'Yes. In My Donations you can change the amount, pause it for 1 to 3 months or cancel it; every receipt email also has a cancel link.',
  },
  {
    q: 'How do I start a fundraiser?',
    a: 'Choose Start a Fundraise, pick a cause, add your story and photos, and share your appeal page with friends.',
  },
  {
    q: 'Is my payment secure?',
    a: 'Card details are handled by our payment provider and never stored on our servers.',
  },
];

export type Notice = { id: string; date: string; title: string; type: 'Email' | 'SMS' | 'In-app'; body: string };
export const NOTIFICATIONS: Notice[] = [
  {
    id: 'n1',
    date: '2026-03-20',
    title: 'Thank you for your donation',
    type: 'Email',
    body: 'Your gift of £50 to Clean Water for Kisumu has been received. Thank you for helping families get safe water.',
  },
  {
    id: 'n2',
    date: '2026-03-12',
    title: 'Your appeal reached 50% of its goal',
    type: 'In-app',
    body: 'Great news: your appeal is halfway there. Share it again to keep the momentum going.',
  },
  {
    id: 'n3',
    date: '2026-02-28',
    title: 'Monthly gift reminder',
    type: 'SMS',
    body: 'Your monthly gift of £10 will be taken on 1 March.',
  },
  {
    id: 'n4',
    date: '2026-02-14',
    title: 'New event: Charity Fun Run 5K',
    type: 'Email',
    body: 'Join us in Hyde Park on 16 May for our annual 5K. Registration is open.',
  },
  {
    id: 'n5',
    date: '2026-01-30',
    title: 'Your receipt is ready',
    type: 'In-app',
    body: 'Receipt #INV-0012 is ready to download from Donate Receipts.',
  },
  {
    id: 'n6',
    date: '2026-01-10',
    title: 'Welcome to UK NFP',
    type: 'Email',
    body: 'Thanks for joining. Your dashboard shows your donations, appeals and rewards.',
  },
];

export const RESOURCES = [
  {
    title: 'Donor guide',
    description:
      'Giving once or monthly, Gift Aid, signing in with a code, My Donations, receipts and statements, My Info and getting help.',
    href: '/downloads/donor-guide.pdf',
    size: 'PDF',
  },
  {
    title: 'Fundraiser guide',
    description: 'Starting an appeal, approval, sharing it, following its gifts in My Appeals and the emails you get.',
    href: '/downloads/fundraiser-guide.pdf',
    size: 'PDF',
  },
];
