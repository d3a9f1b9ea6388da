/**
 * Gift Aid wording and rules. Browser-safe: the donation box imports this module.
 */
import { londonMidnight, londonParts } from './dates';
import { giftAidOn } from './money';
import { normalizeUkPostcode } from './postcode';

/** HMRC's model declaration for one charity; stored verbatim with every declaration a donor accepts. */
export function giftAidDeclaration(charityLegalName: string): string {
  return (
    'I want to Gift Aid my donation and any donations I make in the future or have made in the past 4 years to ' +
    `${charityLegalName}. I am a UK taxpayer and understand that if I pay less Income Tax and/or Capital Gains Tax than the ` +
    'amount of Gift Aid claimed on all my donations in that tax year it is my responsibility to pay any difference.'
  );
}

/** The platform's own charity, the receiver when no organization says otherwise. */
export const DEFAULT_CHARITY_NAME = 'UK NFP';

/** The declaration for the default charity (kept for callers that have no organization at hand). */
export const GIFT_AID_DECLARATION = giftAidDeclaration(DEFAULT_CHARITY_NAME);

export const GIFT_AID_BOOST_TEXT = 'Boost your donation by 25p of Gift Aid for every £1 you donate';

/**
 * HMRC Charities Online schedule limits (gov.uk "Schedule spreadsheet to claim back tax on Gift Aid
 * donations"): title at most 4 characters, names at most 35, an aggregated line describes itself in
 * at most 35 characters and holds gifts of £20 or less up to £1,000 in total.
 */
export const GIFT_AID_LIMITS = {
  titleMax: 4,
  nameMax: 35,
  houseMax: 40,
  addressMax: 200,
  aggregateGiftMaxPence: 2_000,
  aggregateLineMaxPence: 100_000,
  aggregateDescriptionMax: 35,
  /** Rows in one claim (one schedule upload). */
  claimRowsMax: 1_000,
  /** A declaration may cover gifts from the past 4 years. */
  pastYears: 4,
  /** Records are kept this many years after the end of the claim's accounting period. */
  retentionYears: 6,
} as const;

/** draft → submitted → paid; submitted → rejected (HMRC's reason) → submitted again; a draft can be voided. */
export const GIFT_AID_CLAIM_STATUSES = ['draft', 'submitted', 'paid', 'rejected', 'void'] as const;
export type GiftAidClaimStatus = (typeof GIFT_AID_CLAIM_STATUSES)[number];

/** What each claim status may become, and through which action. Never backwards; void and paid are final. */
export const GIFT_AID_CLAIM_TRANSITIONS: Record<GiftAidClaimStatus, readonly GiftAidClaimStatus[]> = {
  draft: ['submitted', 'void'],
  submitted: ['paid', 'rejected'],
  rejected: ['submitted'],
  paid: [],
  void: [],
};

export function canMoveClaim(from: GiftAidClaimStatus, to: GiftAidClaimStatus): boolean {
  return GIFT_AID_CLAIM_TRANSITIONS[from].includes(to);
}

/** The message for a status change a claim cannot make. */
export function claimMoveRefusal(from: GiftAidClaimStatus, to: GiftAidClaimStatus): string {
  const allowed = GIFT_AID_CLAIM_TRANSITIONS[from];
  return `status: a ${from} claim cannot become ${to}; it can only become ${allowed.join(' or ') || 'nothing else'}`;
}

/**
 * HMRC's donor benefit limits (Gift Aid guidance chapter 3.11, from 6 April 2019): benefits worth
 * at most 25% of a gift of £100 or less; £25 plus 5% of the amount above £100 for larger gifts;
 * at most £2,500 in total from one charity in a tax year. Above that the gift is not eligible.
 */
export function benefitLimitPence(donationPence: number): number {
  if (donationPence <= 10_000) return Math.floor(donationPence / 4);
  return Math.min(2_500 + Math.floor((donationPence - 10_000) / 20), 250_000);
}

/**
 * Gift Aid Small Donations Scheme (HMRC GASDS guidance): cash or contactless gifts of £30 or less
 * without a declaration; a top-up of 25% on at most £8,000 of them a tax year per charity, and on
 * no more than 10 times the Gift Aid donations the charity claimed in the same tax year.
 */
export const GASDS_LIMITS = {
  smallDonationMaxPence: 3_000,
  annualDonationsMaxPence: 800_000,
  matchingMultiple: 10,
} as const;
export const GASDS_METHODS = ['cash', 'contactless'] as const;

/** An organization's accounting year end: "MM-DD" (04-05 is the tax year). 29 February is refused: not every year has it. */
export function isAccountingYearEnd(value: string): boolean {
  const match = /^(\d{2})-(\d{2})$/.exec(value);
  if (!match) return false;
  const month = Number(match[1]);
  const day = Number(match[2]);
  const days = [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];
  return month >= 1 && month <= 12 && day >= 1 && day <= days[month - 1];
}

const pad2 = (n: number) => String(n).padStart(2, '0');

/**
 * The accounting period an instant falls in (London days) for a year ending on `yearEnd` ("MM-DD"):
 * `end` is exclusive (midnight after the year-end day); the label is "2025-26", or "2026" when the
 * period is a calendar year.
 */
