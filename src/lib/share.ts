import { formatPenceShort } from '../../domain/money';

/** Spec "Share links": appeals (items with a campaign_id) at /appeals/{short id}, else /campaigns/{short id}. */
export function sharePath(item: { short_id: string; campaign_id: string | null }): string {
  return item.campaign_id ? `/appeals/${item.short_id}` : `/campaigns/${item.short_id}`;
}

export function shareUrl(origin: string, item: { short_id: string; campaign_id: string | null }): string {
  return `${origin.replace(/\/+$/, '')}${sharePath(item)}`;
}

/**
 * The line a share sheet sends with the link (a message app shows it above the preview): the goal
 * the cause is working toward, nothing invented. No goal set: the title alone.
 */
export function shareText(item: { title: string; goal: number | null }): string {
  return item.goal && item.goal > 0 ? `Help ${item.title} reach ${formatPenceShort(item.goal)}` : item.title;
}
