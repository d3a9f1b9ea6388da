/** Browser-safe rules of the campaign/appeal editor (spec sections 3, 5, 9). */
import { isStockCover, stockCoverLabel } from '../../../domain/stock-covers';
import {
  CAMPAIGN_STATUSES,
  type CampaignStatus,
  DESCRIPTION_MAX_LENGTH,
  MAX_CAMPAIGN_GOAL_PENCE,
  MAX_CAMPAIGN_IMAGES,
  MAX_CAMPAIGN_TITLE,
} from '../../../domain';
import { defaultCampaignDates, formatLongUkDay, hasEnded, lastGivingDay } from '../../../domain/giving-ends';
import { firstGivingDay, formatShortUkDay, notOpenYet, startsAfterCampaignEnds } from '../../../domain/giving-opens';
import type { Campaign, client, Data } from '../../lib/api';
import { parsePounds, penceToPoundsField } from '../../lib/format';
import { MAX_IMAGE_BYTES } from '../../../domain/limits';
import { isAllowedVideoUrl } from '../../../domain/video';
import { parseId } from '../../../domain/ids';

export type EditorKind = 'campaign' | 'appeal';
export type Status = CampaignStatus;
export const STATUSES: Status[] = [...CAMPAIGN_STATUSES];

export const MAX_IMAGES = MAX_CAMPAIGN_IMAGES;
export const MAX_DESCRIPTION = DESCRIPTION_MAX_LENGTH;
export const MAX_TITLE = MAX_CAMPAIGN_TITLE;
export { MAX_IMAGE_BYTES };
/** The API accepts at most 50 MB per save; base64 makes files a third larger. */
export const MAX_PAYLOAD_CHARS = 48 * 1024 * 1024;
export const MAX_GOAL_PENCE = MAX_CAMPAIGN_GOAL_PENCE;

/** A stored image keeps its Key; a new one carries its data URL until saved. */
export type EditorImage =
  | { Key: string; name: string; size: number; type: string; url: string }
  | { base64: string; name: string; size: number; type: string; variants?: { width: number; base64: string }[] };

export type EditorForm = {
  title: string;
  description: string;
  story: string;
  video: string;
  dateFrom: string;
  dateTo: string;
  /** Pounds as typed, e.g. "250" or "99.50". */
  goal: string;
  images: EditorImage[];
  campaignId: string;
  organizationId: string;
  status: Status;
  templateCauseId: string | null;
  /** HMRC: its gifts say "Yes" in the schedule's Sponsored event column and are never aggregated. */
  sponsoredEvent: boolean;
  /**
   * The fund's income nominal code for the accounts journal ('' = the organization's); null when the
   * API did not answer it, i.e. the viewer may not set it.
   */
  incomeCode: string | null;
};

/** A template cause as GET /api/template-causes answers it. */
export type TemplateCause = Data<(typeof client.api)['template-causes']['$get']>[number];

/** The API's campaign shape: the one contract (api/schemas through src/lib/api.ts). */
export type CampaignDto = Campaign;

/** The editor's date fields before the person picks any: the API's own default (domain/giving-ends). */
export function defaultDates(now = new Date()) {
  const { from, to } = defaultCampaignDates(now);
  return { dateFrom: from, dateTo: to };
}

export function emptyForm(now = new Date()): EditorForm {
  return {
    title: '',
    description: '',
    story: '',
    video: '',
    ...defaultDates(now),
    goal: '',
    images: [],
    campaignId: '',
    organizationId: '',
    status: 'approved',
    templateCauseId: null,
    sponsoredEvent: false,
    incomeCode: '',
  };
}

export function formFromDto(dto: CampaignDto, now = new Date()): EditorForm {
  const dates = defaultDates(now);
  return {
    title: dto.title,
    description: dto.description.slice(0, MAX_DESCRIPTION),
    story: dto.story,
    video: dto.video ?? '',
    dateFrom: dto.date.from ?? dates.dateFrom,
    dateTo: dto.date.to ?? dates.dateTo,
    goal: penceToPoundsField(dto.goal),
    images: dto.images.map(({ Key, name, size, type, url }) => ({ Key, name, size, type, url })),
    campaignId: dto.campaign_id ?? '',
    organizationId: dto.organization_id ?? '',
    status: dto.status,
    templateCauseId: null,
    sponsoredEvent: dto.sponsored_event,
    incomeCode: dto.income_code === undefined ? null : (dto.income_code ?? ''),
  };
}

export const fullName = (name: { first_name: string; last_name: string } | null | undefined) =>
  name ? `${name.first_name} ${name.last_name}`.trim() : '';

