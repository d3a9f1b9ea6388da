/** Spec "Share links": appeals (items with a campaign_id) at /appeals/{short id}, else /campaigns/{short id}. */
export function sharePath(item: { short_id: string; campaign_id: string | null }): string {
  return item.campaign_id ? `/appeals/${item.short_id}` : `/campaigns/${item.short_id}`;
}

export function shareUrl(origin: string, item: { short_id: string; campaign_id: string | null }): string {
  return `${origin.replace(/\/+$/, '')}${sharePath(item)}`;
}
