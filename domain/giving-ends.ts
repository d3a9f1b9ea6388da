import { addDays, formatLongUkDate, isIsoDay, londonIsoDate } from './dates';
import { DEFAULT_CAMPAIGN_DAYS } from './limits';

/**
 * When giving to a campaign or appeal ends (docs/decisions/056). An item's end date (`date.to`,
 * "YYYY-MM-DD", inclusive) is the last London day it takes gifts; an appeal also ends with its
 * campaign. A missing or empty end date never ends. The one rule for the pages, the dashboard and
 * the API: browser-safe, no dependencies.
 */

type Day = string | null | undefined;

/** The last day an item takes gifts: the earlier of its own end date and its campaign's (appeals); null when neither has one. */
export function lastGivingDay(own: Day, campaign?: Day): string | null {
  const days = [own, campaign].filter((d): d is string => typeof d === 'string' && isIsoDay(d));
  return days.length === 0 ? null : days.sort()[0];
}

/** Whether giving has ended at `now`: the last giving day is before today's date in London. */
export function hasEnded(lastDay: Day, now: Date): boolean {
  return typeof lastDay === 'string' && isIsoDay(lastDay) && lastDay < londonIsoDate(now);
}

/** An item as the API answers it: its own dates, and an appeal's campaign's end date. */
export type EndingItem = { date: { to: string | null }; campaign_date_to?: string | null };

/** The day giving to an item ended, or null while it takes gifts (an appeal ends with its campaign). */
export function givingEndedOn(item: EndingItem, now: Date): string | null {
  const last = lastGivingDay(item.date.to, item.campaign_date_to);
  return hasEnded(last, now) ? last : null;
}

/** "30 November 2026": a calendar day as people read it (noon UTC is that day in London, GMT or BST). */
export function formatLongUkDay(isoDay: string): string {
  return formatLongUkDate(new Date(`${isoDay}T12:00:00Z`));
}

/** "This appeal ended on 30 November 2026 and takes no new gifts.": the API's 409 and the page's panel say it alike. */
export function endedMessage(kind: 'campaign' | 'appeal', lastDay: string): string {
  return `This ${kind} ended on ${formatLongUkDay(lastDay)} and takes no new gifts.`;
}

/** The dates a new campaign or appeal gets when none are given: today (London) and DEFAULT_CAMPAIGN_DAYS later. */
export function defaultCampaignDates(now: Date): { from: string; to: string } {
  const today = londonIsoDate(now);
  return { from: today, to: addDays(today, DEFAULT_CAMPAIGN_DAYS) };
}