/** Template stories say [[name]] where the fundraiser's full name goes (spec section 3). */
export function fillName(story: string, name: string): string {
  return name ? story.replaceAll('[[name]]', name) : story;
}

/**
 * The campaign a new appeal is for, from the page's `?campaign=` (short id or UUID), when it is one
 * of the campaigns offered; '' (the general fund) otherwise. A campaign page's "Start your own
 * appeal" link sets it, so the appeal raises money for the campaign the fundraiser came from.
 */
export function campaignFromQuery(search: string, offered: readonly { _id: string }[]): string {
  const wanted = parseId(new URLSearchParams(search).get('campaign') ?? '');
  return (wanted && offered.find((c) => c._id.toLowerCase() === wanted)?._id) || '';
}

/** A campaign an appeal can be under, with its giving days, as GET /api/campaigns?tiny=true answers it. */
export type CampaignOption = { _id: string; title: string; date: CampaignDays };

/**
 * The Campaign select's choices (decision 068). A campaign that has ended takes no new appeals (the
 * API refuses one), so it is not offered, unless the appeal is already under it. One still to open
 * says when, as its card does; so does the ended one an appeal is under. An appeal whose campaign
 * is not on the site (a draft, or deleted: decision 066) keeps it, said as such, rather than seeming
 * to belong to the general fund.
 */
export function campaignChoices(
  offered: readonly CampaignOption[],
  current: string,
  now = new Date(),
): { value: string; label: string }[] {
  const choices = offered.flatMap((c) => {
    if (hasEnded(c.date.to, now)) {
      return c._id === current
        ? [{ value: c._id, label: `${c.title} (ended ${formatShortUkDay(c.date.to as string)})` }]
        : [];
    }
    const opens = c.date.from && notOpenYet(c.date.from, now) ? ` (opens ${formatShortUkDay(c.date.from)})` : '';
    return [{ value: c._id, label: `${c.title}${opens}` }];
  });
  const known = !current || offered.length === 0 || offered.some((c) => c._id === current);
  return known ? choices : [...choices, { value: current, label: 'Its campaign (not on the site)' }];
}

/**
 * A new appeal's `?campaign=` that names a campaign which has ended (an old link, or a page left
 * open): said beside the select, since the appeal goes to the general fund unless another is chosen.
 */
export function endedCampaignNote(search: string, offered: readonly CampaignOption[], now = new Date()): string | null {
  const wanted = campaignFromQuery(search, offered);
  const campaign = offered.find((c) => c._id === wanted);
  if (!campaign || !hasEnded(campaign.date.to, now)) return null;
  return `${campaign.title} ended on ${formatLongUkDay(campaign.date.to as string)} and takes no new appeals. This appeal is for the general fund unless you choose another campaign.`;
}

/**
 * The form filled from a template cause. A cause the charity tied to a campaign (decision 073) also
 * chooses that campaign, while it still takes appeals (`offered`, not ended) and the fundraiser has
 * not chosen one (a campaign page's link, or the select).
 */
export function applyTemplate(
  form: EditorForm,
  cause: TemplateCause,
  name: string,
  offered: readonly CampaignOption[] = [],
  now = new Date(),
): EditorForm {
  return {
    ...form,
    title: cause.title.slice(0, MAX_TITLE),
    description: cause.description.slice(0, MAX_DESCRIPTION),
    story: fillName(cause.story, name),
    templateCauseId: cause._id,
    campaignId: form.campaignId || templateCampaign(cause, offered, now),
    images: coverOf(form.images, cause),
  };
}

/**
 * The cause's cover (decision 074), unless the fundraiser already chose pictures of their own. A lone
 * stock cover is the previous cause's, given by this same step: a different cause changes it.
 */
function coverOf(images: EditorImage[], cause: TemplateCause): EditorImage[] {
  const onlyACover = images.length === 1 && 'Key' in images[0] && isStockCover(images[0].Key);
  if (images.length && !onlyACover) return images;
  return cause.image && isStockCover(cause.image) ? [stockCoverImage(cause.image)] : [];
}

/** A stock cover as the editor holds a stored image: its Key is its address. */
function stockCoverImage(key: string): EditorImage {
  return { Key: key, url: key, name: stockCoverLabel(key), size: 0, type: 'image/png' };
}

/** The campaign a template cause raises for, while the select offers it and it takes appeals; else ''. */
export function templateCampaign(cause: TemplateCause, offered: readonly CampaignOption[], now = new Date()): string {
  return offered.find((c) => c._id === cause.campaign_id && !hasEnded(c.date.to, now))?._id ?? '';
}

