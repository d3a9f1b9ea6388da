import { isIsoDay, londonIsoDate } from './dates';
import { formatLongUkDay } from './giving-ends';

/**
 * When giving to a campaign or appeal opens (docs/decisions/059), the mirror of giving-ends.ts. An
 * item's start date (`date.from`, "YYYY-MM-DD") is the first London day it takes gifts; an appeal
 * also waits for its campaign. A missing or empty start date is open already. Browser-safe.
 */

type Day = string | null | undefined;

/** The first day an item takes gifts: the later of its own start date and its campaign's (appeals); null when neither has one. */
export function firstGivingDay(own: Day, campaign?: Day): string | null {
  const days = [own, campaign].filter((d): d is string => typeof d === 'string' && isIsoDay(d));
  return days.length === 0 ? null : days.sort()[days.length - 1];
}

/** Whether giving has not opened yet at `now`: the first giving day is after today's date in London. */
export function notOpenYet(firstDay: Day, now: Date): boolean {
  return typeof firstDay === 'string' && isIsoDay(firstDay) && firstDay > londonIsoDate(now);
}

/** An item as the API answers it: its own dates, and an appeal's campaign's start date. */
export type OpeningItem = { date: { from: string | null }; campaign_date_from?: string | null };

/** The day giving to an item opens, or null when it takes gifts already (an appeal also waits for its campaign). */
export function givingOpensOn(item: OpeningItem, now: Date): string | null {
  const first = firstGivingDay(item.date.from, item.campaign_date_from);
  return notOpenYet(first, now) ? first : null;
}

/**
 * Why an appeal may not start on `from`: after its campaign's last day it could never take a gift
 * (decision 059's amendment). The API's 400 and the editor's note say it alike; null when it may.
 */
export function startsAfterCampaignEnds(from: Day, campaignTo: Day): string | null {
  if (!from || !campaignTo || from <= campaignTo) return null;
  return `the campaign takes gifts until ${formatLongUkDay(campaignTo)}; an appeal starting after that could never take one`;
}

/** "This appeal opens for gifts on 1 December 2026.": the API's 409 and the page's panel say it alike. */
export function opensMessage(kind: 'campaign' | 'appeal', firstDay: string): string {
  return `This ${kind} opens for gifts on ${formatLongUkDay(firstDay)}.`;
}

// Built once: constructing an Intl formatter costs far more than formatting with it (every card uses this).
const shortUkDay = new Intl.DateTimeFormat('en-GB', {
  timeZone: 'UTC',
  day: 'numeric',
  month: 'short',
  year: 'numeric',
});

/** "1 Dec 2026": a calendar day short enough for a card's marker (noon UTC is that day in London). */
export function formatShortUkDay(isoDay: string): string {
  return shortUkDay.format(new Date(`${isoDay}T12:00:00Z`));
}