export function accountingPeriodOf(
  date: Date,
  yearEnd: string,
): { label: string; start: Date; end: Date; endDay: string } {
  const safeEnd = isAccountingYearEnd(yearEnd) ? yearEnd : '04-05';
  const [endMonth, endDay] = safeEnd.split('-').map(Number);
  const p = londonParts(date);
  const endYear = p.month < endMonth || (p.month === endMonth && p.day <= endDay) ? p.year : p.year + 1;
  const after = (year: number) => {
    const next = new Date(Date.UTC(year, endMonth - 1, endDay + 1));
    return `${next.getUTCFullYear()}-${pad2(next.getUTCMonth() + 1)}-${pad2(next.getUTCDate())}`;
  };
  const startDay = after(endYear - 1);
  const startYear = Number(startDay.slice(0, 4));
  return {
    label: startYear === endYear ? String(endYear) : `${startYear}-${pad2(endYear % 100)}`,
    start: londonMidnight(startDay),
    end: londonMidnight(after(endYear)),
    endDay: `${endYear}-${safeEnd}`,
  };
}

/**
 * How a declaration was made: online with a donation, on paper, or orally (eligible only once a written
 * confirmation was sent). `admin`: recorded by staff before paper and oral were told apart.
 */
export const GIFT_AID_DECLARATION_METHODS = ['online', 'paper', 'oral', 'admin'] as const;
export type GiftAidDeclarationMethod = (typeof GIFT_AID_DECLARATION_METHODS)[number];

/** Letters (any alphabet), spaces, apostrophes, hyphens and full stops, starting with a letter: what HMRC's schedule accepts. */
const NAME_PATTERN = /^\p{L}[\p{L}' .\-]*$/u;
const TITLE_PATTERN = /^\p{L}[\p{L}.]*$/u;
/** A house name or number: starts with a letter or digit (never a spreadsheet formula). */
const HOUSE_PATTERN = /^[\p{L}\p{N}][\p{L}\p{N}' .,/\-&]*$/u;

export type GiftAidDetailsInput = {
  title?: string | null;
  first_name: string;
  last_name: string;
  house: string;
  address?: string | null;
  postcode: string;
};

export type GiftAidDetails = {
  title: string | null;
  firstName: string;
  lastName: string;
  house: string;
  address: string;
  postcode: string;
};

export type GiftAidProblem = { field: keyof GiftAidDetailsInput; message: string };

const squash = (value: string | null | undefined) => (value ?? '').trim().replace(/\s+/g, ' ');

/**
 * The one check of a donor's Gift Aid details, run by the donation box as the donor types and by
 * the API before anything is stored. Returns the cleaned details or every problem, each naming its field.
 */
export function checkGiftAidDetails(
  input: GiftAidDetailsInput,
  options: { overseas?: boolean } = {},
): { ok: true; details: GiftAidDetails } | { ok: false; problems: GiftAidProblem[] } {
  const problems: GiftAidProblem[] = [];
  const title = squash(input.title);
  const firstName = squash(input.first_name);
  const lastName = squash(input.last_name);
  const house = squash(input.house);
  const address = squash(input.address);
  const { titleMax, nameMax, houseMax, addressMax } = GIFT_AID_LIMITS;
  if (title.length > titleMax)
    problems.push({ field: 'title', message: `title: at most ${titleMax} characters, like Mr, Mrs, Dr or Prof` });
  else if (title && !TITLE_PATTERN.test(title))
    problems.push({ field: 'title', message: 'title: letters only, like Mr, Mrs, Dr or Prof' });
  if (!firstName) problems.push({ field: 'first_name', message: 'first_name: enter your first name (or initial)' });
  else if (firstName.length > nameMax)
    problems.push({ field: 'first_name', message: `first_name: at most ${nameMax} characters` });
  else if (!NAME_PATTERN.test(firstName))
    problems.push({ field: 'first_name', message: 'first_name: use letters, spaces, apostrophes and hyphens only' });
  if (!lastName) problems.push({ field: 'last_name', message: 'last_name: enter your last name' });
  else if (lastName.length > nameMax)
    problems.push({ field: 'last_name', message: `last_name: at most ${nameMax} characters` });
  else if (!NAME_PATTERN.test(lastName))
    problems.push({ field: 'last_name', message: 'last_name: use letters, spaces, apostrophes and hyphens only' });
  // HMRC takes an initial for the first name but not for the last.
  else if (lastName.length < 2)
    problems.push({ field: 'last_name', message: 'last_name: HMRC needs your whole last name, not an initial' });
  if (!house) problems.push({ field: 'house', message: 'house: enter your house name or number' });
  else if (house.length > houseMax) problems.push({ field: 'house', message: `house: at most ${houseMax} characters` });
  else if (!HOUSE_PATTERN.test(house))
    problems.push({ field: 'house', message: 'house: start with a letter or number, like 12 or Rose Cottage' });
  if (address.length > addressMax)
    problems.push({ field: 'address', message: `address: at most ${addressMax} characters` });
  // A donor abroad has no UK postcode: HMRC's schedule shows X for them.
  const postcode = options.overseas
    ? squash(input.postcode).toUpperCase().slice(0, 20)
    : normalizeUkPostcode(input.postcode ?? '');
  if (!options.overseas && !postcode)
    problems.push({ field: 'postcode', message: 'postcode: enter a UK postcode, for example SW1A 1AA' });
  if (problems.length) return { ok: false, problems };
  return { ok: true, details: { title: title || null, firstName, lastName, house, address, postcode: postcode ?? '' } };
}

/** HMRC: a double-barrelled surname goes on the schedule with a space instead of the hyphen. */
export function hmrcLastName(lastName: string): string {
  return lastName
    .replace(/\s*-\s*/g, ' ')
    .replace(/\s+/g, ' ')
    .trim();
}

/** What a gift is worth to the charity with Gift Aid: the gift plus 25% (rounded down to the penny). */
export function withGiftAid(pence: number): number {
  return pence + giftAidOn(pence);
}