/** "12.5" → 1250; null for anything that is not a positive amount with at most 2 decimals. */
export const poundsToPence = parsePounds;

export { isAllowedVideoUrl };

/** Spec section 5: what makes 'Continue' available. */
export function isReady(form: EditorForm, kind: EditorKind, campaign?: CampaignDays): boolean {
  return missingForReady(form, kind, campaign).length === 0;
}

/**
 * What 'Continue' still waits for, in the form's order ("a title", "an image"): shown beside the
 * dimmed button, so a fundraiser at the foot of a long form on a phone knows what to go back for.
 */
export function missingForReady(form: EditorForm, kind: EditorKind, campaign?: CampaignDays): string[] {
  const goal = poundsToPence(form.goal);
  const missing: string[] = [];
  if (!form.title.trim()) missing.push('a title');
  if (!form.description.trim()) missing.push('a description');
  if (goal === null || goal <= 0) missing.push(form.goal.trim() ? 'a valid goal' : 'a goal');
  if (dateOrderProblem(form.dateFrom, form.dateTo)) missing.push('an end date on or after the start date');
  if (startsAfterCampaignProblem(form.dateFrom, kind, campaign))
    missing.push("a start date within the campaign's dates");
  if (kind === 'campaign' && !form.organizationId) missing.push('an organization');
  if (!form.images.length) missing.push('an image');
  return missing;
}

/** What is wrong with a goal typed (null: nothing typed yet, or a goal that will do): said beside the field. */
export function goalProblem(typed: string): string | null {
  if (!typed.trim()) return null;
  const goal = poundsToPence(typed);
  if (goal === null || goal <= 0) return 'Enter a goal in pounds greater than £0, e.g. 500 or 99.50.';
  if (goal > MAX_GOAL_PENCE) return 'The goal can be at most £1,000,000.';
  return null;
}

/** An end date before the start date (null: in order, or either left empty): said beside the End date field. */
export function dateOrderProblem(from: string, to: string): string | null {
  return from && to && from > to ? 'The start date must be on or before the end date.' : null;
}

/** The giving days of the campaign an appeal is under, as GET /api/campaigns?tiny=true answers them. */
export type CampaignDays = { from: string | null; to: string | null };

/**
 * Beside the Start date when giving is still ahead (decision 059): gifts wait for it, and its
 * creator is emailed that morning (062 for an appeal, 067 for a campaign). An appeal also waits for its campaign: when the
 * campaign opens later than the appeal's own date, the note names the campaign's day. Null when
 * giving is open (today, a past day, or no date).
 */
export function startDateNote(
  from: string,
  kind: EditorKind,
  now = new Date(),
  campaign?: CampaignDays,
): string | null {
  const first = firstGivingDay(from, kind === 'appeal' ? campaign?.from : null);
  if (!first || !notOpenYet(first, now)) return null;
  const when = first === from ? formatLongUkDay(first) : `${formatLongUkDay(first)}, when its campaign opens`;
  const opens = `Gifts open on ${when}; until then its page says when.`;
  // A campaign's creator is emailed too (decision 067), and each of its appeals' fundraisers for their own.
  return `${opens} Whoever started it is emailed that morning, to share it.`;
}

/**
 * Beside the End date when it decides more than the fundraiser may expect (decision 068): a day
 * already past ends giving as soon as it is saved (056: nothing warned), and an appeal's gifts end
 * with its campaign's, whatever its own end date says. Null otherwise.
 */
export function endDateNote(to: string, kind: EditorKind, now = new Date(), campaign?: CampaignDays): string | null {
  const campaignTo = kind === 'appeal' ? (campaign?.to ?? null) : null;
  const last = lastGivingDay(to, campaignTo);
  if (!last) return null;
  const day = formatLongUkDay(last);
  const byCampaign = last !== to;
  if (hasEnded(last, now)) {
    return byCampaign
      ? `Its campaign ended on ${day}, so this appeal takes no gifts; its page says it ended.`
      : `${day} has passed: this ${kind} takes no gifts and its page says it ended. A later end date reopens it.`;
  }
  return byCampaign ? `Its campaign takes gifts until ${day}; this appeal's gifts end then too.` : null;
}

/**
 * An appeal set to start after its campaign's last day could never take a gift (the API refuses it,
 * decision 059's amendment): said beside the Start date, in the API's words, before the save.
 */
