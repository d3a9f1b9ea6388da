import { STOCK_COVERS } from '../domain/stock-covers';
import { eq, getTableColumns, inArray } from 'drizzle-orm';
import { chunks, rowsPerStatement } from './chunks';
import type { Db } from './client';
import {
  campaigns,
  donationReversals,
  donations,
  giftAidDeclarations,
  monthlyGifts,
  organizationAdmins,
  organizations,
  prices,
  templateCauses,
  users,
} from './schema';
import { GIFT_AID_DECLARATION, regulatorFromNumber } from '../domain';
import { declarantFields, giftAidDeclarationRow, donationRow } from './factories';
import { addMonths, DAY_MS } from '../domain/dates';

/**
 * Demo content for a UK charity. Every id comes from a seeded generator and every insert is
 * "on conflict do nothing", so running the seed again adds nothing and changes nothing.
 */

export const DEMO_ACCOUNTS = {
  admin: 'admin@example.org',
  orgAdmin: 'orgadmin@example.org',
  finance: 'finance@example.org',
  donor: 'donor@example.org',
} as const;

// Shared with the donation box and the API so the stored text is the text donors see.
export { GIFT_AID_DECLARATION };

/** mulberry32: small, fast, deterministic. */
function rng(seed: number) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function uuidFrom(next: () => number): string {
  const hex = Array.from({ length: 32 }, () => Math.floor(next() * 16).toString(16)).join('');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-4${hex.slice(13, 16)}-${((parseInt(hex[16], 16) & 3) | 8).toString(16)}${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
}

const FIRST_NAMES = [
  'Amira',
  'Oliver',
  'Priya',
  'George',
  'Siobhan',
  'Hamza',
  'Eleanor',
  'Kwame',
  'Isla',
  'Tomasz',
  'Charlotte',
  'Rhys',
  'Aisha',
  'Harry',
  'Fiona',
  'Callum',
  'Mei',
  'Arjun',
  'Bethan',
  'Daniel',
  'Grace',
  'Ifeoma',
  'Jack',
  'Leila',
  'Morgan',
  'Niamh',
  'Owen',
  'Rosie',
  'Samir',
  'Zara',
  'Ewan',
  'Hannah',
  'Imran',
  'Lucy',
  'Matteo',
  'Nadia',
  'Patrick',
  'Ruth',
  'Theo',
  'Yasmin',
];
const LAST_NAMES = [
  'Khan',
  'Hughes',
  'Patel',
  'Evans',
  "O'Neill",
  'Ali',
  'Wright',
  'Mensah',
  'Campbell',
  'Nowak',
  'Taylor',
  'Jones',
  'Rahman',
  'Smith',
  'MacLeod',
  'Fraser',
  'Chen',
  'Sharma',
  'Davies',
  'Walker',
];
const CITIES: [string, string, string][] = [
  ['Leeds', 'West Yorkshire', 'LS1 4AP'],
  ['Manchester', 'Greater Manchester', 'M1 1AE'],
  ['Bristol', 'Bristol', 'BS1 5TR'],
  ['Cardiff', 'Cardiff', 'CF10 1EP'],
  ['Glasgow', 'Glasgow City', 'G1 1XQ'],
  ['Birmingham', 'West Midlands', 'B1 1BB'],
  ['London', 'Greater London', 'SE1 7PB'],
  ['Belfast', 'County Antrim', 'BT1 5GS'],
];

export const DEMO_IMAGES = STOCK_COVERS;

const ORGANIZATIONS = [
  {
    name: 'Wells for Hope',
    email: 'hello@wellsforhope.org.uk',
    charityNumber: '1187342',
    hmrcReference: 'XR11873',
    city: 0,
  },
  {
    name: 'Homes & Hearts Trust',
    email: 'team@homesandhearts.org.uk',
    charityNumber: '1174409',
    hmrcReference: 'XR11744',
    city: 6,
  },
  {
    name: 'Harbour Food Network',
    email: 'info@harbourfood.org.uk',
    charityNumber: 'SC051234',
    hmrcReference: 'SC05123',
    city: 4,
  },
];

const CAMPAIGNS = [
  {
    org: 0,
    title: 'Clean Water for Every Village',
    description:
      'Eleven new water pumps bring safe, clean water within a short walk of every home in the villages we serve.',
    story:
      'Last year our pupils and families raised enough to fund the first pumps.\n\nThis year we want every village on our list to have clean water. Each pump serves around 300 people and lasts for decades with local maintenance.',
    goal: 2_000_000,
  },
  {
    org: 2,
    title: 'Feed 165 Families This Winter',
    description: 'Hot meals and food parcels for 165 people facing a hard winter in our local communities.',
    story:
      'Food bank use keeps rising as energy bills climb.\n\nYour gift buys food parcels, hot meals at our community kitchen and vouchers for fresh fruit and vegetables.',
    goal: 1_200_000,
  },
  {
    org: 1,
    title: 'Build a Home, Build a Future',
    description: 'Seven safe, dry homes for families who lost theirs to flooding, built with local tradespeople.',
    story:
      'After the floods, seven families were left in temporary shelters.\n\nWith your help we will rebuild homes that are raised, insulated and safe for children.',
    goal: 3_500_000,
  },
  {
    org: 1,
    title: 'Medical Help for Families',
    description: 'Treatment, travel and aftercare for eleven urgent medical cases referred by our partner clinics.',
    story:
      'Some treatments are simply out of reach for families on low incomes.\n\nWe cover the cost of operations, medicines and the journeys to hospital.',
    goal: 1_500_000,
  },
  {
    org: 0,
    title: 'Pupil Prize Competition 2026',
    description: 'Five prizes for pupils whose ideas and fundraising make the biggest difference this year.',
    story:
      'Every class can enter.\n\nPupils design a fundraising idea, run it with their families, and the five most inspiring projects win prizes for their school.',
    goal: 500_000,
  },
  {
    org: 2,
    title: 'Winter Warmth Appeal',
    description: 'Warm coats, blankets and heating top-ups for older neighbours living alone this winter.',
    story:
      'Cold homes make people ill.\n\nWe deliver warm packs and help with heating costs to older people referred by GPs and neighbours.',
    goal: 800_000,
  },
];

const APPEAL_TEMPLATES = [
  { title: "{name}'s 10k Run", description: 'Running my first 10k to raise money for {campaign}.', goal: 50_000 },
  {
    title: '{name} Cycles Coast to Coast',
    description: '140 miles in three days, every mile for {campaign}.',
    goal: 150_000,
  },
  {
    title: 'Bake Sale at {school}',
    description: 'Our class bake sale, every penny going to {campaign}.',
    goal: 30_000,
  },
];
const SCHOOLS = [
  'St Aidan’s Primary',
  'Oakfield Academy',
  'Riverside School',
  'Hillcrest Primary',
  'Kingsway High',
  'Meadowbank School',
];

const TEMPLATE_CAUSES: { title: string; campaign?: string; description: string; story: string; image: string }[] = [
  {
    title: 'Run for Clean Water',
    image: STOCK_COVERS[0],
    // An appeal from this cause raises for this campaign (decision 073); the others leave it to the fundraiser.
    campaign: 'Clean Water for Every Village',
    description: 'Take on a run and help bring clean water to villages without a safe supply.',
    story:
      '[[name]] is running to bring clean, safe water to families who walk hours for it every day.\n\nEvery £10 helps keep a pump working for a year.',
  },
  {
    title: 'Birthday Fundraiser',
    image: STOCK_COVERS[4],
    description: 'Ask friends and family to give to a cause you care about instead of presents.',
    story:
      'For my birthday this year, I, [[name]], am asking for donations instead of gifts.\n\nThank you for helping me make it count.',
  },
  {
    title: 'School Bake Sale',
    image: STOCK_COVERS[1],
    description: 'Bake, sell and share: a classic school fundraiser for families in need.',
    story: '[[name]] and friends are baking for a good cause.\n\nCome hungry and give generously!',
  },
  {
    title: 'Sponsored Silence',
    image: STOCK_COVERS[5],
    description: 'Stay silent for a day and let your sponsors do the talking.',
    story:
      '[[name]] will stay completely silent for 24 hours.\n\nSponsor the silence and help families who need our support.',
  },
  {
    title: 'In Memory',
    image: STOCK_COVERS[3],
    description: 'Remember someone special by raising money in their name.',
    story: '[[name]] is raising money in memory of a loved one, to help others in their name.',
  },
];

export const DEMO_PRICES = [
  { id: 'price_demo_monthly_500', unitAmount: 500 },
  { id: 'price_demo_monthly_1000', unitAmount: 1000 },
  { id: 'price_demo_monthly_2500', unitAmount: 2500 },
  { id: 'price_demo_monthly_5000', unitAmount: 5000 },
];

const isoDate = (ms: number) => new Date(ms).toISOString().slice(0, 10);

export type SeedCounts = Record<string, number>;

/** The largest `--scale` the seed accepts (1000 x is 300,000 donations: already more than a demo needs). */
export const MAX_SEED_SCALE = 1000;

/**
 * Reads a `--scale` value: a whole number from 1 to MAX_SEED_SCALE. Anything else is an Error whose
 * message says what to pass.
 */
export function parseSeedScale(value: string | number | undefined): number {
  const text = String(value ?? '').trim();
  const n = /^\d+$/.test(text) ? Number(text) : Number.NaN;
  if (!Number.isSafeInteger(n) || n < 1 || n > MAX_SEED_SCALE) {
    throw new Error(
      `--scale must be a whole number from 1 to ${MAX_SEED_SCALE} (got ${JSON.stringify(value ?? '')}); 100 writes about 30,000 donations`,
    );
  }
  return n;
}

export type SeedOptions = {
  /**
   * Write the demo data N times over (default 1): each extra copy adds 40 donors, 18 appeals under the
   * six campaigns and 300 donations, one in ten of them to the first approved appeal (a popular appeal).
   */
  scale?: number;
};

export async function seed(db: Db, now = new Date(), options: SeedOptions = {}): Promise<SeedCounts> {
  const scale = options.scale === undefined ? 1 : parseSeedScale(options.scale);
  const next = rng(20261121);
  const pick = <T>(items: readonly T[]) => items[Math.floor(next() * items.length)];
  const nowMs = now.getTime();

  // Organizations
  const orgRows = ORGANIZATIONS.map((org) => {
    const [city, province, postalCode] = CITIES[org.city];
    return {
      id: uuidFrom(next),
      name: org.name,
      email: org.email,
      phone: '0113 496 0' + String(100 + Math.floor(next() * 899)),
      charityNumber: org.charityNumber,
      regulator: regulatorFromNumber(org.charityNumber) ?? 'ccew',
      hmrcReference: org.hmrcReference,
      address: `${10 + Math.floor(next() * 80)} High Street`,
      city,
      province,
      postalCode,
      country: 'United Kingdom',
      createdAt: new Date(nowMs - 400 * DAY_MS),
    };
  });

  // Users: three demo accounts and 40 donors (the demo donor is one of them)
  const donorRows = FIRST_NAMES.map((firstName, i) => {
    const lastName = LAST_NAMES[i % LAST_NAMES.length];
    const [city, province, postalCode] = CITIES[i % CITIES.length];
    const email =
      i === 0 ? DEMO_ACCOUNTS.donor : `${firstName}.${lastName}`.toLowerCase().replace(/[^a-z.]/g, '') + '@example.com';
    return {
      id: uuidFrom(next),
      email,
      firstName,
      lastName,
      type: 'donor' as const,
      // UK mobiles stored as E.164, as the donor form stores them (domain/phone.ts).
      phone: `+4479111${String(10000 + i)}`,
      address: `${1 + i} Station Road`,
      city,
      province,
      postalCode,
      country: 'United Kingdom',
      createdAt: new Date(nowMs - (380 - i * 5) * DAY_MS),
    };
  });
  const staffRows = [
    { id: uuidFrom(next), email: DEMO_ACCOUNTS.admin, firstName: 'Alex', lastName: 'Morgan', type: 'admin' as const },
    {
      id: uuidFrom(next),
      email: DEMO_ACCOUNTS.orgAdmin,
      firstName: 'Sam',
      lastName: 'Okafor',
      type: 'org_admin' as const,
    },
    {
      // Its own generator: drawing from `next` would move every id seeded after it.
      id: uuidFrom(rng(0xf1a4ce)),
      email: DEMO_ACCOUNTS.finance,
      firstName: 'Nia',
      lastName: 'Evans',
      type: 'finance' as const,
    },
  ].map((row) => ({ ...row, createdAt: new Date(nowMs - 400 * DAY_MS) }));

  await db.insert(organizations).values(orgRows).onConflictDoNothing();
  await insertInBatches(db, users, [...staffRows, ...donorRows]);

  // Someone may have signed in (and so been created) before the seed ran: use the stored ids.
  const emails = [...staffRows, ...donorRows].map((u) => u.email);
  const stored = await db.select({ id: users.id, email: users.email }).from(users).where(inArray(users.email, emails));
  const idByEmail = new Map(stored.map((u) => [u.email, u.id]));
  const donorIds = donorRows.map((d) => idByEmail.get(d.email)!);
  const orgAdminId = idByEmail.get(DEMO_ACCOUNTS.orgAdmin)!;
  const adminId = idByEmail.get(DEMO_ACCOUNTS.admin)!;

  // The finance officer keeps the books of the same charity (an organization's admins list links both).
  const financeId = idByEmail.get(DEMO_ACCOUNTS.finance)!;
  await db
    .insert(organizationAdmins)
    .values([
      { organizationId: orgRows[0].id, userId: orgAdminId },
      { organizationId: orgRows[0].id, userId: financeId },
    ])
    .onConflictDoNothing();

  // Campaigns, then three appeals under each (two drafts and two deleted among them)
  const campaignRows = CAMPAIGNS.map((campaign, i) => ({
    id: uuidFrom(next),
    campaignId: null,
    organizationId: orgRows[campaign.org].id,
    title: campaign.title,
    description: campaign.description,
    story: campaign.story,
    video: i === 0 ? 'https://www.youtube.com/watch?v=aqz-KE-bpKQ' : null,
    dateFrom: isoDate(nowMs - (300 - i * 20) * DAY_MS),
    dateTo: isoDate(nowMs + (60 + i * 10) * DAY_MS),
    goal: campaign.goal,
    images: [0, 1, 2].map((k) => demoImage((i + k) % DEMO_IMAGES.length)),
    status: 'approved' as const,
    createdBy: i % 2 === 0 ? adminId : orgAdminId,
    createdAt: new Date(nowMs - (330 - i * 10) * DAY_MS),
  }));
  await insertInBatches(db, campaigns, campaignRows);
  const orgNameById = new Map(orgRows.map((org) => [org.id, org.name]));
  const charityOfCampaign = (campaignId: string) =>
    orgNameById.get(campaignRows.find((c) => c.id === campaignId)?.organizationId ?? '') ?? '';

  const appealStatus = (index: number) =>
    index === 4 || index === 11 ? 'draft' : index === 7 || index === 16 ? 'deleted' : 'approved';
  const appealRows = demoAppeals(next, {
    nowMs,
    copy: 0,
    campaignRows,
    donorRows,
    creatorIds: donorIds,
    appealStatus,
    createdAt: (index) => new Date(nowMs - (260 - index * 8) * DAY_MS),
  });
  await insertInBatches(db, campaigns, appealRows);

  await db
    .insert(templateCauses)
    .values(
      TEMPLATE_CAUSES.map(({ campaign, ...cause }) => ({
        id: uuidFrom(next),
        ...cause,
        campaignId: campaignRows.find((row) => row.title === campaign)?.id ?? null,
      })),
    )
    .onConflictDoNothing();
  await db
    .insert(prices)
    .values(DEMO_PRICES.map((price) => ({ ...price, currency: 'gbp', interval: 'month' as const })))
    .onConflictDoNothing();

  // 300 donations over the last year, mostly to approved appeals
  const approvedAppeals = appealRows.filter((a) => a.status === 'approved');
  await insertDemoGifts(db, next, {
    nowMs,
    donorRows,
    donorIds,
    charityOfCampaign,
    target: () => {
      const toAppeal = next() < 0.75;
      const appeal = pick(approvedAppeals);
      return toAppeal ? appeal : { id: null, campaignId: pick(campaignRows).id };
    },
  });

  for (let copy = 1; copy < scale; copy++) {
    await seedCopy(db, copy, { nowMs, donorRows, campaignRows, appealRows, appealStatus, charityOfCampaign });
  }

  const count = async (table: typeof users | typeof campaigns | typeof donations | typeof organizations) =>
    (await db.select({ id: table.id }).from(table)).length;
  return {
    organizations: await count(organizations),
    users: await count(users),
    campaigns: (await db.select({ id: campaigns.id }).from(campaigns).where(eq(campaigns.status, 'approved'))).length,
    donations: await count(donations),
  };
}

type DemoDonor = {
  firstName: string;
  lastName: string;
  email: string;
  phone: string;
  address: string;
  city: string;
  postalCode: string;
};
type DemoCampaign = { id: string; organizationId: string; title: string; story: string };
type AppealStatus = 'draft' | 'approved' | 'deleted';

type CopyContext = {
  nowMs: number;
  donorRows: DemoDonor[];
  campaignRows: DemoCampaign[];
  appealRows: { id: string; status: string; campaignId: string }[];
  appealStatus: (index: number) => AppealStatus;
  /** The name of the charity (organization) a campaign's gifts go to. */
  charityOfCampaign: (campaignId: string) => string;
};

/**
 * Multi-row inserts sized to D1's bound-parameter limit, sent in batches of statements (one round
 * trip per batch rather than per statement).
 */
async function insertInBatches<
  T extends
    | typeof users
    | typeof campaigns
    | typeof donations
    | typeof giftAidDeclarations
    | typeof donationReversals
    | typeof monthlyGifts,
>(db: Db, table: T, rows: T['$inferInsert'][]) {
  const perStatement = rowsPerStatement(Object.keys(getTableColumns(table)).length);
  const statements = chunks(rows, perStatement).map((piece) =>
    db
      .insert(table)
      .values(piece as never)
      .onConflictDoNothing(),
  );
  for (const batch of chunks(statements, 50))
    await db.batch(batch as [(typeof batch)[number], ...(typeof batch)[number][]]);
}

/**
 * Three appeals under each campaign, each started by a donor (the `copy`th one along, so copies spread
 * their fundraisers) and named after them.
 */
function demoAppeals(
  next: () => number,
  options: {
    nowMs: number;
    copy: number;
    campaignRows: DemoCampaign[];
    donorRows: DemoDonor[];
    /** The stored ids of this copy's donors, in donorRows' order. */
    creatorIds: string[];
    appealStatus: (index: number) => AppealStatus;
    createdAt: (index: number) => Date;
  },
) {
  const { nowMs, copy, donorRows, creatorIds } = options;
  return options.campaignRows.flatMap((campaign, ci) =>
    APPEAL_TEMPLATES.map((template, ti) => {
      const index = ci * 3 + ti;
      const fundraiserIndex = (index * 7 + copy) % donorRows.length;
      const fundraiser = donorRows[fundraiserIndex];
      const fill = (text: string) =>
        text
          .replace('{name}', fundraiser.firstName)
          .replace('{campaign}', campaign.title)
          .replace('{school}', SCHOOLS[ci]);
      return {
        id: uuidFrom(next),
        campaignId: campaign.id,
        organizationId: campaign.organizationId,
        title: copy === 0 ? fill(template.title) : `${fill(template.title)} (${copy + 1})`,
        description: fill(template.description),
        story: `Hello, I'm ${fundraiser.firstName} ${fundraiser.lastName}.\n\n${campaign.story}\n\nThank you for supporting me!`,
        video: null,
        dateFrom: isoDate(nowMs - (250 - index * 8) * DAY_MS),
        dateTo: isoDate(nowMs + (30 + index) * DAY_MS),
        goal: template.goal + index * 5_000,
        images: [demoImage(index % DEMO_IMAGES.length), demoImage((index + 4) % DEMO_IMAGES.length)],
        status: options.appealStatus(index),
        createdBy: creatorIds[fundraiserIndex % creatorIds.length],
        createdAt: options.createdAt(index),
      };
    }),
  );
}

/**
 * 300 donations over the last year by random donors, to what `target` picks (an appeal, or a campaign
 * with no appeal), with their Gift Aid declarations; one monthly in five, nine in ten succeeded.
 */
async function insertDemoGifts(
  db: Db,
  next: () => number,
  options: {
    nowMs: number;
    donorRows: DemoDonor[];
    donorIds: string[];
    charityOfCampaign: (campaignId: string) => string;
    target: () => { id: string | null; campaignId: string | null };
  },
) {
  const pick = <T>(items: readonly T[]) => items[Math.floor(next() * items.length)];
  const { nowMs, donorRows, donorIds } = options;
  const declarations: (typeof giftAidDeclarations.$inferInsert)[] = [];
  const donationRows: (typeof donations.$inferInsert)[] = [];
  const refunds: (typeof donationReversals.$inferInsert)[] = [];
  for (let i = 0; i < 300; i++) {
    const donorIndex = Math.floor(next() * donorIds.length);
    const donorId = donorIds[donorIndex];
    const appeal = options.target();
    const campaignId = appeal.campaignId!;
    const monthly = next() < 0.2;
    const amount = monthly ? pick([500, 1000, 2500, 5000]) : pick([500, 1000, 1500, 2000, 2500, 5000, 10000, 25000]);
    const roll = next();
    const status = roll < 0.9 ? 'succeeded' : roll < 0.94 ? 'pending' : roll < 0.97 ? 'failed' : 'refunded';
    const giftAid = next() < 0.4;
    const id = uuidFrom(next);
    let giftAidDeclarationId: string | null = null;
    if (giftAid) {
      giftAidDeclarationId = uuidFrom(next);
      const madeAt = new Date(nowMs - Math.floor(next() * 360) * DAY_MS);
      declarations.push(
        giftAidDeclarationRow({
          id: giftAidDeclarationId,
          donorId,
          ...declarantFields(donorRows[donorIndex], madeAt, options.charityOfCampaign(campaignId)),
        }),
      );
    }
    const date = new Date(nowMs - Math.floor(next() * 364 * DAY_MS));
    const ref = id.replace(/-/g, '').slice(0, 24);
    donationRows.push(
      donationRow({
        id,
        amount,
        donorId,
        campaignId,
        appealId: appeal.id,
        date,
        status,
        type: monthly ? 'monthly' : 'once',
        giftAid,
        giftAidDeclarationId,
        paymentIntentId: monthly ? null : `pi_demo_${ref}`,
        invoiceId: monthly ? `in_demo_${ref}` : null,
        // Set by monthlyGiftsOf: one subscription per donor and cause.
        subscriptionId: null,
        refundedAmount: status === 'refunded' ? amount : 0,
        failureMessage: status === 'failed' ? 'Your card was declined.' : null,
        source: 'demo',
        // The demo donors gave through the box themselves (decision 077): Top Donors names them.
        ownCheckout: true,
        createdAt: date,
      }),
    );
    // A refunded gift has the refund that took it back, as a real one would: the journal and the
    // gift's page read the money going back from here. Its id follows the gift's, so the random
    // sequence (and every other demo row) stays as it was.
    if (status === 'refunded') {
      const refundedAt = new Date(Math.min(nowMs, date.getTime() + 3 * DAY_MS));
      refunds.push({
        id: `e${id.slice(1)}`,
        donationId: id,
        kind: 'refund',
        amount,
        reason: 'requested_by_customer',
        status: 'succeeded',
        providerId: `re_demo_${ref}`,
        createdAt: refundedAt,
        succeededAt: refundedAt,
        updatedAt: refundedAt,
      });
    }
  }
  const gifts = monthlyGiftsOf(donationRows, nowMs);
  await insertInBatches(db, giftAidDeclarations, declarations);
  await insertInBatches(db, donations, donationRows);
  await insertInBatches(db, donationReversals, refunds);
  await insertInBatches(db, monthlyGifts, gifts);
}

/**
 * The monthly gift (subscription) behind each donor's monthly payments to one appeal or campaign,
 * as the payments suggest: it started with the first, gives the newest's amount, and is active when
 * the newest was paid and its next monthly date is still to come; otherwise the donor cancelled it
 * before that date (or, never paid, Stripe let it expire the next day). Sets the payments'
 * subscription id, `sub_demo` and hex as demo checkouts make them, from the first payment's id so
 * the random sequence (and every other demo row) stays as it was.
 */
function monthlyGiftsOf(
  donationRows: (typeof donations.$inferInsert)[],
  nowMs: number,
): (typeof monthlyGifts.$inferInsert)[] {
  const series = new Map<string, (typeof donations.$inferInsert)[]>();
  for (const row of donationRows) {
    if (row.type !== 'monthly') continue;
    const key = `${row.donorId} ${row.campaignId} ${row.appealId ?? ''}`;
    series.set(key, [...(series.get(key) ?? []), row]);
  }
  return [...series.values()].map((payments) => {
    payments.sort((a, b) => a.date!.getTime() - b.date!.getTime());
    const first = payments[0];
    const newest = payments[payments.length - 1];
    const id = `sub_demo${first.id!.replace(/-/g, '').slice(0, 24)}`;
    for (const payment of payments) payment.subscriptionId = id;
    const nextDue = addMonths(newest.date!, 1);
    const active = newest.status === 'succeeded' && nextDue.getTime() > nowMs;
    const everPaid = payments.some((p) => p.status === 'succeeded' || p.status === 'refunded');
    const cancelledAt = active
      ? null
      : new Date(Math.min(nowMs, everPaid ? nextDue.getTime() - 2 * DAY_MS : first.date!.getTime() + DAY_MS));
    const changedAt = cancelledAt ?? newest.date!;
    return {
      id,
      donorId: first.donorId,
      campaignId: first.campaignId,
      appealId: first.appealId ?? null,
      firstDonationId: first.id!,
      priceId: `price_demo_monthly_${newest.amount}`,
      amount: newest.amount!,
      status: active ? ('active' as const) : ('cancelled' as const),
      nextPaymentAt: active ? nextDue : null,
      startedAt: first.date!,
      cancelledAt,
      cancelledBy: active ? null : everPaid ? ('donor' as const) : ('stripe' as const),
      giftAidDeclarationId: first.giftAidDeclarationId ?? null,
      source: 'demo' as const,
      lastEventAt: Math.floor(changedAt.getTime() / 1000),
      createdAt: first.date!,
      updatedAt: changedAt,
    };
  });
}

/** One extra copy of the donors, appeals and donations (for `--scale`), deterministic per copy. */
async function seedCopy(db: Db, copy: number, ctx: CopyContext) {
  const next = rng(20261121 + copy * 7919);
  const pick = <T>(items: readonly T[]) => items[Math.floor(next() * items.length)];
  const { nowMs } = ctx;
  const donorRows = ctx.donorRows.map((donor, i) => ({
    id: uuidFrom(next),
    email: donor.email.replace('@', `.${copy}@`),
    firstName: donor.firstName,
    lastName: donor.lastName,
    type: 'donor' as const,
    phone: donor.phone,
    address: donor.address,
    city: donor.city,
    postalCode: donor.postalCode,
    country: 'United Kingdom',
    createdAt: new Date(nowMs - (380 - i * 5) * DAY_MS),
  }));
  await insertInBatches(db, users, donorRows);
  const donorIds: string[] = [];
  for (const piece of chunks(donorRows.map((d) => d.email))) {
    const stored = await db.select({ id: users.id, email: users.email }).from(users).where(inArray(users.email, piece));
    const byEmail = new Map(stored.map((u) => [u.email, u.id]));
    donorIds.push(...piece.map((email) => byEmail.get(email)!));
  }

  const appealRows = demoAppeals(next, {
    nowMs,
    copy,
    campaignRows: ctx.campaignRows,
    donorRows: ctx.donorRows,
    creatorIds: donorIds,
    appealStatus: ctx.appealStatus,
    // Older than the demo's own appeals, so the first pages of every list stay the demo's.
    createdAt: (index) => new Date(nowMs - (400 + copy) * DAY_MS - index * 60_000),
  });
  await insertInBatches(db, campaigns, appealRows);

  const approved = appealRows.filter((a) => a.status === 'approved');
  const popular = ctx.appealRows.find((a) => a.status === 'approved')!;
  await insertDemoGifts(db, next, {
    nowMs,
    donorRows,
    donorIds,
    charityOfCampaign: ctx.charityOfCampaign,
    // One gift in ten to the first approved appeal (a popular appeal), seven to another, two to a campaign.
    target: () => {
      const roll = next();
      const appeal = roll < 0.1 ? popular : roll < 0.8 ? pick(approved) : null;
      return appeal ?? { id: null, campaignId: pick(ctx.campaignRows).id };
    },
  });
}

function demoImage(index: number) {
  return { Key: DEMO_IMAGES[index], name: `cause-${index + 1}.png`, size: 0, type: 'image/png' };
}
