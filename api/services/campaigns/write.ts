import { and, asc, eq, isNull } from 'drizzle-orm';
import { z } from 'zod';
import type { Db } from '../../../db/client';
import { parseId } from '../../../domain/ids';
import { isAllowedVideoUrl } from '../../../domain/video';
import {
  CAMPAIGN_STATUSES,
  campaigns,
  donations,
  organizations,
  type StoredImage,
  templateCauses,
} from '../../../db/schema';
import { createMailer } from '../mail/mailer';
import { emailApprovedAppeal } from '../notifications/appeal-approved';
import { emailTakenDownAppeal } from '../notifications/appeal-taken-down';
import { badRequest, forbidden, notFound } from '../../lib/errors';
import { nominalCode } from '../../lib/fields';
import {
  administersAny,
  canEditCampaign,
  canManageOrganization,
  canSetCampaignStatus,
  isAdmin,
  setsNominalCodes,
} from '../../lib/policy';
import type { AuthUser } from '../../lib/types';
import { type CampaignDto, loadCampaignDto } from './read';
import {
  deleteKeys,
  uploadKeys,
  isStaticKey,
  MAX_IMAGES,
  type PreparedUpload,
  prepareUpload,
  requireBucket,
  storeUploads,
} from './images';
import { actorOf, auditInsert, changedFields } from '../audit/append';
import { consumeAppealQuota, consumeUploadQuota } from '../abuse/quotas';
import type { ServiceContext, SignedInContext } from '../../lib/service-context';
import { defaultCampaignDates, formatLongUkDay, hasEnded } from '../../../domain/giving-ends';
import { startsAfterCampaignEnds } from '../../../domain/giving-opens';
import {
  DESCRIPTION_MAX_LENGTH,
  MAX_CAMPAIGN_GOAL_PENCE,
  MAX_CAMPAIGN_STORY,
  MAX_CAMPAIGN_TITLE,
} from '../../../domain/limits';

const MAX_TITLE = MAX_CAMPAIGN_TITLE;
const MAX_DESCRIPTION = DESCRIPTION_MAX_LENGTH;
const MAX_STORY = MAX_CAMPAIGN_STORY;
const MAX_GOAL = MAX_CAMPAIGN_GOAL_PENCE;

const isoDate = z
  .string({ error: 'must be a date like 2026-05-31' })
  .trim()
  .regex(/^\d{4}-\d{2}-\d{2}$/, 'must be a date like 2026-05-31')
  .refine(
    (v) => !Number.isNaN(Date.parse(`${v}T00:00:00Z`)) && new Date(`${v}T00:00:00Z`).toISOString().startsWith(v),
    'is not a real calendar date',
  );

const imageInput = z
  .object({
    Key: z.string({ error: 'Key must be text' }).trim().min(1).max(300).optional(),
    base64: z.string({ error: 'base64 must be text' }).min(1, 'base64 is empty').optional(),
    name: z.string({ error: 'name must be text' }).trim().max(200, 'name must be at most 200 characters').optional(),
    size: z.number().nonnegative().optional(),
    type: z.string().max(100).optional(),
    /** WebP copies the editor made in the browser (480/800/1200 px wide), stored beside the original. */
    variants: z
      .array(
        z.object({
          width: z.number({ error: 'variants width must be a number' }).int(),
          base64: z.string().min(1, 'variant base64 is empty'),
        }),
        {
          error: 'variants must be a list',
        },
      )
      .max(3, 'at most 3 resized copies per image')
      .optional(),
  })
  .refine((image) => !image.variants?.length || Boolean(image.base64), {
    message: 'resized copies (variants) come only with a new image (base64)',
  })
  .refine((image) => Boolean(image.Key) !== Boolean(image.base64), {
    message: 'each image needs either a Key (an image already stored) or base64 data (a new image), not both',
  });

const optionalId = (field: string) =>
  z
    .string({ error: `${field} must be an id` })
    .trim()
    .max(60, `${field} is not a valid id`)
    .nullish()
    .transform((v) => v || null);

