import { and, asc, count, eq, inArray, isNull, ne } from 'drizzle-orm';
import { chunks } from '../../../db/chunks';
import type { Db } from '../../../db/client';
import { campaigns, templateCauses } from '../../../db/schema';
import { hasEnded } from '../../../domain/giving-ends';
import { parseId } from '../../../domain/ids';
import type { z } from '@hono/zod-openapi';
import { badRequest, notFound } from '../../lib/errors';
import type { AuditedWriteContext } from '../../lib/service-context';
import type { TemplateCauseSchema } from '../../schemas';
import type { TemplateCauseCreate, TemplateCauseUpdate } from '../../schemas/template-causes';
import { auditInsert, changedFields, staffActor } from '../audit/append';

type TemplateCauseDto = z.infer<typeof TemplateCauseSchema>;
type TemplateCauseRow = typeof templateCauses.$inferSelect;

/** More causes than a fundraiser could choose between; the list stops here. */
const MAX_LISTED = 100;

/** The tied campaign as the cause's card names it: only while it is on the site and takes appeals. */
type TiedCampaign = { title: string | null; status: string | null; dateTo: string | null } | null;

const toDto = (row: TemplateCauseRow, campaign: TiedCampaign = null, now = new Date()): TemplateCauseDto => ({
  _id: row.id,
  title: row.title,
  description: row.description,
  story: row.story,
  image: row.image,
  campaign_id: row.campaignId,
  campaign_title:
    campaign?.title && campaign.status === 'approved' && !hasEnded(campaign.dateTo, now) ? campaign.title : null,
  retired_at: row.retiredAt ? row.retiredAt.toISOString() : null,
});

/**
 * Starting points for a fundraiser's appeal, oldest first; [[name]] in the story is filled in by the
 * editor. Only the causes still offered, unless `withRetired` (the admins' screen, decision 074).
 */
/** Causes with the campaign each is tied to, for toDto. */
const withCampaign = (db: Db) =>
  db
    .select({
      cause: templateCauses,
      campaign: { title: campaigns.title, status: campaigns.status, dateTo: campaigns.dateTo },
    })
    .from(templateCauses)
    .leftJoin(campaigns, eq(campaigns.id, templateCauses.campaignId));

export async function listTemplateCauses(
  db: Db,
  { withRetired = false, now = new Date() } = {},
): Promise<TemplateCauseDto[]> {
  const joined = await withCampaign(db)
    .where(withRetired ? undefined : isNull(templateCauses.retiredAt))
    .orderBy(asc(templateCauses.createdAt), asc(templateCauses.title))
    .limit(MAX_LISTED);
  const dtos = joined.map(({ cause, campaign }) => toDto(cause, campaign, now));
  const rows = joined.map(({ cause }) => cause);
  if (!withRetired || !rows.length) return dtos;
  // The admins decide what to retire knowing how much each cause is used (campaigns_template_cause_idx).
  const pieces = await Promise.all(
    chunks(rows.map((row) => row.id)).map((ids) =>
      db
        .select({ cause: campaigns.templateCauseId, appeals: count() })
        .from(campaigns)
        .where(and(inArray(campaigns.templateCauseId, ids), ne(campaigns.status, 'deleted')))
        .groupBy(campaigns.templateCauseId),
    ),
  );
  const started = pieces.flat();
  const appeals = new Map(started.map((row) => [row.cause, row.appeals]));
  return dtos.map((dto) => ({ ...dto, appeals_started: appeals.get(dto._id) ?? 0 }));
}

/** One cause as the API answers it, after a write. */
async function readTemplateCause(db: Db, id: string, now: Date): Promise<TemplateCauseDto> {
  const [{ cause, campaign }] = await withCampaign(db).where(eq(templateCauses.id, id)).limit(1);
  return toDto(cause, campaign, now);
}

