import type { Db } from '../client';
import { campaigns } from '../schema';
import { unique } from './unique';

type CampaignInsert = typeof campaigns.$inferInsert;

/** An approved campaign with one demo image; with `campaignId` set it is an appeal under that campaign. */
export function campaignRow(fields: Partial<CampaignInsert> = {}): CampaignInsert {
  return {
    title: `Campaign ${unique()}`,
    description: 'A test campaign',
    story: 'Line one\nLine two',
    goal: 100_000,
    status: 'approved',
    images: [{ Key: '/images/demo/cause-1.png', name: 'cause-1.png', size: 0, type: 'image/png' }],
    ...fields,
  };
}

export async function createCampaign(db: Db, fields: Partial<CampaignInsert> = {}) {
  const [row] = await db.insert(campaigns).values(campaignRow(fields)).returning();
  return row;
}

export async function createAppeal(db: Db, campaignId: string, fields: Partial<CampaignInsert> = {}) {
  return createCampaign(db, { title: `Appeal ${unique()}`, goal: 50_000, campaignId, ...fields });
}