/** The editor's payload (spec section 7); PUT accepts any subset of it. */
export const campaignInput = z.object({
  title: z
    .string({ error: 'Enter a title' })
    .trim()
    .min(1, 'Enter a title')
    .max(MAX_TITLE, `title must be at most ${MAX_TITLE} characters`),
  description: z
    .string({ error: 'Enter a description' })
    .trim()
    .min(1, 'Enter a description')
    .max(MAX_DESCRIPTION, `description must be at most ${MAX_DESCRIPTION} characters`),
  story: z
    .string({ error: 'story must be text' })
    .max(MAX_STORY, `story must be at most ${MAX_STORY} characters`)
    .nullish(),
  video: z
    .string({ error: 'video must be a link' })
    .trim()
    .max(500, 'video link must be at most 500 characters')
    .nullish()
    .transform((v) => v || null)
    .refine((v) => v === null || isAllowedVideoUrl(v), 'video must be an https link to YouTube, Vimeo, Loom or Wistia'),
  date: z.object({ from: isoDate.nullish(), to: isoDate.nullish() }, { error: 'date must be {from, to}' }).nullish(),
  goal: z
    .number({ error: 'goal must be a number of pence, e.g. 50000 for £500' })
    .int('goal must be a whole number of pence')
    .positive('goal must be greater than 0')
    .max(MAX_GOAL, `goal must be at most ${MAX_GOAL} pence (£1,000,000)`),
  images: z
    .array(imageInput, { error: 'images must be a list' })
    .min(1, 'Add at least one image')
    .max(MAX_IMAGES, `You can only upload ${MAX_IMAGES} images`),
  organization_id: optionalId('organization_id'),
  campaign_id: optionalId('campaign_id'),
  template_cause_id: optionalId('template_cause_id'),
  kind: z.enum(['campaign', 'appeal'], { error: "kind must be 'campaign' or 'appeal'" }).optional(),
  status: z.enum(CAMPAIGN_STATUSES, { error: `status must be one of ${CAMPAIGN_STATUSES.join(', ')}` }).nullish(),
  /** HMRC: gifts to a sponsored event say "Yes" on the Gift Aid schedule and are never aggregated. */
  sponsored_event: z.boolean({ error: 'sponsored_event must be true or false' }).optional(),
  /** The fund's income nominal code in the accounts journal; null or '' uses the organization's. */
  income_code: nominalCode,
});
export const campaignUpdateInput = campaignInput.partial();

export type CampaignInput = z.infer<typeof campaignInput>;
export type CampaignUpdate = z.infer<typeof campaignUpdateInput>;
type Row = typeof campaigns.$inferSelect;

export type WriteCtx = Pick<SignedInContext, 'db' | 'viewer' | 'config' | 'bucket' | 'now'> &
  Partial<Pick<ServiceContext, 'requestId' | 'origin'>>;

const administers = canManageOrganization;

/** Marking a sponsored event changes how its gifts are claimed from HMRC: the organization's admins decide. */
function checkSponsoredEvent(
  user: AuthUser,
  organizationId: string | null,
  wanted: boolean | undefined,
  current = false,
) {
  if (wanted === undefined || wanted === current) return;
  if (!canSetCampaignStatus(user, organizationId)) {
    throw forbidden(
      "sponsored_event: only admins and the admins of this campaign's organization can mark a sponsored event",
    );
  }
}

/** A fund's nominal code is the chart of accounts': its organization's admins and finance users, and admins, set it. */
function checkIncomeCode(
  user: AuthUser,
  organizationId: string | null,
  wanted: string | null | undefined,
  { current = null, isAppeal }: { current?: string | null; isAppeal: boolean },
) {
  if (wanted === undefined || wanted === current) return;
  if (!setsNominalCodes(user, organizationId)) {
    throw forbidden(
      "income_code: only admins, and the admins and finance users of this campaign's organization, can set its nominal code",
    );
  }
  // The journal's funds are campaigns: an appeal's gifts are its campaign's income (decision 035).
  if (isAppeal && wanted !== null)
    throw badRequest("income_code: an appeal's gifts post to its campaign's fund; set the code on the campaign");
}

