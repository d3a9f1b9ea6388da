import { type AnySQLiteColumn, index, integer, sqliteTable, text } from 'drizzle-orm/sqlite-core';
import { createdAt, id, updatedAt } from './columns';
import { organizations } from './organizations';
import { users } from './users';

import { CAMPAIGN_STATUSES } from '../../domain/statuses';

export { CAMPAIGN_STATUSES, type CampaignStatus } from '../../domain/statuses';

export type StoredImage = { Key: string; name: string; size: number; type: string };

/**
 * Campaigns and appeals share one table (docs/decisions/002): an appeal is a row whose
 * campaign_id points at its parent campaign; a campaign has campaign_id null.
 */
export const campaigns = sqliteTable(
  'campaigns',
  {
    id: id(),
    campaignId: text('campaign_id').references((): AnySQLiteColumn => campaigns.id),
    organizationId: text('organization_id').references(() => organizations.id),
    title: text('title').notNull(),
    description: text('description').notNull().default(''),
    story: text('story').notNull().default(''),
    video: text('video'),
    dateFrom: text('date_from'),
    dateTo: text('date_to'),
    /** Goal in pence. */
    goal: integer('goal').notNull(),
    images: text('images', { mode: 'json' }).$type<StoredImage[]>().notNull().default([]),
    status: text('status', { enum: CAMPAIGN_STATUSES }).notNull().default('approved'),
    createdBy: text('created_by').references(() => users.id),
    templateCauseId: text('template_cause_id'),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    index('campaigns_list_idx').on(t.campaignId, t.status, t.createdAt),
    index('campaigns_status_idx').on(t.status, t.createdAt),
    index('campaigns_org_idx').on(t.organizationId),
    index('campaigns_created_by_idx').on(t.createdBy),
  ],
);

export const templateCauses = sqliteTable('template_causes', {
  id: id(),
  title: text('title').notNull(),
  description: text('description').notNull(),
  /** May contain [[name]], replaced by the fundraiser's full name. */
  story: text('story').notNull(),
  image: text('image'),
  createdAt: createdAt(),
});
