import { and, asc, count, desc, eq, inArray, isNotNull, isNull, ne, sql } from 'drizzle-orm';
import type { BatchItem } from 'drizzle-orm/batch';
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
import { auditInsert, auditInsertIf, changedFields, staffActor } from '../audit/append';

type TemplateCauseDto = z.infer<typeof TemplateCauseSchema>;
type TemplateCauseRow = typeof templateCauses.$inferSelect;

/**
 * At most this many causes are offered at once (more than a fundraiser could choose between): the
 * public list is all of them, and the admins' list shows them all, then the latest retired ones.
 */
export const MAX_OFFERED_CAUSES = 100;
/** The retired causes the admins' list shows, most recently retired first. */
const MAX_RETIRED_LISTED = 100;

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

/** Causes with the campaign each is tied to, for toDto. */
const withCampaign = (db: Db) =>
  db
    .select({
      cause: templateCauses,
      campaign: { title: campaigns.title, status: campaigns.status, dateTo: campaigns.dateTo },
    })
    .from(templateCauses)
    .leftJoin(campaigns, eq(campaigns.id, templateCauses.campaignId));

/**
 * Starting points for a fundraiser's appeal, oldest first; [[name]] in the story is filled in by the
 * editor. With `withRetired` (the admins' screen, decision 074), then the latest retired ones too.
 */
export async function listTemplateCauses(
  db: Db,
  { withRetired = false, now = new Date() } = {},
): Promise<TemplateCauseDto[]> {
  const offered = await withCampaign(db)
    .where(isNull(templateCauses.retiredAt))
    .orderBy(asc(templateCauses.createdAt), asc(templateCauses.title))
    .limit(MAX_OFFERED_CAUSES);
  const dtos = offered.map(({ cause, campaign }) => toDto(cause, campaign, now));
  if (!withRetired) return dtos;
  // The admins' list: every offered cause, then the latest retired ones (offered again in one click).
  const retired = await withCampaign(db)
    .where(isNotNull(templateCauses.retiredAt))
    .orderBy(desc(templateCauses.retiredAt), asc(templateCauses.title))
    .limit(MAX_RETIRED_LISTED);
  return withAppealCounts(db, [...dtos, ...retired.map(({ cause, campaign }) => toDto(cause, campaign, now))]);
}

/**
 * Each cause with the appeals started from it that are not deleted: what an admin weighs before
 * retiring one (campaigns_template_cause_idx; ids in pieces, as D1 binds at most 100 values).
 */
async function withAppealCounts(db: Db, dtos: TemplateCauseDto[]): Promise<TemplateCauseDto[]> {
  const pieces = await Promise.all(
    chunks(dtos.map((dto) => dto._id)).map((ids) =>
      db
        .select({ cause: campaigns.templateCauseId, appeals: count() })
        .from(campaigns)
        .where(and(inArray(campaigns.templateCauseId, ids), ne(campaigns.status, 'deleted')))
        .groupBy(campaigns.templateCauseId),
    ),
  );
  const appeals = new Map(pieces.flat().map((row) => [row.cause, row.appeals]));
  return dtos.map((dto) => ({ ...dto, appeals_started: appeals.get(dto._id) ?? 0 }));
}

/** One cause for the admins' edit form, with its count, whether offered or retired. */
export async function getTemplateCause(db: Db, idOrShort: string, now = new Date()): Promise<TemplateCauseDto> {
  const row = await findTemplateCause(db, idOrShort);
  const [cause] = await withAppealCounts(db, [await readTemplateCause(db, row.id, now)]);
  return cause;
}

/** A cause offered from now on must leave room under MAX_OFFERED_CAUSES. */
async function checkRoomToOffer(db: Db): Promise<void> {
  const [{ offered }] = await db
    .select({ offered: count() })
    .from(templateCauses)
    .where(isNull(templateCauses.retiredAt));
  if (offered >= MAX_OFFERED_CAUSES)
    throw badRequest(
      `At most ${MAX_OFFERED_CAUSES} causes are offered to fundraisers at once; retire one before offering another`,
    );
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
  await checkRoomToOffer(db);
  const row: TemplateCauseRow = {
    id: crypto.randomUUID(),
    title: input.title,
    description: input.description,
    story: input.story,
    image: input.image ?? null,
    campaignId: await checkCampaign(db, input.campaign_id ?? null),
    retiredAt: null,
    createdAt: now,
  };
  const recorded = {
    title: row.title,
    description: row.description,
    story: row.story,
    image: row.image,
    campaignId: row.campaignId,
  };
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
 * Changes a cause's words, cover or campaign, or stops or starts offering it (`retired`). Appeals already
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
  if (input.image !== undefined) columns.image = input.image;
  const edits = changedFields(before as Record<string, unknown>, columns);
  // Retiring keeps the first time it was retired; offering again clears it.
  const retiring = input.retired === true && !before.retiredAt;
  const offering = input.retired === false && Boolean(before.retiredAt);
  if (offering) await checkRoomToOffer(db);
  if (!Object.keys(edits).length && !retiring && !offering) return readTemplateCause(db, before.id, now);
  const actor = staffActor(ctx);
  const target = { targetType: 'template_cause' as const, targetId: before.id };
  const writes: BatchItem<'sqlite'>[] = [];
  if (Object.keys(edits).length) {
    writes.push(db.update(templateCauses).set(columns).where(eq(templateCauses.id, before.id)));
    writes.push(auditInsert(db, actor, { action: 'template_cause.update', ...target, changes: edits }, now));
  }
  if (retiring || offering) {
    // Guarded by the state it was read in: of two admins retiring at once, one retires it and is logged.
    const retiredAt = retiring ? now : null;
    const guard = retiring ? isNull(templateCauses.retiredAt) : isNotNull(templateCauses.retiredAt);
    writes.push(
      db
        .update(templateCauses)
        .set({ retiredAt })
        .where(and(eq(templateCauses.id, before.id), guard)),
    );
    writes.push(
      auditInsertIf(
        db,
        actor,
        sql`changes() = 1`,
        {
          action: retiring ? 'template_cause.retire' : 'template_cause.offer',
          ...target,
          changes: { retiredAt: [before.retiredAt?.toISOString() ?? null, retiredAt?.toISOString() ?? null] },
        },
        now,
      ),
    );
  }
  await db.batch(writes as [BatchItem<'sqlite'>, ...BatchItem<'sqlite'>[]]);
  return readTemplateCause(db, before.id, now);
}