async function findTemplateCause(db: Db, idOrShort: string): Promise<TemplateCauseRow> {
  const id = parseId(idOrShort);
  const [row] = id ? await db.select().from(templateCauses).where(eq(templateCauses.id, id)).limit(1) : [];
  if (!row) throw notFound('No template cause with this id');
  return row;
}

/**
 * The campaign a cause raises for: a campaign (not an appeal) that is not deleted. A draft is allowed:
 * the editor offers it only once it is on the site (templateCampaign), so a cause can be readied first.
 */
async function checkCampaign(db: Db, idOrShort: string | null): Promise<string | null> {
  if (idOrShort === null) return null;
  const id = parseId(idOrShort);
  const [row] = id
    ? await db
        .select({ id: campaigns.id, parent: campaigns.campaignId, status: campaigns.status, kind: campaigns.kind })
        .from(campaigns)
        .where(eq(campaigns.id, id))
        .limit(1)
    : [];
  if (!row) throw badRequest('campaign_id: no campaign with this id');
  if (row.parent) throw badRequest('campaign_id: this is an appeal; choose the campaign it raises for');
  if (row.status === 'deleted') throw badRequest('campaign_id: this campaign is deleted; choose another or none');
  // A general fund takes no appeals (it is never listed): "none" already leaves the choice to the fundraiser.
  if (row.kind === 'general_fund') throw badRequest('campaign_id: this is a general fund, which takes no appeals');
  return row.id;
}

/** A new cause, offered on /fund-raising at once; its audit row is stored with it. */
export async function createTemplateCause(ctx: AuditedWriteContext, input: TemplateCauseCreate, now = new Date()) {
  const { db } = ctx;
  const row: TemplateCauseRow = {
    id: crypto.randomUUID(),
    title: input.title,
    description: input.description,
    story: input.story,
    image: null,
    campaignId: await checkCampaign(db, input.campaign_id ?? null),
    retiredAt: null,
    createdAt: now,
  };
  const recorded = { title: row.title, description: row.description, story: row.story, campaignId: row.campaignId };
  await db.batch([
    db.insert(templateCauses).values(row),
    auditInsert(
      db,
      staffActor(ctx),
      {
        action: 'template_cause.create',
        targetType: 'template_cause',
        targetId: row.id,
        changes: changedFields({}, recorded),
      },
      now,
    ),
  ]);
  return readTemplateCause(db, row.id, now);
}

/**
 * Changes a cause's words or campaign, or stops or starts offering it (`retired`). Appeals already
 * started from it keep what they copied: a cause is a starting point, not a link.
 */
export async function updateTemplateCause(
  ctx: AuditedWriteContext,
  idOrShort: string,
  input: TemplateCauseUpdate,
  now = new Date(),
) {
  const { db } = ctx;
  const before = await findTemplateCause(db, idOrShort);
  const columns: Partial<TemplateCauseRow> = {};
  if (input.title !== undefined) columns.title = input.title;
  if (input.description !== undefined) columns.description = input.description;
  if (input.story !== undefined) columns.story = input.story;
  if (input.campaign_id !== undefined) columns.campaignId = await checkCampaign(db, input.campaign_id);
  // Retiring keeps the first time it was retired; offering again clears it.
  if (input.retired === true && !before.retiredAt) columns.retiredAt = now;
  if (input.retired === false) columns.retiredAt = null;
  const changes = changedFields(before as Record<string, unknown>, columns);
  if (!Object.keys(changes).length) return readTemplateCause(db, before.id, now);
  const retiring = 'retiredAt' in changes ? (columns.retiredAt ? 'retire' : 'offer') : 'update';
  await db.batch([
    db.update(templateCauses).set(columns).where(eq(templateCauses.id, before.id)),
    auditInsert(
      db,
      staffActor(ctx),
      { action: `template_cause.${retiring}`, targetType: 'template_cause', targetId: before.id, changes },
      now,
    ),
  ]);
  return readTemplateCause(db, before.id, now);
}
