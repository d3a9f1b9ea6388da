import { getCampaign, listCampaigns, type CampaignDto } from '../../../api/services/campaigns';
import { latestMessages, type PublicMessage } from '../../../api/services/support-messages';
import { topDonors, type TopDonor } from '../../../api/services/top-donors';
import type { Db } from '../../../db/client';
import { parseId } from '../../../db/ids';
import { receivingCharityName } from './charity';

export type DetailData = {
  item: CampaignDto;
  /** The campaign an appeal belongs to (null for a campaign). */
  parent: CampaignDto | null;
  /** Similar appeals (same campaign) for an appeal; the campaign's appeals for a campaign. */
  related: CampaignDto[];
  donors: TopDonor[];
  /** Latest messages of support (appeals only; empty for a campaign). */
  messages: PublicMessage[];
  /** Legal name of the receiving charity (the Gift Aid declaration names it). */
  charityName: string;
};

const RELATED_LIMIT = 9;

/**
 * Everything a public detail page shows, as an anonymous visitor sees it: null when the item is
 * missing, not approved, of the other kind, or (with campaignId) not under that campaign.
 */
export async function loadDetail(
  db: Db,
  kind: 'campaign' | 'appeal',
  id: string,
  campaignId?: string,
): Promise<DetailData | null> {
  const item = await getCampaign(db, id, null);
  if (!item || item.kind !== kind) return null;
  if (campaignId !== undefined && parseId(campaignId) !== item.campaign_id) return null;
  if (kind === 'campaign') {
    const [related, donors, charityName] = await Promise.all([
      listCampaigns(db, { kind: 'appeal', parentId: item._id, viewer: null, limit: RELATED_LIMIT }),
      topDonors(db, { campaignId: item._id }),
      receivingCharityName(db, item.organization_id),
    ]);
    return { item, parent: null, related, donors, charityName, messages: [] };
  }
  const [parent, related, donors, messages] = await Promise.all([
    getCampaign(db, item.campaign_id!, null),
    listCampaigns(db, { kind: 'appeal', parentId: item.campaign_id!, viewer: null, limit: RELATED_LIMIT, excludeId: item._id }),
    topDonors(db, { appealId: item._id }),
    latestMessages(db, { appealId: item._id }),
  ]);
  // An approved appeal under a campaign that is no longer public is not public either.
  if (!parent) return null;
  return { item, parent, related, donors, messages, charityName: await receivingCharityName(db, parent.organization_id) };
}
