import { asc } from 'drizzle-orm';
import { templateCauses } from '../../../db/schema';
import { createRouter } from '../../lib/create-app';

/** Starting points for a fundraiser's appeal; [[name]] in the story is filled in by the editor. */
export const templateCausesRouter = createRouter().get('/template-causes', async (c) => {
  const rows = await c.var.db
    .select()
    .from(templateCauses)
    .orderBy(asc(templateCauses.createdAt), asc(templateCauses.title))
    .limit(100);
  return c.json(
    rows.map((row) => ({ _id: row.id, title: row.title, description: row.description, story: row.story, image: row.image })),
  );
});
