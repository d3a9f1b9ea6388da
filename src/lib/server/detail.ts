import {
  campaignByIdQuery,
  listCampaignsQuery,
  toCampaignDto,
  visibleCampaignDto,
  type CampaignDto,
} from '../../../api/services/campaigns';
import { latestMessagesQuery, toPublicMessage, type PublicMessage } from '../../../api/services/support-messages';
import { topDonorsQuery, toTopDonor, type TopDonor } from '../../../api/services/top-donors';
import type { Db } from '../../../db/client';
import { parseId } from '../../../db/ids';
import { type AppConfig, readConfig } from '../../../api/lib/config';
import { charityFromOrganization, organizationOfCampaignQuery } from '../../../api/services/charity';

export type DetailData = {
  item: CampaignDto;
  /** The campaign an appeal belongs to (null for a campaign). */
  parent: CampaignDto | null;
  /** Similar appeals (same campaign) for an appeal; the campaign's appeals for a campaign. */
  related: CampaignDto[];
  donors: TopDonor[];
  /** Legal name of the receiving charity (the Gift Aid declaration names it). */
  charityName: string;
  /** Latest messages of support (appeals only; empty for a campaign). */
  messages: PublicMessage[];
};

const RELATED_LIMIT = 9;

/**
 * Everything a public detail page shows, as an anonymous visitor sees it: null when the item is
 * missing, not approved, of the other kind, or (with campaignId) not under that campaign.
 * Independent reads go in one db.batch (one round trip to Turso or D1), the receiving charity's
 * identity included: a campaign page needs one, an appeal page two (its parent decides the second).
 */
export async function loadDetail(
  db: Db,
  kind: 'campaign' | 'appeal',
  idParam: string,
  campaignId?: string,
  config: Pick<AppConfig, 'charity'> = readConfig({}),
): Promise<DetailData | null> {
  const id = parseId(idParam);
  if (!id) return null;
  if (kind === 'campaign') {
    const [[row], related, donors, [organization]] = await db.batch([
      campaignByIdQuery(db, id),
      listCampaignsQuery(db, { kind: 'appeal', parentId: id, viewer: null, limit: RELATED_LIMIT }),
      topDonorsQuery(db, { campaignId: id }),
      organizationOfCampaignQuery(db, id),
    ]);
    const item = visibleCampaignDto(row, null);
    if (!item || item.kind !== kind) return null;
    if (campaignId !== undefined && parseId(campaignId) !== item.campaign_id) return null;
    const charityName = charityFromOrganization(organization, config).legalName;
    return { item, parent: null, related: related.map(toCampaignDto), donors: donors.map(toTopDonor), charityName, messages: [] };
  }
  const [row] = await campaignByIdQuery(db, id);
  const item = visibleCampaignDto(row, null);
  if (!item || item.kind !== kind) return null;
  if (campaignId !== undefined && parseId(campaignId) !== item.campaign_id) return null;
  const [[parentRow], related, donors, messages, [organization]] = await db.batch([
    campaignByIdQuery(db, item.campaign_id!),
    listCampaignsQuery(db, { kind: 'appeal', parentId: item.campaign_id!, viewer: null, limit: RELATED_LIMIT, excludeId: item._id }),
    topDonorsQuery(db, { appealId: item._id }),
    latestMessagesQuery(db, { appealId: item._id }),
    // Gifts to an appeal go to its campaign's charity.
    organizationOfCampaignQuery(db, item.campaign_id!),
  ]);
  // An approved appeal under a campaign that is no longer public is not public either.
  const parent = visibleCampaignDto(parentRow, null);
  if (!parent) return null;
  return {
    item,
    parent,
    related: related.map(toCampaignDto),
    donors: donors.map(toTopDonor),
    charityName: charityFromOrganization(organization, config).legalName,
    messages: messages.map(toPublicMessage),
  };
}