/** An update that sets only the fund's income code: what a finance user, who edits no content, may send. */
const setsOnlyIncomeCode = (input: CampaignUpdate) =>
  input.income_code !== undefined &&
  Object.entries(input).every(([key, value]) => key === 'income_code' || value === undefined);

function checkDateOrder(from: string | null, to: string | null) {
  if (from && to && from > to) throw badRequest('date.from must be on or before date.to');
}

/**
 * An appeal takes gifts only while its campaign does (decisions 056, 059): one set to start after
 * its campaign's last day could never take a gift, so its start date is refused when saved.
 */
function checkStartsWhileCampaignRuns(from: string | null | undefined, campaignTo: string | null) {
  const why = startsAfterCampaignEnds(from, campaignTo);
  if (why) throw badRequest(`date.from: ${why}`);
}

export async function createCampaign(ctx: WriteCtx, input: CampaignInput): Promise<CampaignDto> {
  const { db, viewer: user } = ctx;
  // An appeal names its parent campaign, or says kind 'appeal' to get the default campaign.
  const isAppeal = input.campaign_id !== null || input.kind === 'appeal';
  let parent: Row | null = null;
  let organizationId: string | null;

  if (isAppeal) {
    parent = input.campaign_id ? await findParent(ctx, input.campaign_id) : await defaultParent(ctx);
    organizationId = parent.organizationId;
  } else {
    if (!administersAny(user))
      throw forbidden('Only admins and organization admins can create campaigns; start an appeal instead');
    if (!input.organization_id) throw badRequest('organization_id: choose the organization this campaign belongs to');
    organizationId = await checkOrganization(ctx, input.organization_id);
  }

  checkSponsoredEvent(user, organizationId, input.sponsored_event);
  checkIncomeCode(user, organizationId, input.income_code, { isAppeal });
  const templateCauseId = input.template_cause_id ? await checkTemplateCause(db, input.template_cause_id) : null;
  const given = pickDates(input.date);
  const fallback = defaultCampaignDates(ctx.now);
  const dates = { from: given.from ?? fallback.from, to: given.to ?? fallback.to };
  checkDateOrder(dates.from, dates.to);
  // Only a start date the fundraiser chose: the default (today) under an ended campaign is 056's case.
  if (parent) checkStartsWhileCampaignRuns(given.from, parent.dateTo);

  const { images, uploads } = resolveImages(ctx, input.images, []);
  // Quotas are counted once the input is known to be good, just before anything is stored.
  if (isAppeal) await consumeAppealQuota(db, user, ctx.now);
  await consumeUploadQuota(db, user, uploadBytes(uploads), ctx.now);
  // An organization that reviews appeals first gets them as drafts, unless one of its admins writes.
  const held = isAppeal && !administers(user, organizationId) && (await appealsNeedApproval(db, organizationId));
  const id = crypto.randomUUID();
  const status = held
    ? 'draft'
    : canSetCampaignStatus(user, organizationId) && input.status
      ? input.status
      : 'approved';
  // Who started which campaign or appeal, in the audit log beside the staff changes that follow.
  const audit = auditInsert(db, actorOf(user, ctx.requestId ?? null), {
    action: 'campaign.create',
    targetType: 'campaign',
    targetId: id,
    organizationId,
    changes: {
      kind: [null, isAppeal ? 'appeal' : 'campaign'],
      title: [null, input.title],
      goal: [null, input.goal],
      status: [null, status],
    },
  });
  const insert = db.insert(campaigns).values({
    id,
    campaignId: parent?.id ?? null,
    organizationId,
    title: input.title,
    description: input.description,
    story: input.story ?? '',
    video: input.video,
    dateFrom: dates.from,
    dateTo: dates.to,
    goal: input.goal,
    images,
    // Spec section 4: new items default to approved; only admins choose otherwise.
    status,
    createdBy: user.id,
    templateCauseId,
    sponsoredEvent: input.sponsored_event ?? false,
    incomeCode: input.income_code ?? null,
    createdAt: ctx.now,
    updatedAt: ctx.now,
  });
  await withUploads(ctx, uploads, () => db.batch([insert, audit]));
  // The author sees what they saved, even a status they may set but not view (e.g. deleted).
  return (await loadCampaignDto(db, id, user))!;
}

