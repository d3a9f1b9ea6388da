import { accountingPeriodOf, formatHmrcDate, GIFT_AID_LIMITS, hmrcLastName, penceToDecimal } from '../../../domain';

/**
 * HMRC's Gift Aid schedule (Charities Online): building its lines from claimed gifts and writing
 * them as CSV in the spreadsheet's column order. Pure functions, no database.
 */

export const SCHEDULE_COLUMNS = [
  'Title',
  'First name',
  'Last name',
  'House name or number',
  'Postcode',
  'Aggregated donations',
  'Sponsored event',
  'Donation date',
  'Amount',
] as const;

export type ScheduleGift = {
  donationId: string;
  declarationId: string;
  /** Net pence claimed on. */
  amount: number;
  date: Date;
  title: string | null;
  firstName: string;
  lastName: string;
  house: string;
  postcode: string;
  /** The rest of the address (used on the house field for a donor abroad). */
  address?: string;
  /** Given to a sponsored event: "Yes" on its own line, never aggregated. */
  sponsored?: boolean;
  /** Lives outside the UK: postcode X, the address in the house field. */
  overseas?: boolean;
};

/** HMRC: a donor abroad has postcode "X" and their address in the house name or number field. */
export const OVERSEAS_POSTCODE = 'X';

export type ScheduleLine = {
  line: number;
  title: string;
  firstName: string;
  lastName: string;
  house: string;
  postcode: string;
  aggregated: string;
  sponsored: boolean;
  donationDate: Date;
  amountPence: number;
  gifts: ScheduleGift[];
};

/**
 * The description of an aggregated line, at most 35 characters (HMRC): "Gifts of 20 pounds or less
 * 2026-27". Plain ASCII, so no spreadsheet's encoding guess can mangle a £ sign.
 */
export function aggregateDescription(taxYearLabel: string): string {
  return `Gifts of 20 pounds or less ${taxYearLabel}`.slice(0, GIFT_AID_LIMITS.aggregateDescriptionMax);
}

const cut = (value: string | null, max: number) => (value ?? '').trim().slice(0, max);

function donorLine(gift: ScheduleGift): Omit<ScheduleLine, 'line'> {
  const house = gift.overseas ? [gift.house, gift.address].filter((part) => part?.trim()).join(', ') : gift.house;
  return {
    title: cut(gift.title, GIFT_AID_LIMITS.titleMax),
    firstName: cut(gift.firstName, GIFT_AID_LIMITS.nameMax),
    lastName: cut(hmrcLastName(gift.lastName), GIFT_AID_LIMITS.nameMax),
    house: cut(house, GIFT_AID_LIMITS.houseMax),
    postcode: gift.overseas ? OVERSEAS_POSTCODE : gift.postcode,
    aggregated: '',
    sponsored: gift.sponsored === true,
    donationDate: gift.date,
    amountPence: gift.amount,
    gifts: [gift],
  };
}

/**
 * Lines for gifts in date order. With `aggregate`, gifts of £20 or less are added together per
 * accounting period of the organization (`yearEnd`, "MM-DD"; HMRC: only gifts of one accounting
 * period may share a line) into lines of at most £1,000, dated with their latest gift and listed
 * after the donors' own lines. Sponsored-event gifts are never aggregated. At most `maxLines`
 * lines: gifts that do not fit stay unclaimed for the next claim.
 */
export function buildScheduleLines(
  gifts: ScheduleGift[],
  options: { aggregate: boolean; maxLines?: number; yearEnd?: string },
): ScheduleLine[] {
  const yearEnd = options.yearEnd ?? '04-05';
  const maxLines = options.maxLines ?? GIFT_AID_LIMITS.claimRowsMax;
  const sorted = [...gifts].sort(
    (a, b) => a.date.getTime() - b.date.getTime() || a.donationId.localeCompare(b.donationId),
  );
  const lines: Omit<ScheduleLine, 'line'>[] = [];
  const small: ScheduleGift[] = [];
  for (const gift of sorted) {
    if (options.aggregate && !gift.sponsored && gift.amount <= GIFT_AID_LIMITS.aggregateGiftMaxPence) small.push(gift);
    else lines.push(donorLine(gift));
  }
  const byYear = new Map<string, ScheduleGift[]>();
  for (const gift of small) {
    const label = accountingPeriodOf(gift.date, yearEnd).label;
    byYear.set(label, [...(byYear.get(label) ?? []), gift]);
  }
  for (const [label, yearGifts] of byYear) {
    let current: ScheduleGift[] = [];
    let sum = 0;
    const flush = () => {
      if (!current.length) return;
      lines.push({
        title: '',
        firstName: '',
        lastName: '',
        house: '',
        postcode: '',
        aggregated: aggregateDescription(label),
        sponsored: false,
        donationDate: current[current.length - 1].date,
        amountPence: sum,
        gifts: current,
      });
      current = [];
      sum = 0;
    };
    for (const gift of yearGifts) {
      if (sum + gift.amount > GIFT_AID_LIMITS.aggregateLineMaxPence) flush();
      current.push(gift);
      sum += gift.amount;
    }
    flush();
  }
  return lines.slice(0, maxLines).map((line, index) => ({ ...line, line: index + 1 }));
}

export type CsvRow = Pick<
  ScheduleLine,
  | 'title'
  | 'firstName'
  | 'lastName'
  | 'house'
  | 'postcode'
  | 'aggregated'
  | 'sponsored'
  | 'donationDate'
  | 'amountPence'
>;

/** RFC 4180: quote a field that holds a comma, a quote or a line break. */
function csvField(value: string): string {
  return /[",\r\n]/.test(value) ? `"${value.replace(/"/g, '""')}"` : value;
}

/**
 * The schedule as CSV with CRLF line endings: a header row, then one row per line, dates as
 * DD/MM/YY (London), amounts with two decimals and no £ sign, blank where a field does not apply.
 */
export function scheduleCsv(rows: CsvRow[]): string {
  const out = [SCHEDULE_COLUMNS.join(',')];
  for (const row of rows) {
    out.push(
      [
        row.title,
        row.firstName,
        row.lastName,
        row.house,
        row.postcode,
        row.aggregated,
        row.sponsored ? 'Yes' : '',
        formatHmrcDate(row.donationDate),
        penceToDecimal(row.amountPence),
      ]
        .map(csvField)
        .join(','),
    );
  }
  return `${out.join('\r\n')}\r\n`;
}
