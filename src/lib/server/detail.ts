import {
  campaignByIdQuery,
  campaignIdOfAppeal,
  preparedCampaignById,
  preparedPublicList,
  listCampaignsQuery,
  toCampaignDto,
  visibleCampaignDto,
  type CampaignDto,
} from '../../../api/services/campaigns/read';
import {
  latestMessagesQuery,
  toPublicMessage,
  type PublicMessage,
} from '../../../api/services/messages/support-messages';
import { preparedTopDonors, toTopDonors, type TopDonor } from '../../../api/services/campaigns/top-donors';
import { sql } from 'drizzle-orm';
import type { Db } from '../../../db/client';
import { preparedRead } from '../../../db/prepared';
import { parseId } from '../../../domain/ids';
import { type AppConfig, readConfig } from '../../../api/lib/config';
import { charityFromOrganization, organizationOfCampaignQuery } from '../../../api/services/organizations/charity';

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
/** Where the page's id goes in its prepared reads (db/prepared.ts): built once, run per render. */
const ID = sql.placeholder('id');

/**
 * Everything a public detail page shows, as an anonymous visitor sees it: null when the item is
 * missing, not approved, of the other kind, or (with campaignId) not under that campaign.
 * Every read goes in one db.batch (one round trip to Turso or D1), the receiving charity's identity
 * included; an appeal page names its campaign by a subquery on the appeal (campaignIdOfAppeal).
 * The reads are prepared once per database (db/prepared.ts): a render only binds the id.
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
      preparedCampaignById(db, id),
      preparedPublicList(db, { kind: 'appeal', parentId: id, limit: RELATED_LIMIT }),
      preparedTopDonors(db, { campaignId: id }),
      preparedRead(db, 'detail:campaign-charity', () => organizationOfCampaignQuery(db, ID), { id }),
    ]);
    const item = visibleCampaignDto(row, null);
    if (!item || item.kind !== kind) return null;
    if (campaignId !== undefined && parseId(campaignId) !== item.campaign_id) return null;
    const charityName = charityFromOrganization(organization, config).legalName;
    return {
      item,
      parent: null,
      related: related.map(toCampaignDto),
      donors: toTopDonors(donors),
      charityName,
      messages: [],
    };
  }
  // The campaign is named by a subquery on the appeal, so everything is one round trip.
  const parentId = campaignIdOfAppeal(ID);
  const [[row], [parentRow], related, donors, messages, [organization]] = await db.batch([
    preparedCampaignById(db, id),
    preparedRead(db, 'detail:appeal-campaign', () => campaignByIdQuery(db, parentId), { id }),
    preparedRead(
      db,
      'detail:appeal-siblings',
      () => listCampaignsQuery(db, { kind: 'appeal', parentId, viewer: null, limit: RELATED_LIMIT, excludeId: ID }),
      { id },
    ),
    preparedTopDonors(db, { appealId: id }),
    preparedRead(db, 'detail:appeal-messages', () => latestMessagesQuery(db, { appealId: ID }), { id }),
    // Gifts to an appeal go to its campaign's charity.
    preparedRead(db, 'detail:appeal-charity', () => organizationOfCampaignQuery(db, parentId), { id }),
  ]);
  const item = visibleCampaignDto(row, null);
  if (!item || item.kind !== kind) return null;
  if (campaignId !== undefined && parseId(campaignId) !== item.campaign_id) return null;
  // An approved appeal under a campaign that is no longer public is not public either.
  const parent = visibleCampaignDto(parentRow, null);
  if (!parent) return null;
  return {
    item,
    parent,
    related: related.map(toCampaignDto),
    donors: toTopDonors(donors),
    charityName: charityFromOrganization(organization, config).legalName,
    messages: messages.map(toPublicMessage),
  };
}