export function startsAfterCampaignProblem(from: string, kind: EditorKind, campaign?: CampaignDays): string | null {
  const why = kind === 'appeal' ? startsAfterCampaignEnds(from, campaign?.to) : null;
  return why ? `${why[0].toUpperCase()}${why.slice(1)}.` : null;
}

/** "a title, a goal and an image" (shared with the dashboard's forms and the donation box). */
export { listInWords } from '../../lib/format';

/** Problems the browser can spot before the save; the API checks everything again. */
export function formProblems(form: EditorForm): string[] {
  const problems: string[] = [];
  const goal = poundsToPence(form.goal);
  if (goal === null || goal <= 0) problems.push('Enter a goal in pounds greater than £0, e.g. 500 or 99.50.');
  else if (goal > MAX_GOAL_PENCE) problems.push('The goal can be at most £1,000,000.');
  if (form.video.trim() && !isAllowedVideoUrl(form.video.trim())) {
    problems.push('The video link must be an https link to YouTube, Vimeo, Loom or Wistia.');
  }
  const dates = dateOrderProblem(form.dateFrom, form.dateTo);
  if (dates) problems.push(dates);
  if (payloadChars(form) > MAX_PAYLOAD_CHARS) {
    problems.push('These images add up to more than 48 MB. Save with fewer new images, then add the rest.');
  }
  return problems;
}

const payloadChars = (form: EditorForm) =>
  form.images.reduce(
    (sum, image) =>
      sum +
      ('base64' in image ? image.base64.length + (image.variants ?? []).reduce((n, v) => n + v.base64.length, 0) : 0),
    0,
  );

export function toPayload(
  form: EditorForm,
  kind: EditorKind,
  opts: { canSetStatus: boolean; name: string; setsCodes?: boolean },
) {
  return {
    kind,
    title: form.title.trim(),
    description: form.description.trim(),
    story: fillName(form.story, opts.name),
    video: form.video.trim() || null,
    date: { from: form.dateFrom || null, to: form.dateTo || null },
    goal: poundsToPence(form.goal) ?? 0,
    images: form.images.map((image) =>
      'base64' in image
        ? {
            base64: image.base64,
            name: image.name,
            size: image.size,
            type: image.type,
            ...(image.variants?.length ? { variants: image.variants } : {}),
          }
        : { Key: image.Key, name: image.name, size: image.size, type: image.type },
    ),
    campaign_id: kind === 'appeal' ? form.campaignId || null : null,
    organization_id: kind === 'campaign' ? form.organizationId || null : null,
    template_cause_id: form.templateCauseId,
    // Only the organization's admins may mark a sponsored event (the API refuses others).
    ...(opts.canSetStatus ? { status: form.status, sponsored_event: form.sponsoredEvent } : {}),
    // The chart of accounts' people (staff, finance) set a fund's code; '' uses the organization's.
    ...(opts.setsCodes && form.incomeCode !== null ? { income_code: form.incomeCode.trim() } : {}),
  };
}

export const imageSrc = (image: EditorImage) => ('base64' in image ? image.base64 : image.url);

/** Where to go after a save; "{id}" in redirectTo becomes the saved item's short id. */
export function redirectTarget(kind: EditorKind, redirectTo: string | undefined, shortId: string, status = ''): string {
  const target = redirectTo ?? (kind === 'campaign' ? '/dashboard/active-campaigns' : '/dashboard/active-appeals');
  return target.replaceAll('{id}', encodeURIComponent(shortId)).replaceAll('{status}', encodeURIComponent(status));
}

/**
 * What saving a new status tells fundraisers (decisions 063, 064 and 066), said beside the Status
 * select so the admin knows before saving. Null for new items and no change.
 */
export function statusChangeNote(
  kind: EditorKind,
  saved: EditorForm['status'] | null,
  chosen: EditorForm['status'],
): string | null {
  if (saved === null || saved === chosen) return null;
  if (kind === 'campaign') {
    // Monthly donors to it or its appeals are told too (decision 070).
    if (saved === 'approved')
      return 'Saving takes its appeals off the site with it, and emails their fundraisers and its monthly donors that it did.';
    if (chosen === 'approved')
      return 'Saving puts its live appeals back on the site, and emails the fundraisers told they went.';
    return null;
  }
  const who = 'Saving emails the fundraiser who started it (unless that is you)';
  if (chosen === 'approved') return `${who} that it is approved.`;
  // Its monthly donors hear when it leaves the site (decision 070); a draft deleted later was told then.
  if (saved === 'approved') return `${who}, and anyone giving to it monthly, that it is off the site.`;
  if (chosen === 'deleted') return `${who} that it is off the site.`;
  return null;
}
