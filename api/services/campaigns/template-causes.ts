import { asc } from 'drizzle-orm';
import type { Db } from '../../../db/client';
import { templateCauses } from '../../../db/schema';
import type { z } from '@hono/zod-openapi';
import type { TemplateCauseSchema } from '../../schemas';

/** Starting points for a fundraiser's appeal, oldest first; [[name]] in the story is filled in by the editor. */
export async function listTemplateCauses(db: Db): Promise<z.infer<typeof TemplateCauseSchema>[]> {
  const rows = await db
    .select()
    .from(templateCauses)
    .orderBy(asc(templateCauses.createdAt), asc(templateCauses.title))
    .limit(100);
  return rows.map((row) => ({
    _id: row.id,
    title: row.title,
    description: row.description,
    story: row.story,
    image: row.image,
    campaign_id: row.campaignId,
  }));
}