export async function updateCampaign(ctx: WriteCtx, idOrShort: string, input: CampaignUpdate): Promise<CampaignDto> {
  const { db, viewer: user } = ctx;
  const row = await loadEditable(ctx, idOrShort, setsOnlyIncomeCode(input));
  const changes: Partial<typeof campaigns.$inferInsert> = {};

  if (input.status && input.status !== row.status) {
    if (!canSetCampaignStatus(user, row.organizationId)) {
      throw forbidden("Only admins and the admins of this campaign's organization can change its status");
    }
    changes.status = input.status;
  }

  if (row.campaignId === null) {
    if (input.campaign_id) throw badRequest('campaign_id: a campaign cannot be moved under another campaign');
    if (input.organization_id && input.organization_id !== row.organizationId) {
      changes.organizationId = await checkOrganization(ctx, input.organization_id);
    }
  } else if (input.campaign_id) {
    const parentId = parseId(input.campaign_id);
    if (parentId !== row.campaignId) {
      if (parentId === row.id) throw badRequest('campaign_id: an appeal cannot be its own campaign');
      // Its gifts (and payments still in flight) are recorded under the current campaign.
      const [gift] = await db
        .select({ id: donations.id })
        .from(donations)
        .where(eq(donations.appealId, row.id))
        .limit(1);
      if (gift) throw badRequest('This appeal already has donations, so it cannot move to another campaign');
      const parent = await findParent(ctx, input.campaign_id);
      // A status set in the same write must be allowed under the new campaign's organization too.
      if (changes.status && !canSetCampaignStatus(user, parent.organizationId)) {
        throw forbidden("Only admins and the admins of this campaign's organization can change its status");
      }
      changes.campaignId = parent.id;
      changes.organizationId = parent.organizationId;
      // Moved into an organization that reviews appeals first, it waits for that review as a new one
      // would, unless one of its admins moves it (or a staff status set in this write says otherwise).
      const crossing = parent.organizationId !== row.organizationId;
      if (
        crossing &&
        !changes.status &&
        row.status === 'approved' &&
        !administers(user, parent.organizationId) &&
        (await appealsNeedApproval(db, parent.organizationId))
      )
        changes.status = 'draft';
    }
  }

  if (input.sponsored_event !== undefined && input.sponsored_event !== row.sponsoredEvent) {
    checkSponsoredEvent(user, changes.organizationId ?? row.organizationId, input.sponsored_event, row.sponsoredEvent);
    changes.sponsoredEvent = input.sponsored_event;
  }
  if (input.income_code !== undefined && input.income_code !== row.incomeCode) {
    checkIncomeCode(user, changes.organizationId ?? row.organizationId, input.income_code, {
      current: row.incomeCode,
      isAppeal: row.campaignId !== null,
    });
    changes.incomeCode = input.income_code;
  }
  if (input.title !== undefined) changes.title = input.title;
  if (input.description !== undefined) changes.description = input.description;
  if (input.story !== undefined) changes.story = input.story ?? '';
  if (input.video !== undefined) changes.video = input.video;
  if (input.goal !== undefined) changes.goal = input.goal;
  if (input.template_cause_id) changes.templateCauseId = await checkTemplateCause(db, input.template_cause_id);
  if (input.date !== undefined) {
    const dates = pickDates(input.date);
    if ('from' in dates) changes.dateFrom = dates.from;
    if ('to' in dates) changes.dateTo = dates.to;
  }
  checkDateOrder(
    changes.dateFrom !== undefined ? changes.dateFrom : row.dateFrom,
    changes.dateTo !== undefined ? changes.dateTo : row.dateTo,
  );
  const parentId = changes.campaignId ?? row.campaignId;
  if (parentId && changes.dateFrom && changes.dateFrom !== row.dateFrom) {
    const [parent] = await db
      .select({ dateTo: campaigns.dateTo })
      .from(campaigns)
      .where(eq(campaigns.id, parentId))
      .limit(1);
    checkStartsWhileCampaignRuns(changes.dateFrom, parent?.dateTo ?? null);
  }

  let uploads: PreparedUpload[] = [];
  if (input.images !== undefined) {
    const resolved = resolveImages(ctx, input.images, row.images);
    changes.images = resolved.images;
    uploads = resolved.uploads;
    await consumeUploadQuota(db, user, uploadBytes(uploads), ctx.now);
  }

  if (Object.keys(changes).length > 0) {
    changes.updatedAt = ctx.now;
    const update = db.update(campaigns).set(changes).where(eq(campaigns.id, row.id));
    // A status change (approve, hide, delete), a sponsored-event mark and a fund's income code are staff decisions: audited in the same batch.
    const actor = actorOf(user, ctx.requestId ?? null);
    const organizationId = changes.organizationId ?? row.organizationId;
    const edited = contentChanges(row, changes);
    const audits = [
      ...(Object.keys(edited).length
        ? [
            auditInsert(db, actor, {
              action: 'campaign.update',
              targetType: 'campaign',
              targetId: row.id,
              organizationId,
              changes: edited,
            }),
          ]
        : []),
      ...(changes.status
        ? [
            auditInsert(db, actor, {
              action: 'campaign.status',
              targetType: 'campaign',
              targetId: row.id,
              organizationId,
              changes: { status: [row.status, changes.status] },
            }),
          ]
        : []),
      ...(changes.sponsoredEvent !== undefined
        ? [
            auditInsert(db, actor, {
              action: 'campaign.sponsored_event',
              targetType: 'campaign',
              targetId: row.id,
              organizationId,
              changes: { sponsored_event: [row.sponsoredEvent, changes.sponsoredEvent] },
            }),
          ]
        : []),
      ...(changes.incomeCode !== undefined
        ? [
            auditInsert(db, actor, {
              action: 'campaign.income_code',
              targetType: 'campaign',
              targetId: row.id,
              organizationId,
              changes: { income_code: [row.incomeCode, changes.incomeCode] },
            }),
          ]
        : []),
    ];
    await withUploads(ctx, uploads, () => (audits.length ? db.batch([update, ...audits]) : update));
  }
  // Someone else changed a fundraiser's appeal's status: the fundraiser is told.
  if (row.campaignId !== null && changes.status && row.createdBy && row.createdBy !== user.id) {
    const origin = ctx.origin ?? ctx.config.publicOrigin ?? '';
    // Approved after the charity held it for review (decision 063).
    if (changes.status === 'approved')
      await emailApprovedAppeal(db, createMailer(db, ctx.config), row.id, { origin, now: ctx.now });
    // Taken off the site: a live appeal back to a draft, or any appeal deleted (decision 064).
    else if (changes.status !== row.status && (changes.status === 'deleted' || row.status === 'approved'))
      await emailTakenDownAppeal(db, createMailer(db, ctx.config), row.id, changes.status, {
        origin,
        now: ctx.now,
        supportEmail: ctx.config.supportEmail,
      });
  }
  return (await loadCampaignDto(db, row.id, user))!;
}

/** Fields of a campaign's content the audit log shows with their values (status, sponsored event and income code have rows of their own). */
const AUDITED_VALUES = ['title', 'goal', 'dateFrom', 'dateTo', 'video', 'organizationId', 'campaignId'] as const;

/**
 * What an edit changed, for its audit row: short fields before and after; the description and story
 * only as edited (their text is on the page), the images as counts.
 */
function contentChanges(row: Row, changes: Partial<typeof campaigns.$inferInsert>): Record<string, [unknown, unknown]> {
  const picked: Record<string, unknown> = {};
  for (const key of AUDITED_VALUES) if (changes[key] !== undefined) picked[key] = changes[key];
  const edited = changedFields(row as Record<string, unknown>, picked);
  for (const key of ['description', 'story'] as const)
    if (changes[key] !== undefined && changes[key] !== row[key]) edited[key] = ['(before)', '(edited)'];
  if (changes.images !== undefined && JSON.stringify(changes.images) !== JSON.stringify(row.images))
    edited.images = [row.images.length, changes.images.length];
  return edited;
}

// Every stored byte counts, resized copies included, so the quota also bounds a save's size.
const uploadBytes = (uploads: PreparedUpload[]) =>
  uploads.reduce(
    (sum, upload) => sum + upload.bytes.length + upload.variants.reduce((n, v) => n + v.bytes.length, 0),
    0,
  );

async function appealsNeedApproval(db: Db, organizationId: string | null): Promise<boolean> {
  if (!organizationId) return false;
  const [row] = await db
    .select({ held: organizations.appealsNeedApproval })
    .from(organizations)
    .where(eq(organizations.id, organizationId))
    .limit(1);
  return row?.held ?? false;
}

/**
 * Admins; org admins of the item's organization; the creator of an appeal (unless deleted); for a
 * save of its income code alone, also the organization's finance users.
 */
async function loadEditable(ctx: WriteCtx, idOrShort: string, incomeCodeOnly = false): Promise<Row> {
  const id = parseId(idOrShort);
  if (!id) throw notFound('Campaign not found: the id is not valid');
  const [row] = await ctx.db.select().from(campaigns).where(eq(campaigns.id, id)).limit(1);
  if (!row) throw notFound('Campaign not found');
  const { viewer: user } = ctx;
  if (canEditCampaign(user, row)) return row;
  if (incomeCodeOnly && setsNominalCodes(user, row.organizationId)) return row;
  // Don't reveal drafts and deleted items to people who cannot see them.
  if (row.status !== 'approved' && !(row.createdBy === user.id && row.status === 'draft'))
    throw notFound('Campaign not found');
  throw forbidden(
    row.campaignId
      ? 'Only the fundraiser who created this appeal or an admin can edit it'
      : 'Only admins of this organization can edit this campaign',
  );
}

/** A parent campaign: a campaign (not an appeal), approved unless the user administers it. */
async function findParent(ctx: WriteCtx, idOrShort: string): Promise<Row> {
  const id = parseId(idOrShort);
  const [row] = id ? await ctx.db.select().from(campaigns).where(eq(campaigns.id, id)).limit(1) : [];
  if (!row || row.campaignId !== null)
    throw badRequest('campaign_id: no campaign with this id; choose one from the campaign list');
  if (row.status !== 'approved' && !administers(ctx.viewer, row.organizationId)) {
    throw badRequest('campaign_id: this campaign is not open for appeals; choose another');
  }
  // An appeal under an ended campaign could never take a gift (decision 068). Its organization's
  // admins may still file one, as they may under a draft: a record of an event already held.
  if (hasEnded(row.dateTo, ctx.now) && !administers(ctx.viewer, row.organizationId)) {
    throw badRequest(
      `campaign_id: ${row.title} ended on ${formatLongUkDay(row.dateTo as string)} and takes no new appeals; choose another campaign`,
    );
  }
  return row;
}

/** DEFAULT_CAMPAIGN_ID when it names an approved campaign, else the oldest approved campaign. */
async function defaultParent(ctx: WriteCtx): Promise<Row> {
  const configured = ctx.config.defaultCampaignId ? parseId(ctx.config.defaultCampaignId) : null;
  if (configured) {
    const [row] = await ctx.db
      .select()
      .from(campaigns)
      .where(and(eq(campaigns.id, configured), isNull(campaigns.campaignId), eq(campaigns.status, 'approved')))
      .limit(1);
    if (row) return row;
  }
  const [oldest] = await ctx.db
    .select()
    .from(campaigns)
    .where(and(isNull(campaigns.campaignId), eq(campaigns.status, 'approved')))
    .orderBy(asc(campaigns.createdAt), asc(campaigns.id))
    .limit(1);
  if (!oldest) throw badRequest('campaign_id: choose the campaign this appeal supports (there is no default campaign)');
  return oldest;
}

async function checkOrganization(ctx: WriteCtx, idOrShort: string): Promise<string> {
  const id = parseId(idOrShort);
  if (!isAdmin(ctx.viewer) && !(id && administers(ctx.viewer, id))) {
    throw forbidden('You can only manage campaigns of organizations you administer');
  }
  if (!id) throw badRequest('organization_id: no organization with this id');
  const [row] = await ctx.db
    .select({ id: organizations.id })
    .from(organizations)
    .where(eq(organizations.id, id))
    .limit(1);
  if (!row) throw badRequest('organization_id: no organization with this id');
  return row.id;
}

async function checkTemplateCause(db: Db, idOrShort: string): Promise<string> {
  const id = parseId(idOrShort);
  const [row] = id
    ? await db.select({ id: templateCauses.id }).from(templateCauses).where(eq(templateCauses.id, id)).limit(1)
    : [];
  if (!row) throw badRequest('template_cause_id: no template cause with this id');
  return row.id;
}

function pickDates(date: CampaignInput['date']): { from?: string | null; to?: string | null } {
  if (!date) return {};
  const out: { from?: string | null; to?: string | null } = {};
  if (date.from !== undefined) out.from = date.from;
  if (date.to !== undefined) out.to = date.to;
  return out;
}

type ImageInput = CampaignInput['images'][number];

/**
 * Existing images are kept by Key (with the metadata we stored); new ones are decoded and
 * sniffed here, before anything is written, so one bad file rejects the whole save. A Key must be
 * one of this item's own images or a static demo image: another record's stored Key is refused.
 */
function resolveImages(ctx: WriteCtx, items: ImageInput[], current: StoredImage[]) {
  const known = new Map(current.map((image) => [image.Key, image]));
  const images: StoredImage[] = [];
  const uploads: PreparedUpload[] = [];
  const seen = new Set<string>();
  items.forEach((item, index) => {
    const label = item.name || `image ${index + 1}`;
    if (item.Key) {
      if (seen.has(item.Key)) throw badRequest(`images: "${label}" is listed twice`);
      seen.add(item.Key);
      const stored = known.get(item.Key);
      if (stored) images.push(stored);
      else if (isStaticKey(item.Key)) {
        images.push({
          Key: item.Key,
          name: item.name || item.Key.split('/').pop()!,
          size: Math.round(item.size ?? 0),
          type: item.Key.endsWith('.png') ? 'image/png' : 'image/jpeg',
        });
      } else
        throw badRequest(`images: "${label}" has a Key that is not one of this item's images; upload the file instead`);
      return;
    }
    const upload = prepareUpload({ base64: item.base64!, name: label, variants: item.variants });
    uploads.push(upload);
    images.push(upload.image);
  });
  if (uploads.length > 0) requireBucket(ctx.bucket);
  return { images, uploads };
}

/** Store new images, run the database write, and remove the uploads again if the write fails. */
async function withUploads(ctx: WriteCtx, uploads: PreparedUpload[], write: () => Promise<unknown>) {
  if (uploads.length > 0) await storeUploads(requireBucket(ctx.bucket), uploads);
  try {
    await write();
  } catch (err) {
    await deleteKeys(ctx.bucket, uploads.flatMap(uploadKeys));
    throw err;
  }
}
